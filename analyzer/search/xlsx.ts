import { ImportFormatError } from "./format.ts";

// XLSX workbooks (GSC and Yandex Webmaster offer Excel downloads beside CSV), read with
// read-excel-file. The importer has inflated the workbook under its ZIP caps before this runs, so
// the reader never meets a bomb; it turns each sheet into rows of text cells for the CSV formats.
// The reader loads on the first workbook: modules that only need the formats' names stay light.

/** True when a ZIP's entries are an Office Open XML workbook. */
export function isXlsx(entries: readonly { readonly name: string }[]): boolean {
  return entries.some((e) => e.name === "xl/workbook.xml") && entries.some((e) => e.name === "[Content_Types].xml");
}

/** A cell as the CSV reader would have seen it: numbers as written (dot decimal), dates as YYYY-MM-DD. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return "";
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? "" : cell.toISOString().slice(0, 10);
  if (typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean") return String(cell);
  return "";
}

/** Every sheet of a workbook, in order, as a table named by its sheet. */
export async function readWorkbook(bytes: Uint8Array, fileName: string): Promise<{ name: string; rows: string[][] }[]> {
  let sheets;
  try {
    const { default: readXlsxFile } = await import("read-excel-file/node");
    sheets = await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { parseNumber: (text: string) => text, trim: true });
  } catch (err) {
    throw new ImportFormatError(`${fileName} is not a readable XLSX workbook: ${(err as Error).message}`);
  }
  return sheets.map((s) => ({ name: s.sheet, rows: s.data.map((row) => row.map(cellText)) }));
}
