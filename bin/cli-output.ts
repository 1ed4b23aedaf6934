// How a client command shows an answer by default, as a person reads it: the answer's main list of
// records as an aligned table at the end, its other fields as "name: value" lines above it (nested
// objects indented, other lists of records as titled tables, times as UTC dates, a utility's ready
// blocks as text and tables, produced files as their size). --json prints the answer as the API
// sent it instead.

const MAX_CELL = 48;
/** A flat object this short stays on its line: `page: limit=50 offset=0 total=2`. */
const INLINE_MAX = 100;
/** Unix seconds between 2001 and 2096: what a time field of the API holds. */
const SECONDS_MIN = 1_000_000_000;
const SECONDS_MAX = 4_000_000_000;
// Every field the contracts type as Unix seconds (test/unit/cli-output.test.ts holds the two together).
const TIME_KEYS = new Set(["created", "updated", "at", "since", "finished", "last_check", "last_run", "expires", "started", "until", "next", "closed", "added", "first_checked", "first_seen", "last_seen", "revoked", "robots_ts", "ts", "valid_from", "valid_to", "wait_until"]);

type Row = Record<string, unknown>;

function isRecord(value: unknown): value is Row {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isRecordList(value: unknown): value is Row[] {
  return Array.isArray(value) && value.every(isRecord);
}

function isTimeKey(key: string): boolean {
  return TIME_KEYS.has(key) || key.endsWith("_at") || key.endsWith("_time");
}

/** A scalar as text; Unix seconds under a time key as a UTC date, a produced file as its size. */
function scalar(key: string, value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "number" && Number.isInteger(value) && value >= SECONDS_MIN && value < SECONDS_MAX && isTimeKey(key)) {
    return `${new Date(value * 1000).toISOString().slice(0, 19).replace("T", " ")}Z`;
  }
  if (typeof value === "string" && key === "data_base64") return `(${Math.floor((value.length * 3) / 4)} bytes; --out FILE saves it)`;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A table cell: scalars whole (a hash, a URL), nested JSON cut at MAX_CELL. */
function cell(key: string, value: unknown): string {
  const text = scalar(key, value);
  return value !== null && typeof value === "object" && text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** Rows as an aligned table of their columns, in first-seen order. */
export function renderTable(rows: readonly Row[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return alignedTable(
    columns.map((c) => c.toUpperCase()),
    rows.map((row) => columns.map((c) => cell(c, row[c]))),
  );
}

function alignedTable(header: readonly string[], cells: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const line = (parts: readonly string[]) => parts.map((p, i) => p.padEnd(widths[i] as number)).join("  ").trimEnd();
  return [line(header), ...cells.map(line)].join("\n");
}

function indent(text: string, by: string): string[] {
  return text.split("\n").map((l) => by + l);
}

function inlineObject(value: Row): string | null {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && typeof v === "object") return null;
    parts.push(`${k}=${scalar(k, v)}`);
  }
  const text = parts.join(" ");
  return text.length <= INLINE_MAX ? text : null;
}

/** A utility's ready blocks (pairs, tables, code, comparisons, images) as text. */
function renderBlocks(blocks: Row, pad: string): string[] {
  const lines: string[] = [];
  const list = (name: string) => (Array.isArray(blocks[name]) ? (blocks[name] as Row[]) : []);
  const text = (v: unknown) => scalar("", v);
  const pairs = list("pairs");
  if (pairs.length > 0) {
    const width = Math.max(...pairs.map((p) => String(p.label).length));
    for (const p of pairs) lines.push(`${pad}${String(p.label).padEnd(width)}  ${String(p.value)}${p.status && p.status !== "info" ? `  [${text(p.status)}]` : ""}`);
  }
  for (const t of list("tables")) {
    lines.push("", `${pad}${String(t.title)}:`);
    const rows = (t.rows as unknown[][]).map((r) => r.map(text));
    lines.push(...indent(rows.length === 0 ? "(none)" : alignedTable((t.columns as string[]).map((c) => c.toUpperCase()), rows), `${pad}  `));
  }
  for (const c of list("code")) lines.push("", `${pad}${c.filename ? `${text(c.filename)} ` : ""}(${String(c.lang)}):`, ...indent(String(c.text), `${pad}  `));
  for (const c of list("comparison")) lines.push("", `${pad}before:`, ...indent(String(c.before), `${pad}  `), `${pad}after:`, ...indent(String(c.after), `${pad}  `));
  for (const i of list("images")) lines.push(`${pad}image: ${String(i.alt)} (${String(i.mime)}, ${String(i.width)}×${String(i.height)}; --out FILE saves it)`);
  return lines;
}

function renderFields(entries: readonly [string, unknown][], pad: string): string[] {
  const lines: string[] = [];
  for (const [key, value] of entries) {
    if (key === "blocks" && isRecord(value)) {
      const inner = renderBlocks(value, `${pad}  `);
      if (inner.some((l) => l.trim() !== "")) lines.push(`${pad}${key}:`, ...inner);
    } else if (isRecordList(value)) {
      if (value.length === 0) lines.push(`${pad}${key}: (none)`);
      else lines.push(`${pad}${key}:`, ...indent(renderTable(value), `${pad}  `));
    } else if (Array.isArray(value)) {
      lines.push(`${pad}${key}: ${value.length === 0 ? "(none)" : value.map((v) => scalar(key, v)).join(", ")}`);
    } else if (isRecord(value)) {
      const inline = inlineObject(value);
      if (inline !== null) lines.push(`${pad}${key}: ${inline}`);
      else lines.push(`${pad}${key}:`, ...renderFields(Object.entries(value), `${pad}  `));
    } else {
      lines.push(`${pad}${key}: ${scalar(key, value)}`);
    }
  }
  return lines;
}

/** An answer as people read it. */
export function renderAnswer(body: unknown): string {
  if (!isRecord(body)) return isRecordList(body) ? (body.length === 0 ? "(none)" : renderTable(body)) : scalar("", body);
  // A utility's answer: its ready blocks are what a person reads; result is the same as machine data.
  const shown = isRecord(body.blocks) && "result" in body && renderBlocks(body.blocks, "").some((l) => l.trim() !== "") ? { ...body, result: undefined } : body;
  const entries = Object.entries(shown).filter(([, v]) => v !== undefined);
  // The answer's main list: its first non-empty list of records; a page of a list even when empty.
  const main = entries.find(([, v]) => isRecordList(v) && v.length > 0) ?? ("page" in body ? entries.find(([, v]) => isRecordList(v)) : undefined);
  const lines = renderFields(
    entries.filter(([key]) => key !== main?.[0]),
    "",
  );
  if (main) {
    const [key, rows] = main as [string, Row[]];
    if (lines.length > 0) lines.push("");
    lines.push(rows.length === 0 ? `(no ${key})` : renderTable(rows));
  }
  return lines.join("\n");
}

/**
 * The file an answer produced, for --out: a utility's result.data_base64 (an image, a zip), else
 * its first image block, else its first code block (a generated sitemap or robots.txt). Null when
 * the answer has none.
 */
export function producedFile(body: unknown): Buffer | null {
  if (!isRecord(body)) return null;
  const result = isRecord(body.result) ? body.result : {};
  if (typeof result.data_base64 === "string") return Buffer.from(result.data_base64, "base64");
  const blocks = isRecord(body.blocks) ? body.blocks : {};
  const image = Array.isArray(blocks.images) ? (blocks.images as Row[])[0] : undefined;
  if (image && typeof image.data_base64 === "string") return Buffer.from(image.data_base64, "base64");
  const code = Array.isArray(blocks.code) ? (blocks.code as Row[])[0] : undefined;
  if (code && typeof code.text === "string") return Buffer.from(code.text, "utf8");
  return null;
}

/** A one-line progress bar: [#########...........]  45% running. */
export function progressBar(progress: number, state: string, width = 30): string {
  const p = Math.max(0, Math.min(100, Math.round(progress)));
  const filled = Math.round((p / 100) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(p).padStart(3)}% ${state}`;
}
