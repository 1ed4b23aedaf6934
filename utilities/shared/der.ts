// A minimal DER reader: enough of ASN.1 to read what node:crypto's X509Certificate does not show
// (the signature algorithm) and to decode a certificate signing request (subject, key, SANs).

export interface Node {
  readonly tag: number;
  readonly start: number;
  /** Offset of the content. */
  readonly body: number;
  readonly end: number;
}

export function readNode(buf: Uint8Array, at: number): Node {
  const tag = buf[at];
  let len = buf[at + 1];
  if (tag === undefined || len === undefined) throw new Error("truncated DER");
  let body = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error("unsupported DER length");
    len = 0;
    for (let k = 0; k < n; k++) len = len * 256 + (buf[body + k] as number);
    body += n;
  }
  if (body + len > buf.length) throw new Error("truncated DER");
  return { tag, start: at, body, end: body + len };
}

export function children(buf: Uint8Array, node: Node): Node[] {
  const out: Node[] = [];
  for (let at = node.body; at < node.end; ) {
    const child = readNode(buf, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

export function oid(buf: Uint8Array, node: Node): string {
  const bytes = buf.subarray(node.body, node.end);
  const first = bytes[0] as number;
  const parts = [Math.floor(first / 40), first % 40];
  let value = 0;
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join(".");
}

export function text(buf: Uint8Array, node: Node): string {
  return Buffer.from(buf.subarray(node.body, node.end)).toString(node.tag === 0x1e ? "utf16le" : "utf8");
}

const NAMES: Record<string, string> = { "2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU", "1.2.840.113549.1.9.1": "emailAddress", "2.5.4.5": "serialNumber" };

/** An X.501 Name as "C=RU, O=…, CN=…". */
export function nameText(buf: Uint8Array, name: Node): string {
  return children(buf, name)
    .flatMap((set) => children(buf, set))
    .map((atv) => {
      const [type, value] = children(buf, atv);
      const key = type ? oid(buf, type) : "";
      return `${NAMES[key] ?? key}=${value ? text(buf, value) : ""}`;
    })
    .join(", ");
}

export const SIGNATURE_ALGORITHMS: Record<string, string> = {
  "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
  "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
  "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
  "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
  "1.2.840.113549.1.1.10": "rsassa-pss",
  "1.2.840.10045.4.3.2": "ecdsa-with-SHA256",
  "1.2.840.10045.4.3.3": "ecdsa-with-SHA384",
  "1.2.840.10045.4.3.4": "ecdsa-with-SHA512",
  "1.3.101.112": "Ed25519",
  "1.3.101.113": "Ed448",
  "1.2.643.7.1.1.3.2": "GOST R 34.10-2012 256",
  "1.2.643.7.1.1.3.3": "GOST R 34.10-2012 512",
};

/** The signature algorithm of a signed structure (certificate or CSR): its second element. */
export function signatureAlgorithm(der: Uint8Array): string {
  const [, alg] = children(der, readNode(der, 0));
  const id = alg ? children(der, alg)[0] : undefined;
  const o = id ? oid(der, id) : "";
  return SIGNATURE_ALGORITHMS[o] ?? o;
}
