import { X509Certificate, createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { UtilityError, defineUtility } from "../utility.ts";
import { children, nameText, oid, readNode, signatureAlgorithm, type Node } from "../shared/der.ts";
import { EXAMPLE_CERT } from "./cert-example.ts";

interface Input {
  pem?: string;
  file?: Uint8Array;
  private_key?: string;
}

interface Item {
  kind: "certificate" | "csr";
  subject: string;
  sans: string[];
  issuer: string | null;
  not_before: string | null;
  not_after: string | null;
  days_left: number | null;
  valid_now: boolean | null;
  key: string;
  signature: string;
  serial: string | null;
  ca: boolean | null;
  fingerprints: { sha256: string; sha1: string };
}

function keyText(k: KeyObject): string {
  const d = k.asymmetricKeyDetails ?? {};
  if (k.asymmetricKeyType === "rsa" || k.asymmetricKeyType === "rsa-pss") return `${k.asymmetricKeyType.toUpperCase()} ${d.modulusLength ?? "?"} bits`;
  if (k.asymmetricKeyType === "ec") return `EC ${d.namedCurve ?? "?"}`;
  return (k.asymmetricKeyType ?? "unknown").toUpperCase();
}

function fingerprints(der: Uint8Array) {
  const f = (alg: string) => createHash(alg).update(der).digest("hex").toUpperCase().match(/../g)!.join(":");
  return { sha256: f("sha256"), sha1: f("sha1") };
}

function blocksOf(text: string): { label: string; der: Buffer }[] {
  const out: { label: string; der: Buffer }[] = [];
  for (const m of text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)) out.push({ label: m[1] as string, der: Buffer.from((m[2] as string).replace(/\s+/g, ""), "base64") });
  return out;
}

function certificate(der: Buffer, nowMs: number): { item: Item; x509: X509Certificate } {
  const x = new X509Certificate(der);
  const notAfter = Date.parse(x.validTo);
  const notBefore = Date.parse(x.validFrom);
  const sans = (x.subjectAltName ?? "").split(/,\s*/).filter(Boolean).map((s) => s.replace(/^DNS:/, "").replace(/^IP Address:/, ""));
  return {
    x509: x,
    item: {
      kind: "certificate",
      subject: x.subject.split("\n").join(", "),
      sans,
      issuer: x.issuer.split("\n").join(", "),
      not_before: new Date(notBefore).toISOString(),
      not_after: new Date(notAfter).toISOString(),
      days_left: Math.floor((notAfter - nowMs) / 86_400_000),
      valid_now: nowMs >= notBefore && nowMs <= notAfter,
      key: keyText(x.publicKey),
      signature: signatureAlgorithm(der),
      serial: x.serialNumber,
      ca: x.ca,
      fingerprints: fingerprints(der),
    },
  };
}

/** SANs of a CSR's extensionRequest attribute. */
function csrSans(der: Buffer, attrs: Node | undefined): string[] {
  if (!attrs) return [];
  const out: string[] = [];
  for (const attr of children(der, attrs)) {
    const [type, values] = children(der, attr);
    if (!type || !values || oid(der, type) !== "1.2.840.113549.1.9.14") continue;
    for (const exts of children(der, values))
      for (const ext of children(der, exts)) {
        const parts = children(der, ext);
        if (!parts[0] || oid(der, parts[0]) !== "2.5.29.17") continue;
        const octets = parts[parts.length - 1] as Node;
        const names = readNode(der, octets.body);
        for (const gn of children(der, names)) {
          const value = der.subarray(gn.body, gn.end);
          if (gn.tag === 0x82) out.push(value.toString("latin1"));
          else if (gn.tag === 0x87) out.push(value.length === 4 ? [...value].join(".") : value.toString("hex").match(/..../g)!.join(":"));
        }
      }
  }
  return out;
}

function csr(der: Buffer): { item: Item; key: KeyObject } {
  const [info] = children(der, readNode(der, 0));
  if (!info) throw new Error("empty CSR");
  const [, subject, spki, attrs] = children(der, info);
  if (!subject || !spki) throw new Error("a CSR without subject or key");
  const key = createPublicKey({ key: der.subarray(spki.start, spki.end), format: "der", type: "spki" });
  return {
    key,
    item: {
      kind: "csr",
      subject: nameText(der, subject),
      sans: csrSans(der, attrs),
      issuer: null,
      not_before: null,
      not_after: null,
      days_left: null,
      valid_now: null,
      key: keyText(key),
      signature: signatureAlgorithm(der),
      serial: null,
      ca: null,
      fingerprints: fingerprints(der),
    },
  };
}

