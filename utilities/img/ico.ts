// favicon.ico written by hand: an ICONDIR of PNG-compressed entries (every browser and Windows
// since Vista read them), so no ICO library is needed.

export interface IcoEntry {
  /** Side in pixels (1-256). */
  readonly size: number;
  /** A PNG of size × size. */
  readonly png: Buffer;
}

export function encodeIco(entries: readonly IcoEntry[]): Buffer {
  const head = Buffer.alloc(6 + 16 * entries.length);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(entries.length, 4);
  let offset = head.length;
  entries.forEach((e, i) => {
    const at = 6 + 16 * i;
    head.writeUInt8(e.size >= 256 ? 0 : e.size, at);
    head.writeUInt8(e.size >= 256 ? 0 : e.size, at + 1);
    head.writeUInt8(0, at + 2);
    head.writeUInt8(0, at + 3);
    head.writeUInt16LE(1, at + 4);
    head.writeUInt16LE(32, at + 6);
    head.writeUInt32LE(e.png.length, at + 8);
    head.writeUInt32LE(offset, at + 12);
    offset += e.png.length;
  });
  return Buffer.concat([head, ...entries.map((e) => e.png)]);
}

/** The sizes an ICO declares (for tests and the metadata view). */
export function icoSizes(ico: Buffer): number[] {
  const n = ico.readUInt16LE(4);
  return Array.from({ length: n }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
}
