import { headerKey } from "./cells.ts";
import { csvTable, sniffDelimiter } from "./csv.ts";
import { emptyFacts, factCount, type ImportFacts, type ImportKind, type Provider } from "./facts.ts";
import { CellError, ImportFormatError, type DataRows, type JsonFormat, type TableFormat, type TableSource } from "./format.ts";
import { JSON_FORMATS, TABLE_FORMATS } from "./formats/index.ts";
import { decodeText } from "./text-decode.ts";
import { isXlsx, workbookSheets } from "./xlsx.ts";
import { XmlTooLongError } from "./xml-tokens.ts";
import { isZip, readZip, ZipError, type ZipCaps, type ZipEntry } from "./zip-reader.ts";

/** Bumped whenever a parser's output changes: the same file imported again under a new version is a new batch. */
export const PARSER_VERSION = 1;

/** Exports put the header within the first rows (after a title or a blank line at most). */
const HEADER_SEARCH_ROWS = 40;

export const DEFAULT_ZIP_CAPS: ZipCaps = { maxEntries: 64, maxEntryBytes: 256 * 1024 * 1024, maxTotalBytes: 512 * 1024 * 1024 };

/** What one import may hold: rows read from its tables (facts of its JSON documents) and cells. */
export interface ImportLimits {
  readonly maxRows: number;
  readonly maxCells: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { maxRows: 500_000, maxCells: 10_000_000 };

export interface ParsedImport {
  readonly provider: Provider;
  readonly kind: ImportKind;
  /** The formats that read the file's tables, e.g. gsc_performance, gsc_filters. */
  readonly formats: readonly string[];
  readonly facts: ImportFacts;
}

export interface ParseOptions {
  readonly zipCaps?: ZipCaps;
  readonly limits?: ImportLimits;
  /** What the caller says the file is; a file recognised as something else is refused. */
  readonly provider?: Provider;
  readonly kind?: ImportKind;
}

/** Every format's expected header, for the error of a file that matched none. */
export function expectedFormats(): string[] {
  return [...TABLE_FORMATS, ...JSON_FORMATS].filter((f) => !f.id.endsWith("_filters") && !f.id.endsWith("_metadata")).map((f) => f.expects);
}

/** One file to read: its bytes (CSV, TSV, JSON), or a spreadsheet's sheet already as rows of text cells. */
type Source = { readonly name: string; readonly data: () => Uint8Array } | TableSource;

/**
 * Reads an uploaded export (a CSV/TSV in any encoding and delimiter, a JSON document, an XLSX
 * workbook, or a ZIP of them) into facts. Formats are recognised by their header row, never by
 * file name. A ZIP is read entry by entry under its caps; a workbook's sheets are streamed, each
 * one table (GSC puts Queries, Pages, … Filters on sheets of their own). Throws ImportFormatError
 * naming what was expected when nothing in the file is recognised, naming the row and column of a
 * figure that is not one, and saying the cap when the file holds more rows or cells than an
 * import may.
 */
export async function parseImport(bytes: Uint8Array, fileName: string, options: ParseOptions = {}): Promise<ParsedImport> {
  const limits = options.limits ?? DEFAULT_IMPORT_LIMITS;
  let files: Source[] = [{ name: fileName, data: () => bytes }];
  if (isZip(bytes)) {
    const entries = readZipCapped(bytes, options);
    files = isXlsx(entries) ? await zipped(() => workbookSheets(entries, fileName, { maxStrings: limits.maxCells })) : entries.map((e: ZipEntry) => ({ name: e.name, data: () => e.inflate() }));
  }
  return zipped(() => readSources(files, fileName, options, limits));
}

function readZipCapped(bytes: Uint8Array, options: ParseOptions): ZipEntry[] {
  try {
    return readZip(bytes, options.zipCaps ?? DEFAULT_ZIP_CAPS);
  } catch (err) {
    if (err instanceof ZipError) throw new ImportFormatError(err.message);
    throw err;
  }
}

/** Runs a read whose ZIP entries inflate lazily: a cap met on the way is the file's fault. */
async function zipped<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ZipError || err instanceof XmlTooLongError) throw new ImportFormatError(err.message);
    throw err;
  }
}

