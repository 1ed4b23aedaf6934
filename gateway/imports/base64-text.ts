// The base64 text of an upload, decoded where it lies: in a request body's own memory, off the
// serving thread (import-thread.ts). A 62 MB body becomes its 46 MB file without a copy.

/** Characters decoded at a time (a multiple of 4): each piece is read into a string before its bytes are written. */
const PIECE = 64 * 1024;

const isAlphabet = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;
const isSpace = (c: number) => c === 0x20 || c === 0x09;

/**
 * Decodes the base64 text buf[start, end) — the inside of a JSON string, so `\/`, `\n`, `\r`, `\t`
 * are its escapes of a slash and of the line breaks some encoders put every 76 characters — into
 * buf itself, from start. Answers where the bytes are, or null when the text is not base64 (another
 * character or escape, a character after the padding, a length no base64 text has). The text is
 * first compacted to its alphabet (the writing never passes the reading), then decoded piece by
 * piece; three bytes take the place of four characters.
 */
export function decodeBase64InPlace(buf: Buffer, start: number, end: number): { byteOffset: number; byteLength: number } | null {
  let w = start;
  let pad = 0;
  for (let i = start; i < end; i++) {
    let c = buf[i]!;
    if (c === 0x5c) {
      const e = buf[++i];
      if (e === 0x6e || e === 0x72 || e === 0x74) continue; // \n \r \t
      if (e !== 0x2f) return null; // \/ is the only escape of an alphabet character
      c = 0x2f;
    }
    if (isAlphabet(c)) {
      if (pad > 0) return null;
      buf[w++] = c;
    } else if (c === 0x3d) {
      if (++pad > 2) return null;
    } else if (!isSpace(c)) return null;
  }
  const chars = w - start;
  if (pad > 0 ? (chars + pad) % 4 !== 0 : chars % 4 === 1) return null;
  let out = start;
  for (let at = start; at < w; at += PIECE) out += buf.write(buf.toString("latin1", at, Math.min(w, at + PIECE)), out, "base64");
  return { byteOffset: buf.byteOffset + start, byteLength: out - start };
}
