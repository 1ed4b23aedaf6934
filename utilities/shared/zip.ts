import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";
import { UtilityError } from "../utility.ts";

// A ZIP reader with the decompression-bomb guards of utilities-catalogue.md §4: the sizes the
// central directory declares are summed before anything is inflated (≤ 50 MB in all, ≤ 100 times
// the compressed size), and inflating stops at the declared size, so an entry that lies about
// its size is caught too.

export const ZIP_MAX_TOTAL_BYTES = 50 * 1024 * 1024;
export const ZIP_MAX_RATIO = 100;
const MAX_ENTRIES = 5000;

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly offset: number;
}

function fail(why: string): UtilityError {
  return new UtilityError("tool_failed", why);
}

/** The entries of a ZIP's central directory, after the size guards. */
export function zipEntries(buf: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw fail("the file is not a ZIP archive (no end of central directory)");
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw fail(`the archive has ${count} entries; at most ${MAX_ENTRIES}`);
  const entries: ZipEntry[] = [];
  let total = 0;
  let compressedTotal = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw fail("the archive's central directory is damaged");
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const offset = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLen).toString("utf8");
    entries.push({ name, method, compressedSize, size, offset });
    total += size;
    compressedTotal += compressedSize;
    at += 46 + nameLen + extraLen + commentLen;
  }
  if (total > ZIP_MAX_TOTAL_BYTES) throw fail(`the archive unpacks to ${total} bytes; at most ${ZIP_MAX_TOTAL_BYTES} (a decompression bomb?)`);
  if (compressedTotal > 0 && total / compressedTotal > ZIP_MAX_RATIO) throw fail(`the archive unpacks ${Math.round(total / compressedTotal)} times its size; at most ${ZIP_MAX_RATIO} (a decompression bomb?)`);
  return entries;
}

/** One entry's bytes, never more than its declared size. */
export function readZipEntry(buf: Buffer, entry: ZipEntry): Buffer {
  const at = entry.offset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50) throw fail(`the archive entry ${entry.name} is damaged`);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data.subarray(0, entry.size));
  if (entry.method !== 8) throw fail(`the archive entry ${entry.name} uses compression method ${entry.method}; only deflate is read`);
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || /Cannot create a Buffer larger|too large/i.test((err as Error).message)) {
      throw fail(`the archive entry ${entry.name} unpacks to more than the ${entry.size} bytes it declares (a decompression bomb?)`);
    }
    throw fail(`the archive entry ${entry.name} cannot be inflated: ${(err as Error).message}`);
  }
}

/** A ZIP of the given files, deflated (sitemap bundles, the docx example). */
export function zipFiles(files: Readonly<Record<string, string | Uint8Array>>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content);
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