const spkiOf = (k: KeyObject) => k.export({ format: "der", type: "spki" }).toString("hex");

export const certDecode = defineUtility<Input>({
  id: "cert_decode",
  group: "dev",
  title: "SSL certificate / CSR decoder",
  description:
    "Decodes a pasted PEM/DER certificate, chain or CSR offline: subject, SANs, issuer, validity and days left, key type and size, signature algorithm, fingerprints. Checks the chain order and whether a private key matches. Works before installation and reads CSRs; no network",
  net: false,
  file: true,
  fileKinds: ["pem", "der", "text"],
  fields: [
    { name: "pem", type: "text", label: "PEM text (one or more certificates, or a CSR)", max: 100_000 },
    { name: "file", type: "file", label: "Certificate or CSR file (.crt, .cer, .der, .csr)" },
    { name: "private_key", type: "text", label: "Private key (PEM) to match", max: 20_000 },
  ],
  oneOf: [["pem", "file"]],
  example: { pem: EXAMPLE_CERT },
  run(i, ports) {
    let blocks: { label: string; der: Buffer }[];
    if (i.file && (i.file[0] === 0x30)) blocks = [{ label: "DER", der: Buffer.from(i.file) }];
    else blocks = blocksOf(i.pem ?? Buffer.from(i.file ?? []).toString("utf8"));
    if (blocks.length === 0) throw new UtilityError("tool_failed", "no certificate or CSR found: expected -----BEGIN CERTIFICATE----- or -----BEGIN CERTIFICATE REQUEST----- blocks, or a DER file");
    const items: Item[] = [];
    const certs: X509Certificate[] = [];
    const keys: KeyObject[] = [];
    for (const b of blocks) {
      try {
        if (b.label.includes("REQUEST")) {
          const c = csr(b.der);
          items.push(c.item);
          keys.push(c.key);
        } else if (b.label === "CERTIFICATE" || b.label === "TRUSTED CERTIFICATE" || b.label === "DER") {
          const c = certificate(b.der, ports.nowMs);
          items.push(c.item);
          certs.push(c.x509);
          keys.push(c.x509.publicKey);
        } else if (b.label.includes("PRIVATE KEY")) {
          throw new UtilityError("bad_param", "input.pem holds a private key: paste it in input.private_key, never together with certificates you share", "input.pem");
        }
      } catch (err) {
        if (err instanceof UtilityError) throw err;
        throw new UtilityError("tool_failed", `the ${b.label} block does not decode: ${(err as Error).message}`);
      }
    }
    // Each certificate must be issued (and signed) by the next one.
    let chainOk: boolean | null = null;
    if (certs.length > 1) chainOk = certs.every((c, n) => n === certs.length - 1 || (c.checkIssued(certs[n + 1] as X509Certificate) && c.verify((certs[n + 1] as X509Certificate).publicKey)));
    let keyMatch: boolean | null = null;
    if (i.private_key !== undefined) {
      let priv: KeyObject;
      try {
        priv = createPrivateKey(i.private_key);
      } catch (err) {
        throw new UtilityError("bad_param", `input.private_key is not a PEM private key: ${(err as Error).message}`, "input.private_key");
      }
      keyMatch = keys.length > 0 && spkiOf(createPublicKey(priv)) === spkiOf(keys[0] as KeyObject);
    }
    return {
      result: { items, chain_ok: chainOk, key_match: keyMatch },
      blocks: {
        tables: [
          {
            title: "Decoded",
            columns: ["kind", "subject", "SANs", "issuer", "valid until", "days left", "key", "signature"],
            rows: items.map((x) => [x.kind, x.subject, x.sans.join(", "), x.issuer, x.not_after, x.days_left, x.key, x.signature]),
          },
        ],
        pairs: [
          ...(chainOk === null ? [] : [{ label: "Chain order", value: chainOk ? "each certificate is issued by the next" : "out of order or broken", status: chainOk ? ("good" as const) : ("bad" as const) }]),
          ...(keyMatch === null ? [] : [{ label: "Private key", value: keyMatch ? "matches" : "does not match", status: keyMatch ? ("good" as const) : ("bad" as const) }]),
        ],
      },
    };
  },
});
