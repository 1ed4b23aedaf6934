import { zipFiles } from "../../../utilities/shared/zip.ts";

const NAME = "word/document.xml";

/**
 * A docx-shaped ZIP whose document.xml unpacks to `actual` spaces while its headers declare
 * `declared` bytes: a decompression bomb either honest about its size (declared = actual) or
 * lying to get past a size check.
 */
export function bombDocx(actual: number, declared = actual): Buffer {
  const out = zipFiles({ "[Content_Types].xml": "<Types/>", [NAME]: Buffer.alloc(actual, 0x20) });
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50 && out.subarray(i + 30, i + 30 + NAME.length).toString() === NAME) out.writeUInt32LE(declared, i + 22);
    if (sig === 0x02014b50 && out.subarray(i + 46, i + 46 + NAME.length).toString() === NAME) out.writeUInt32LE(declared, i + 24);
  }
  return out;
}
