import { inflateRawSync } from "node:zlib";

/** Caps against zip bombs: entries counted from the central directory, inflated bytes enforced while inflating. */
export interface ZipCaps {
  readonly maxEntries: number;
  readonly maxEntryBytes: number;
  readonly maxTotalBytes: number;
}

export interface ZipEntry {
  readonly name: string;
  readonly data: Uint8Array;
}

/** A ZIP the importer refuses: damaged, encrypted, an unknown method, or over a cap. */
export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipError";
  }
}

/** True when the bytes start like a ZIP (local file header). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * Reads a ZIP's files through its central directory (stored or deflated). The sizes a ZIP declares
 * may lie, so inflation itself is capped (zlib's maxOutputLength): a bomb stops at the cap.
 */
export function readZip(bytes: Uint8Array, caps: ZipCaps): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError("not a readable ZIP (no end of central directory)");
  const count = view.getUint16(eocd + 10, true);
  if (count > caps.maxEntries) throw new ZipError(`the ZIP holds ${count} entries; at most ${caps.maxEntries} are read`);
  let at = view.getUint32(eocd + 16, true);
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw new ZipError("damaged ZIP central directory");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder("utf-8").decode(bytes.subarray(at + 46, at + 46 + nameLen));
    at += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith("/")) continue;
    if ((flags & 1) !== 0) throw new ZipError(`${name} is encrypted`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw new ZipError("damaged ZIP entry header");
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = bytes.subarray(start, start + compressed);
    const room = Math.min(caps.maxEntryBytes, caps.maxTotalBytes - total);
    let data: Uint8Array;
    if (method === 0) data = raw;
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: room + 1 });
      } catch (err) {
        if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new ZipError(`${name} inflates past the cap of ${room} bytes`);
        throw new ZipError(`${name} does not inflate: ${(err as Error).message}`);
      }
    } else throw new ZipError(`${name} uses compression method ${method}; only stored and deflated entries are read`);
    if (data.length > room) throw new ZipError(`${name} inflates past the cap of ${room} bytes`);
    total += data.length;
    entries.push({ name, data });
  }
  return entries;
}