/** Rows and cells read so far over the whole import, against its limits. */
class Budget {
  private rows = 0;
  private cells = 0;

  constructor(
    private readonly fileName: string,
    private readonly limits: ImportLimits,
  ) {}

  take(cells: number): void {
    this.rows++;
    this.cells += cells;
    if (this.rows > this.limits.maxRows) throw new ImportFormatError(`${this.fileName} holds more than ${fmt(this.limits.maxRows)} rows, the most an import may hold; split the export into smaller files`);
    if (this.cells > this.limits.maxCells) throw new ImportFormatError(`${this.fileName} holds more than ${fmt(this.limits.maxCells)} cells, the most an import may hold; split the export into smaller files`);
  }

  /** A JSON document's facts count as its rows. */
  facts(total: number): void {
    if (total > this.limits.maxRows) throw new ImportFormatError(`${this.fileName} holds more than ${fmt(this.limits.maxRows)} rows, the most an import may hold; split the export into smaller files`);
  }
}

const fmt = (n: number) => n.toLocaleString("en-US");

async function readSources(files: readonly Source[], fileName: string, options: ParseOptions, limits: ImportLimits): Promise<ParsedImport> {
  const facts = emptyFacts();
  const used: (TableFormat | JsonFormat)[] = [];
  const budget = new Budget(fileName, limits);
  for (const file of files) {
    const format = await readOne(file, facts, budget);
    if (format) {
      if (!used.includes(format)) used.push(format);
    } else if (files.length > 1) facts.warnings.push(`${file.name}: not a known export, skipped`);
  }
  const main = used.find((f) => !f.id.endsWith("_filters") && !f.id.endsWith("_metadata")) ?? used[0];
  if (!main) throw new ImportFormatError(`${fileName}: no known export header found in the first ${HEADER_SEARCH_ROWS} rows; expected one of: ${expectedFormats().join(" | ")}`);
  const providers = new Set(used.map((f) => f.provider));
  if (providers.size > 1) throw new ImportFormatError(`${fileName} mixes exports of ${[...providers].join(" and ")}; upload them as separate files`);
  if (options.provider !== undefined && options.provider !== main.provider) throw new ImportFormatError(`${fileName} is a ${main.provider} export (${main.id}), not ${options.provider}`);
  if (options.kind !== undefined && options.kind !== main.kind) throw new ImportFormatError(`${fileName} holds ${main.kind} data (${main.id}), not ${options.kind}`);
  return { provider: main.provider, kind: main.kind, formats: used.map((f) => f.id), facts };
}

/** Reads one file or sheet into facts; answers the format that read it, or null when none knows it. */
async function readOne(file: Source, facts: ImportFacts, budget: Budget): Promise<TableFormat | JsonFormat | null> {
  if ("rows" in file) return readTable(file, facts, budget);
  const { text } = decodeText(file.data());
  const head = text.trimStart();
  if (head.startsWith("{") || head.startsWith("[")) {
    let doc: unknown;
    try {
      doc = JSON.parse(head);
    } catch {
      return null;
    }
    const format = JSON_FORMATS.find((f) => f.matches(doc));
    format?.read(doc, facts);
    budget.facts(factCount(facts));
    checkJsonFigures(file.name, facts);
    return format ?? null;
  }
  return readTable(csvTable(file.name, text, sniffDelimiter(text)), facts, budget);
}

/**
 * The figures of a JSON export hold what the stores hold (whole regions, ranks and volumes of at
 * least 0 or 1): a file with one that is not is refused naming its keyword and field, never stored
 * half or answered with a server error by the storage's own check.
 */
