/** The encoding a file was read in: exports come as UTF-8 (GSC, Yandex, Semrush) or UTF-16LE (Ahrefs). */
export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

/**
 * Decodes an export's bytes to text, by BOM first and, without one, by the NUL bytes UTF-16 puts
 * beside ASCII (Ahrefs writes UTF-16LE; some tools drop its BOM). The BOM is not part of the text.
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: utf8(bytes.subarray(3)), encoding: "utf-8" };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "utf-16le" };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)), encoding: "utf-16be" };
  const sample = Math.min(bytes.length, 512) & ~1;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < sample; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = sample / 2;
  if (pairs > 0 && oddNul / pairs > 0.3 && evenNul === 0) return { text: new TextDecoder("utf-16le").decode(bytes), encoding: "utf-16le" };
  if (pairs > 0 && evenNul / pairs > 0.3 && oddNul === 0) return { text: new TextDecoder("utf-16be").decode(bytes), encoding: "utf-16be" };
  return { text: utf8(bytes), encoding: "utf-8" };
}

function utf8(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes);
}
