import type { FileKind } from "../utility.ts";

// The type of an uploaded file from its first bytes (utilities-catalogue.md §4): the name a user
// gives is only a hint.

function starts(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  return sig.every((b, i) => bytes[at + i] === b);
}

function looksLikeText(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 4096);
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0 || (b < 9 && b !== 0) || (b > 13 && b < 32 && b !== 27)) return false;
  }
  return true;
}

/** The kind of file the bytes are, or null when unknown. */
export function sniffFile(bytes: Uint8Array): FileKind | null {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47])) return "png";
  if (starts(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (starts(bytes, [0x47, 0x49, 0x46, 0x38])) return "gif";
  if (starts(bytes, [0x52, 0x49, 0x46, 0x46]) && starts(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  if (starts(bytes, [0x25, 0x50, 0x44, 0x46])) return "pdf";
  // ISO BMFF: "ftyp" at 4, then the brand (AVIF stills and sequences, HEIF/HEIC photos).
  if (starts(bytes, [0x66, 0x74, 0x79, 0x70], 4)) {
    const brand = Buffer.from(bytes.subarray(8, 12)).toString("latin1");
    if (brand === "avif" || brand === "avis") return "avif";
    if (["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].includes(brand)) return "heic";
  }
  if (starts(bytes, [0x49, 0x49, 0x2a, 0x00]) || starts(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  if (starts(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // A Word document is a ZIP whose entries include word/document.xml.
    const head = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 65536))).toString("latin1");
    return head.includes("word/") || head.includes("[Content_Types].xml") ? "docx" : "zip";
  }
  // DER: a SEQUENCE with a long-form length.
  if (bytes[0] === 0x30 && (bytes[1] === 0x82 || bytes[1] === 0x81 || bytes[1] === 0x83)) return "der";
  if (looksLikeText(bytes) && isSvgText(bytes)) return "svg";
  if (looksLikeText(bytes)) return Buffer.from(bytes.subarray(0, 200)).toString("latin1").includes("-----BEGIN ") ? "pem" : "text";
  return null;
}

/** An SVG document: text whose first element (after a BOM, an XML declaration, comments or a doctype) is <svg. */
export function isSvgText(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("utf8").replace(/^\uFEFF/, "");
  const rest = head.replace(/^(\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)*/i, "");
  return /^<svg[\s>]/i.test(rest);
}
