import { headerKey } from "./cells.ts";
import { csvRecords, sniffDelimiter } from "./csv.ts";
import { emptyFacts, type ImportFacts, type ImportKind, type Provider } from "./facts.ts";
import { ImportFormatError, type JsonFormat, type TableFormat } from "./format.ts";
import { JSON_FORMATS, TABLE_FORMATS } from "./formats/index.ts";
import { decodeText } from "./text-decode.ts";
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

/**
 * Reads an uploaded export (a CSV/TSV in any encoding and delimiter, a JSON document, or a ZIP of
 * them) into facts. Formats are recognised by their header row, never by file name. Throws
 * ImportFormatError naming what was expected when nothing in the file is recognised.
 */
export function parseImport(bytes: Uint8Array, fileName: string, options: ParseOptions = {}): ParsedImport {
  const facts = emptyFacts();
  const used: (TableFormat | JsonFormat)[] = [];
  let files: { name: string; data: Uint8Array }[];
  if (isZip(bytes)) {
    try {
      files = readZip(bytes, options.zipCaps ?? DEFAULT_ZIP_CAPS);
    } catch (err) {
      if (err instanceof ZipError) throw new ImportFormatError(err.message);
      throw err;
    }
  } else files = [{ name: fileName, data: bytes }];
  for (const file of files) {
    const format = readOne(file.name, file.data, facts);
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

/** Reads one file into facts; answers the format that read it, or null when none knows it. */
function readOne(name: string, data: Uint8Array, facts: ImportFacts): TableFormat | JsonFormat | null {
  const { text } = decodeText(data);
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
  const records = csvRecords(text, sniffDelimiter(text));
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
