import { ImportFormatError, type TableSource } from "./format.ts";
import { attr, decodeXml, XmlTokenizer, type XmlHandler } from "./xml-tokens.ts";
import type { ZipEntry } from "./zip-reader.ts";

// XLSX workbooks (Office Open XML) read as a stream: every sheet is inflated a chunk at a time and
// tokenized as it comes, and its rows go to the format reader one by one, so memory holds the
// shared strings and a chunk, never the sheet's XML nor a tree of it. A sheet's cells are text as
// the CSV formats see them: numbers as written (dot decimal), dates as YYYY-MM-DD, booleans
// true/false, trimmed.

/** True when a ZIP's entries are an Office Open XML workbook. */
export function isXlsx(entries: readonly { readonly name: string }[]): boolean {
  return entries.some((e) => e.name === "xl/workbook.xml") && entries.some((e) => e.name === "[Content_Types].xml");
}

/** Limits of one workbook: the shared strings it may hold (each is some cell's text, so the cell cap bounds them). */
export interface WorkbookLimits {
  readonly maxStrings: number;
}

/** Number formats Excel builds in that show a date (ECMA-376 §18.8.30). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** True when a custom number format shows a date: a d, m or y outside quotes, escapes and [colour]/[$-locale] brackets. */
function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, "");
  return /[dmy]/i.test(bare);
}

/** Every sheet of a workbook, in its order, as a table named by its sheet, rows read lazily. */
export async function workbookSheets(entries: readonly ZipEntry[], fileName: string, limits: WorkbookLimits): Promise<TableSource[]> {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const unreadable = (why: string) => new ImportFormatError(`${fileName} is not a readable XLSX workbook: ${why}`);
  const xml = (name: string) => {
    const e = byName.get(name);
    return e ? new TextDecoder("utf-8").decode(e.inflate()) : null;
  };
  const workbook = xml("xl/workbook.xml") as string;
  const rels = new Map<string, { type: string; target: string }>();
  walk(xml("xl/_rels/workbook.xml.rels") ?? "", (name, attrs) => {
    if (name === "Relationship") rels.set(attr(attrs, "Id") ?? "", { type: attr(attrs, "Type") ?? "", target: partName(attr(attrs, "Target") ?? "") });
  });
  const sheets: { name: string; part: string }[] = [];
  let date1904 = false;
  walk(workbook, (name, attrs) => {
    if (name === "workbookPr") date1904 = /^(1|true)$/.test(attr(attrs, "date1904") ?? "");
    if (name === "sheet") sheets.push({ name: attr(attrs, "name") ?? "", part: rels.get(attr(attrs, "id") ?? "")?.target ?? "" });
  });
  if (sheets.length === 0) throw unreadable("its workbook lists no sheet");
  const partOf = (suffix: string) => [...rels.values()].find((r) => r.type.endsWith(`/${suffix}`))?.target;
  const dateStyles = readDateStyles(xml(partOf("styles") ?? "xl/styles.xml") ?? "");
  const stringsEntry = byName.get(partOf("sharedStrings") ?? "xl/sharedStrings.xml");
  const strings = stringsEntry ? await readSharedStrings(stringsEntry, fileName, limits.maxStrings) : [];
  return sheets.map((s) => {
    const entry = byName.get(s.part);
    if (!entry) throw unreadable(`sheet ${s.name} has no part ${s.part || "(none)"}`);
    const reader = new SheetReader(strings, dateStyles, date1904);
    return {
      name: s.name,
      rows: reader.rows(entry),
      position: () => reader.position,
    };
  });
}

/** A relationship's target as a ZIP entry name ("worksheets/sheet1.xml" or "/xl/…" → "xl/…"). */
function partName(target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts: string[] = ["xl"];
  for (const p of target.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== "." && p !== "") parts.push(p);
  }
  return parts.join("/");
}

/** Calls open for every element of a small document (workbook, rels, styles). */
function walk(doc: string, open: (name: string, attrs: string) => void): void {
  new XmlTokenizer({ open, close: () => {}, text: () => {}, wantsText: () => false }).write(doc);
}

