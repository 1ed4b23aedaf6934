import { SecurityTxtFields } from "../../proto/index.ts";

const SIGNED = "-----BEGIN PGP SIGNED MESSAGE-----";
const SIGNATURE = "-----BEGIN PGP SIGNATURE-----";

/**
 * The fields of a security.txt body that the analyzer judges (RFC 9116 §2.5: Contact, Expires).
 * A clear-signed file is read between its armour headers and its signature, dash-escaping undone;
 * the signature itself is not verified.
 */
export function parseSecurityTxt(text: string): SecurityTxtFields {
  const fields = SecurityTxtFields.fromPartial({});
  for (const raw of signedContent(text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/))) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([A-Za-z0-9-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = (m[1] as string).toLowerCase();
    const value = (m[2] as string).trim();
    if (key === "contact" && value !== "") fields.contact.push(value);
    if (key === "expires") {
      fields.expiresCount += 1;
      if (fields.expiresCount === 1) fields.expires = value;
    }
  }
  return fields;
}

/** The signed content of a clear-signed file (RFC 4880 §7), or every line when it is not signed. */
function signedContent(lines: string[]): string[] {
  const start = lines.findIndex((l) => l.trim() === SIGNED);
  if (start < 0) return lines;
  let body = start + 1;
  while (body < lines.length && (lines[body] as string).trim() !== "") body += 1;
  const end = lines.findIndex((l, i) => i > body && l.trim() === SIGNATURE);
  return lines.slice(body + 1, end < 0 ? undefined : end).map((l) => (l.startsWith("- ") ? l.slice(2) : l));
}
