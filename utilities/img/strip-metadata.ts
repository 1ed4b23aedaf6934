// Metadata removal without re-encoding (what a careful EXIF remover does): JPEG loses its
// APP1 (EXIF, XMP), APP12, APP13 (IPTC) and COM segments; PNG its eXIf, tEXt, zTXt, iTXt and tIME
// chunks. The ICC profile (APP2 / iCCP) and Adobe APP14 stay: they decide how colours look.
// Pixels are untouched, so there is no quality loss. Returns null when the bytes are not a
// well-formed JPEG/PNG (the caller re-encodes instead).

const JPEG_DROP = new Set([0xe1, 0xec, 0xed, 0xfe]);
const PNG_DROP = new Set(["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]);

export function stripJpeg(buf: Buffer): Buffer | null {
  if (buf[0] !== 0xff || buf[1] !== 0xd8) return null;
  const parts: Buffer[] = [buf.subarray(0, 2)];
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1] as number;
    // Start of scan: the rest is entropy-coded image data and the trailer.
    if (marker === 0xda) {
      parts.push(buf.subarray(i));
      return Buffer.concat(parts);
    }
    const len = buf.readUInt16BE(i + 2);
    if (len < 2 || i + 2 + len > buf.length) return null;
    if (!JPEG_DROP.has(marker)) parts.push(buf.subarray(i, i + 2 + len));
    i += 2 + len;
  }
  return null;
}

export function stripPng(buf: Buffer): Buffer | null {
  const parts: Buffer[] = [buf.subarray(0, 8)];
  let i = 8;
  while (i + 12 <= buf.length) {
    const len = buf.readUInt32BE(i);
    const type = buf.toString("latin1", i + 4, i + 8);
    const end = i + 12 + len;
    if (end > buf.length) return null;
    if (!PNG_DROP.has(type)) parts.push(buf.subarray(i, end));
    i = end;
    if (type === "IEND") return Buffer.concat(parts);
  }
  return null;
}