/** The cell styles (indexes of cellXfs) whose number format shows a date. */
function readDateStyles(doc: string): Set<number> {
  const custom = new Map<number, string>();
  const styles = new Set<number>();
  let inCellXfs = false;
  let xf = 0;
  new XmlTokenizer({
    open(name, attrs) {
      if (name === "numFmt") custom.set(Number(attr(attrs, "numFmtId")), attr(attrs, "formatCode") ?? "");
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number(attr(attrs, "numFmtId") ?? 0);
        const code = custom.get(id);
        if (code !== undefined ? isDateFormat(code) : DATE_FORMAT_IDS.has(id)) styles.add(xf);
        xf++;
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
    text: () => {},
    wantsText: () => false,
  }).write(doc);
  return styles;
}

/** The shared strings table, streamed: each <si>'s text runs joined, phonetic runs (<rPh>) left out. */
async function readSharedStrings(entry: ZipEntry, fileName: string, max: number): Promise<string[]> {
  const strings: string[] = [];
  let current = "";
  let inText = false;
  let inPhonetic = false;
  const tokens = new XmlTokenizer({
    open(name) {
      if (name === "si") current = "";
      else if (name === "t") inText = !inPhonetic;
      else if (name === "rPh") inPhonetic = true;
    },
    close(name) {
      if (name === "t") inText = false;
      else if (name === "rPh") inPhonetic = false;
      else if (name === "si") {
        if (strings.length >= max) throw new ImportFormatError(`${fileName} holds more than ${max.toLocaleString("en-US")} distinct texts; an import reads at most ${max.toLocaleString("en-US")} cells`);
        strings.push(decodeXml(current));
      }
    },
    text(raw) {
      current += raw;
    },
    wantsText: () => inText,
  });
  await feed(entry, tokens);
  return strings;
}

async function feed(entry: ZipEntry, tokens: XmlTokenizer): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of entry.chunks()) tokens.write(decoder.decode(chunk, { stream: true }));
  tokens.write(decoder.decode());
}

/** Column XFD, the last of a worksheet (0-based). */
const MAX_COLUMN = 16_383;

/** Days from Excel's day 0 to 1970-01-01, in the 1900 and 1904 date systems. */
const EPOCH_1900 = 25_569;
const EPOCH_1904 = 24_107;

/** One sheet's rows, read as its XML streams by: a row is complete at </row>. */
class SheetReader implements XmlHandler {
  /** The sheet's row number of the row last handed out (1-based, as Excel shows it). */
  position = 0;
  private ready: { n: number; cells: string[] }[] = [];
  private cells: string[] = [];
  private rowNumber = 0;
  private col = -1;
  private type = "";
  private style = -1;
  private value = "";
  private capture = false;
  private inCell = false;

  constructor(
    private readonly strings: readonly string[],
    private readonly dateStyles: ReadonlySet<number>,
    private readonly date1904: boolean,
  ) {}

  async *rows(entry: ZipEntry): AsyncGenerator<string[]> {
    const decoder = new TextDecoder("utf-8");
    const tokens = new XmlTokenizer(this);
    const drain = function* (this: SheetReader) {
      for (const row of this.ready) {
        this.position = row.n;
        yield row.cells;
      }
      this.ready = [];
    }.bind(this);
    for await (const chunk of entry.chunks()) {
      tokens.write(decoder.decode(chunk, { stream: true }));
      yield* drain();
    }
    tokens.write(decoder.decode());
    yield* drain();
  }

  open(name: string, attrs: string): void {
    if (name === "row") {
      const r = Number(attr(attrs, "r"));
      this.rowNumber = Number.isSafeInteger(r) && r > 0 ? r : this.rowNumber + 1;
      this.cells = [];
      this.col = -1;
    } else if (name === "c") {
      const ref = attr(attrs, "r");
      this.col = ref ? columnIndex(ref) : this.col + 1;
      if (this.col > MAX_COLUMN) throw new ImportFormatError(`a cell of sheet row ${this.rowNumber} lies past column XFD, the last a workbook has`);
      this.type = attr(attrs, "t") ?? "n";
      this.style = Number(attr(attrs, "s") ?? -1);
      this.value = "";
      this.inCell = true;
    } else if (this.inCell && (name === "v" || name === "t")) this.capture = true;
  }

  close(name: string): void {
    if (name === "v" || name === "t") this.capture = false;
    else if (name === "c") {
      this.inCell = false;
      const text = this.cellText();
      if (text !== "" && this.col >= 0) {
        while (this.cells.length < this.col) this.cells.push("");
        this.cells[this.col] = text;
      }
    } else if (name === "row") this.ready.push({ n: this.rowNumber, cells: this.cells });
  }

  text(raw: string): void {
    this.value += raw;
  }

  wantsText(): boolean {
    return this.capture;
  }

  private cellText(): string {
    const v = decodeXml(this.value).trim();
    switch (this.type) {
      case "s":
        return (this.strings[Number(v)] ?? "").trim();
      case "b":
        return v === "" ? "" : v === "1" ? "true" : "false";
      case "e":
        return "";
      case "d":
        return v.slice(0, 10);
      case "n":
        return v !== "" && this.dateStyles.has(this.style) ? this.serialDate(Number(v)) : v;
      default:
        return v;
    }
  }

  private serialDate(serial: number): string {
    if (!Number.isFinite(serial)) return "";
    const ms = (Math.floor(serial) - (this.date1904 ? EPOCH_1904 : EPOCH_1900)) * 86_400_000;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? "" : d.toISOString().slice(0, 10);
  }
}

/** The 0-based column of a cell reference ("A1" → 0, "AB12" → 27). */
function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
    if (n > MAX_COLUMN + 1) return MAX_COLUMN + 1;
  }
  return n - 1;
}