function checkJsonFigures(name: string, facts: ImportFacts): void {
  const whole = (n: number | null, min: number) => n === null || (Number.isSafeInteger(n) && n >= min);
  const refuse = (keyword: string, field: string, value: number | null, min: number) => {
    throw new ImportFormatError(`${name}: keyword ${JSON.stringify(keyword)}: ${field} ${value} is not a whole number of at least ${min}; nothing of the file was imported`);
  };
  for (const r of facts.ranks) {
    if (!whole(r.region, 0)) refuse(r.keyword, "region", r.region, 0);
    if (!whole(r.position, 1)) refuse(r.keyword, "position", r.position, 1);
    if (!whole(r.volume, 0)) refuse(r.keyword, "volume", r.volume, 0);
  }
  for (const k of facts.marketKeywords) if (!whole(k.volume, 0)) refuse(k.keyword, "volume", k.volume, 0);
  for (const s of facts.serp) {
    if (!whole(s.region, 0)) refuse(s.keyword, "region", s.region, 0);
    if (!whole(s.rank, 1)) refuse(s.keyword, "rank", s.rank, 1);
  }
}

/** Rows a format could not use, by reason: how many and the first row of each. */
type Skips = Map<string, { count: number; first: number }>;

/**
 * Finds the header row within the first rows and hands the rest to the format it names. A figure
 * that is not one refuses the file naming its row and column; rows the format skipped are a
 * warning, or the file's refusal when they are most of its data rows.
 */
async function readTable(table: TableSource, facts: ImportFacts, budget: Budget): Promise<TableFormat | null> {
  const records = (Symbol.asyncIterator in table.rows ? table.rows[Symbol.asyncIterator]() : table.rows[Symbol.iterator]());
  for (let i = 0; i < HEADER_SEARCH_ROWS; i++) {
    const next = await records.next();
    if (next.done) return null;
    budget.take(next.value.length);
    const raw = next.value;
    const header = raw.map(headerKey);
    const format = TABLE_FORMATS.find((f) => f.matches(header));
    if (!format) continue;
    const tally = { rows: 0, skips: new Map() as Skips };
    const ctx = {
      fileName: table.name,
      skip(reason: string) {
        const seen = tally.skips.get(reason);
        if (seen) seen.count++;
        else tally.skips.set(reason, { count: 1, first: table.position() });
      },
    };
    try {
      await format.read(header, dataRows(records, budget, tally), facts, ctx);
    } catch (err) {
      if (!(err instanceof CellError)) throw err;
      const column = (raw[err.column] ?? "").replace(/^\ufeff/, "").trim() || `#${err.column + 1}`;
      throw new ImportFormatError(`${table.name}, row ${table.position()}, column ${column}: ${err.problem}; nothing of the file was imported`);
    }
    judgeSkips(table.name, tally.rows, tally.skips, facts);
    return format;
  }
  return null;
}

/** The data rows after the header, counted against the budget; rows of empty cells are not data. */
async function* dataRows(records: AsyncIterator<string[]> | Iterator<string[]>, budget: Budget, tally: { rows: number }): DataRows {
  for (;;) {
    const next = await records.next();
    if (next.done) return;
    budget.take(next.value.length);
    if (next.value.every((c) => c.trim() === "")) continue;
    tally.rows++;
    yield next.value;
  }
}

/** A warning naming the rows a format skipped, or the refusal of a table most of whose rows were. */
function judgeSkips(name: string, rows: number, skips: Skips, facts: ImportFacts): void {
  let skipped = 0;
  for (const s of skips.values()) skipped += s.count;
  if (skipped === 0) return;
  const reasons = [...skips].map(([reason, s]) => `row ${s.first}${s.count > 1 ? ` and ${fmt(s.count - 1)} more` : ""}: ${reason}`).join("; ");
  if (skipped * 2 > rows) throw new ImportFormatError(`${name}: ${fmt(skipped)} of its ${fmt(rows)} data rows could not be read (${reasons}); nothing of the file was imported`);
  facts.warnings.push(`${name}: ${fmt(skipped)} of ${fmt(rows)} data rows skipped (${reasons})`);
}
