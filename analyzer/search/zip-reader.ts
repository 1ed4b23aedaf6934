import { Readable } from "node:stream";
import { createInflateRaw, inflateRawSync } from "node:zlib";

/** Caps against zip bombs: entries counted from the central directory, inflated bytes enforced while inflating. */
export interface ZipCaps {
  readonly maxEntries: number;
  readonly maxEntryBytes: number;
  readonly maxTotalBytes: number;
}

/** One file of a ZIP, inflated only when read: whole (inflate) or a chunk at a time (chunks). */
export interface ZipEntry {
  readonly name: string;
  /** The entry's bytes, inflated under the caps. */
  inflate(): Uint8Array;
  /** The entry's bytes a chunk at a time (at most ~64 KB each), inflated under the caps as they are read. */
  chunks(): AsyncGenerator<Uint8Array>;
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

/** Compressed bytes fed to the streaming inflater at a time: even a bomb's ratio (~1,000:1) keeps one step's output near 16 MB. */
const FEED_BYTES = 16 * 1024;

/**
 * Lists a ZIP's files through its central directory (stored or deflated); nothing is inflated
 * until an entry is read. The sizes a ZIP declares may lie, so inflation itself is capped (zlib's
 * maxOutputLength, or counting a stream's chunks): a bomb stops at the cap, per entry and over
 * every entry read.
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
  const inflated = { total: 0 };
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
    if (method !== 0 && method !== 8) throw new ZipError(`${name} uses compression method ${method}; only stored and deflated entries are read`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    entries.push(zipEntry(name, method, bytes.subarray(start, start + compressed), caps, inflated));
  }
  return entries;
}

function zipEntry(name: string, method: number, raw: Uint8Array, caps: ZipCaps, inflated: { total: number }): ZipEntry {
  const room = () => Math.min(caps.maxEntryBytes, caps.maxTotalBytes - inflated.total);
  const overCap = (cap: number) => new ZipError(`${name} inflates past the cap of ${cap} bytes`);
  return {
    name,
    inflate() {
      const cap = room();
      let data: Uint8Array;
      if (method === 0) data = raw;
      else {
        try {
          data = inflateRawSync(raw, { maxOutputLength: cap + 1 });
        } catch (err) {
          if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw overCap(cap);
          throw new ZipError(`${name} does not inflate: ${(err as Error).message}`);
        }
      }
      if (data.length > cap) throw overCap(cap);
      inflated.total += data.length;
      return data;
    },
    async *chunks() {
      const cap = room();
      let seen = 0;
      const take = (chunk: Uint8Array) => {
        seen += chunk.length;
        inflated.total += chunk.length;
        if (seen > cap) throw overCap(cap);
        return chunk;
      };
      if (method === 0) {
        for (let i = 0; i < raw.length; i += 64 * 1024) yield take(raw.subarray(i, i + 64 * 1024));
        return;
      }
      const feed = Readable.from(
        (function* () {
          for (let i = 0; i < raw.length; i += FEED_BYTES) yield raw.subarray(i, i + FEED_BYTES);
        })(),
      );
      const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
      feed.pipe(inflater);
      try {
        for await (const chunk of inflater) yield take(chunk as Buffer);
      } catch (err) {
        if (err instanceof ZipError) throw err;
        throw new ZipError(`${name} does not inflate: ${(err as Error).message}`);
      } finally {
        feed.destroy();
        inflater.destroy();
      }
    },
  };
}
