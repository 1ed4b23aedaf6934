import { CellError } from "./format.ts";

// Cell readers for exports in any UI locale (search-data-anchors §7 parser checklist).

/** Leading characters a spreadsheet runs as a formula (CSV injection). */
const FORMULA_LEADS = "=+-@\t\r";

/**
 * A text cell as stored: trimmed, and without the leading = + - @ (and tab/CR) a spreadsheet would
 * run as a formula when a user re-exports our data (CSV injection). Repeated so "=+cmd" loses both.
 */
export function cleanText(cell: string): string {
  // NUL cannot be stored in a Postgres text column; it has no meaning in an export either.
  let s = cell.replace(/\u0000/g, "").trim();
  // A leading character is judged by its compatibility form: ＝ (U+FF1D) and ﹦ (U+FE66) become
  // "=" under NFKC, which a query's normalisation applies and a spreadsheet may too.
  for (let lead = firstChar(s); lead !== "" && FORMULA_LEADS.includes(lead.normalize("NFKC").charAt(0)); lead = firstChar(s)) {
    s = s.slice(lead.length).trimStart();
  }
  return s;
}

/** The first code point of s, as text ("" when s is empty). */
function firstChar(s: string): string {
  const cp = s.codePointAt(0);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

/**
 * A number written in any UI locale: "1,240", "1 240", "1.234" (thousands), "6.4", "11,7" (decimal
 * comma), "3,2 %". Null for a blank cell, "--", "-" or anything else not a number.
 */
export function parseLocaleNumber(cell: string): number | null {
  let s = cell.replace(/[\s\u00a0\u202f%]/g, "");
  if (s === "" || /^[-–—]+$/.test(s)) return null;
  const commas = (s.match(/,/g) ?? []).length;
  const dots = (s.match(/\./g) ?? []).length;
  if (commas > 0 && dots > 0) {
    // The later separator is the decimal one: "1,234.5" or "1.234,5".
    s = s.lastIndexOf(",") > s.lastIndexOf(".") ? s.replace(/\./g, "").replace(",", ".") : s.replace(/,/g, "");
  } else if (commas > 1) s = s.replace(/,/g, "");
  else if (commas === 1) s = /^-?\d{1,3},\d{3}$/.test(s) ? s.replace(",", "") : s.replace(",", ".");
  else if (dots > 1) s = s.replace(/\./g, "");
  if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(s)) return null;
  return Number(s);
}

/** True for a cell that holds no figure on purpose: blank, or a dash ("-", "--", "—"). */
function isNoFigure(cell: string): boolean {
  return /^[-–—]*$/.test(cell.replace(/[\s\u00a0\u202f%]/g, ""));
}

/**
 * A figure a format stores (a position, a share): null when the column is absent or the cell is
 * blank or a dash; CellError when the cell holds text or a negative number, so a file whose
 * figures did not parse is refused rather than read as zeros.
 */
export function figureAt(row: readonly string[], col: number): number | null {
  if (col < 0) return null;
  const cell = row[col] ?? "";
  const n = parseLocaleNumber(cell);
  if (n === null) {
    if (isNoFigure(cell)) return null;
    throw new CellError(col, `${JSON.stringify(cleanText(cell).slice(0, 40))} is not a number`);
  }
  // The cell as written (cleanText would drop the minus, as it drops a formula's lead).
  if (n < 0) throw new CellError(col, `${cell.trim().slice(0, 40)} is negative`);
  return n;
}

/** A count a format stores (clicks, impressions, pages): figureAt, rounded, and at most 2^53. */
export function countAt(row: readonly string[], col: number): number | null {
  const n = figureAt(row, col);
  if (n === null) return null;
  const count = Math.round(n);
  if (!Number.isSafeInteger(count)) throw new CellError(col, `${(row[col] ?? "").trim().slice(0, 40)} is too large for a count`);
  return count;
}

/** A whole count ("1,240", "1 240"); null when blank or not a number. */
export function parseCount(cell: string): number | null {
  const n = parseLocaleNumber(cell);
  return n === null ? null : Math.round(n);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * A calendar date as YYYY-MM-DD from ISO (also with a time, or Yandex's "T00:00:00,000+0300"),
 * "Sep 15, 2026", "15.09.2026" or "15/09/2026". Null otherwise; "1969-12-31" (GSC: never crawled)
 * is null too.
 */
export function parseDay(cell: string): string | null {
  const s = cell.trim();
  let y: number;
  let m: number;
  let d: number;
  let hit = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (hit) [y, m, d] = [Number(hit[1]), Number(hit[2]), Number(hit[3])];
  else if ((hit = /^(\d{1,2})[./](\d{1,2})[./](\d{4})/.exec(s))) [d, m, y] = [Number(hit[1]), Number(hit[2]), Number(hit[3])];
  else if ((hit = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})/.exec(s))) {
    const month = MONTHS.indexOf((hit[1] as string).toLowerCase());
    if (month < 0) return null;
    [y, m, d] = [Number(hit[3]), month + 1, Number(hit[2])];
  } else return null;
  if (y < 1990 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

/** A yes/no flag as exports write it: true/false, 1/0, yes/no, да/нет. */
export function parseFlag(cell: string): boolean {
  return /^(true|1|yes|y|да)$/i.test(cell.trim());
}

/** A search query as stored: NFKC, lower case, collapsed spaces (reference §6.1). */
export function normalizeQuery(q: string): string {
  // Normalised first, then cleaned: the formula guard sees the characters that are stored.
  return cleanText(q.normalize("NFKC")).toLowerCase().replace(/\s+/g, " ");
}

/** A header cell compared loosely: lower case, BOM and quotes gone, spaces collapsed. */
export function headerKey(cell: string): string {
  return cell.replace(/^\ufeff/, "").trim().toLowerCase().replace(/\s+/g, " ");
}

/** A JSON scalar as text: strings as they are, numbers printed, anything else ''. */
export function scalarText(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : "";
}
