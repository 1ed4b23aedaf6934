import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { crc32, createDeflateRaw } from "node:zlib";
import type { Writable } from "node:stream";

// Large XLSX workbooks written to a file as they are generated (test/hostile: a sheet of hundreds of
// MB that never sits in the test's memory whole). One sheet; text cells inline.

const NS = "http://schemas.openxmlformats.org";

/** A deflated entry being written: its CRC and sizes are counted as its chunks pass. */
interface Entry {
  readonly name: string;
  readonly offset: number;
  crc: number;
  size: number;
  packed: number;
}

/**
 * Writes an XLSX file at path whose one sheet holds the rows (a header first, then data), text cells
 * inline, numbers as numbers. Answers the sheet's uncompressed size in bytes.
 */
export async function writeLargeXlsx(path: string, sheetName: string, rows: () => Iterable<readonly (string | number)[]>): Promise<{ sheetBytes: number; fileBytes: number }> {
  const out = createWriteStream(path);
  const entries: Entry[] = [];
  let offset = 0;
  const write = async (chunk: Buffer) => {
    offset += chunk.length;
    if (!out.write(chunk)) await once(out, "drain");
  };
  const entry = async (name: string, chunks: () => Iterable<string>) => {
    const e: Entry = { name, offset, crc: 0, size: 0, packed: 0 };
    const nameBytes = Buffer.from(name, "utf8");
    // Sizes and CRC follow in a data descriptor (flag bit 3), as streaming writers do.
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x808, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(nameBytes.length, 26);
    await write(Buffer.concat([local, nameBytes]));
    const deflate = createDeflateRaw();
    const drained = (async () => {
      for await (const piece of deflate as AsyncIterable<Buffer>) {
        e.packed += piece.length;
        await write(piece);
      }
    })();
    for (const text of chunks()) {
      const bytes = Buffer.from(text, "utf8");
      e.crc = crc32(bytes, e.crc);
      e.size += bytes.length;
      if (!deflate.write(bytes)) await once(deflate as Writable, "drain");
    }
    deflate.end();
    await drained;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(e.crc, 4);
    descriptor.writeUInt32LE(e.packed, 8);
    descriptor.writeUInt32LE(e.size, 12);
    await write(descriptor);
    entries.push(e);
  };
  // Inline strings: a shared-strings table of a million queries would sit in the test's own memory.
  const cell = (v: string | number, ref: string) =>
    typeof v === "number" ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${v.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</t></is></c>`;
  const small = (text: string) => () => [text];
  await entry("[Content_Types].xml", small(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="${NS}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`));
  await entry("_rels/.rels", small(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${NS}/package/2006/relationships"><Relationship Id="rId1" Type="${NS}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`));
  await entry("xl/workbook.xml", small(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${NS}/spreadsheetml/2006/main" xmlns:r="${NS}/officeDocument/2006/relationships"><sheets><sheet name="${sheetName}" sheetId="1" r:id="rId1"/></sheets></workbook>`));
  await entry("xl/_rels/workbook.xml.rels", small(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${NS}/package/2006/relationships"><Relationship Id="rId1" Type="${NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`));
  await entry("xl/worksheets/sheet1.xml", function* () {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${NS}/spreadsheetml/2006/main"><sheetData>`;
    let r = 0;
    let batch = "";
    for (const row of rows()) {
      r++;
      batch += `<row r="${r}">${row.map((v, c) => cell(v, `${String.fromCharCode(65 + c)}${r}`)).join("")}</row>`;
      if (batch.length > 256 * 1024) {
        yield batch;
        batch = "";
      }
    }
    yield `${batch}</sheetData></worksheet>`;
  });
  const sheetBytes = entries.at(-1)!.size;
  const dirStart = offset;
  for (const e of entries) {
    const nameBytes = Buffer.from(e.name, "utf8");
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x808, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.packed, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(e.offset, 42);
    await write(Buffer.concat([central, nameBytes]));
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - dirStart, 12);
  end.writeUInt32LE(dirStart, 16);
  await write(end);
  out.end();
  await once(out, "finish");
  return { sheetBytes, fileBytes: offset };
}
