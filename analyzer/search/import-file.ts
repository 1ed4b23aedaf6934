import { headerKey } from "./cells.ts";
import { csvRecords, sniffDelimiter } from "./csv.ts";
import { emptyFacts, type ImportFacts, type ImportKind, type Provider } from "./facts.ts";
import { ImportFormatError, type JsonFormat, type TableFormat } from "./format.ts";
import { JSON_FORMATS, TABLE_FORMATS } from "./formats/index.ts";
import { decodeText } from "./text-decode.ts";
import { isXlsx, readWorkbook } from "./xlsx.ts";
import { isZip, readZip, ZipError, type ZipCaps } from "./zip-reader.ts";

/** Bumped whenever a parser's output changes: the same file imported again under a new version is a new batch. */
export const PARSER_VERSION = 1;

/** Exports put the header within the first rows (after a title or a blank line at most). */
const HEADER_SEARCH_ROWS = 40;

export const DEFAULT_ZIP_CAPS: ZipCaps = { maxEntries: 64, maxEntryBytes: 256 * 1024 * 1024, maxTotalBytes: 512 * 1024 * 1024 };

export interface ParsedImport {
  readonly provider: Provider;
  readonly kind: ImportKind;
  /** The formats that read the file's tables, e.g. gsc_performance, gsc_filters. */
  readonly formats: readonly string[];
  readonly facts: ImportFacts;
}

export interface ParseOptions {
  readonly zipCaps?: ZipCaps;
  /** What the caller says the file is; a file recognised as something else is refused. */
  readonly provider?: Provider;
  readonly kind?: ImportKind;
}

/** Every format's expected header, for the error of a file that matched none. */
export function expectedFormats(): string[] {
  return [...TABLE_FORMATS, ...JSON_FORMATS].filter((f) => !f.id.endsWith("_filters") && !f.id.endsWith("_metadata")).map((f) => f.expects);
}

/** One table to read: a file's bytes (CSV, TSV, JSON) or a spreadsheet's rows already as text cells. */
type Source = { readonly name: string; readonly data: Uint8Array } | { readonly name: string; readonly rows: string[][] };

/**
 * Reads an uploaded export (a CSV/TSV in any encoding and delimiter, a JSON document, or a ZIP of
 * them) into facts. Formats are recognised by their header row, never by file name. Throws
 * ImportFormatError naming what was expected when nothing in the file is recognised. XLSX
 * workbooks need parseImportFile (their reader is asynchronous).
 */
export function parseImport(bytes: Uint8Array, fileName: string, options: ParseOptions = {}): ParsedImport {
  let files: Source[];
  if (isZip(bytes)) {
    files = readZipCapped(bytes, options);
    if (isXlsx(files)) throw new ImportFormatError(`${fileName} is an XLSX workbook; it is read by parseImportFile`);
  } else files = [{ name: fileName, data: bytes }];
  return readSources(files, fileName, options);
}

/**
 * parseImport for every upload, XLSX workbooks too (GSC and Yandex Webmaster offer Excel
 * downloads): a workbook is a ZIP, so the ZIP caps are checked first by inflating it under them;
 * then every sheet is read as one table (GSC puts Queries, Pages, … Filters on sheets of their own),
 * its cells as text, through the same header-row detection as CSV.
 */
export async function parseImportFile(bytes: Uint8Array, fileName: string, options: ParseOptions = {}): Promise<ParsedImport> {
  if (!isZip(bytes)) return parseImport(bytes, fileName, options);
  const entries = readZipCapped(bytes, options);
  if (!isXlsx(entries)) return readSources(entries, fileName, options);
  return readSources(await readWorkbook(bytes, fileName), fileName, options);
}

function readZipCapped(bytes: Uint8Array, options: ParseOptions): Source[] {
  try {
    return readZip(bytes, options.zipCaps ?? DEFAULT_ZIP_CAPS);
  } catch (err) {
    if (err instanceof ZipError) throw new ImportFormatError(err.message);
    throw err;
  }
}

function readSources(files: readonly Source[], fileName: string, options: ParseOptions): ParsedImport {
  const facts = emptyFacts();
  const used: (TableFormat | JsonFormat)[] = [];
  for (const file of files) {
    const format = readOne(file, facts);
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

/** Reads one table into facts; answers the format that read it, or null when none knows it. */
function readOne(file: Source, facts: ImportFacts): TableFormat | JsonFormat | null {
  if ("rows" in file) return readTable(file.name, file.rows.values(), facts);
  const { text } = decodeText(file.data);
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
    return format ?? null;
  }
  return readTable(file.name, csvRecords(text, sniffDelimiter(text)), facts);
}

/** Finds the header row within the first rows and hands the rest to the format it names. */
function readTable(name: string, records: IterableIterator<string[]>, facts: ImportFacts): TableFormat | null {
  for (let i = 0; i < HEADER_SEARCH_ROWS; i++) {
    const next = records.next();
    if (next.done) return null;
    const header = next.value.map(headerKey);
    const format = TABLE_FORMATS.find((f) => f.matches(header));
    if (format) {
      format.read(header, records, facts, { fileName: name });
      return format;
    }
  }
  return null;
}
