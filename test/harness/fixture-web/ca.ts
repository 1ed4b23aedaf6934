import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import forge from "node-forge";

// A private certificate authority for the fixture sites. The crawler trusts it only because the
// operator setting SVC_EXTRA_CA_FILE names its PEM file; a certificate it issues is then as valid
// as a public CA's. Besides valid leaf certificates it issues the broken ones the web is full of:
// expired, for another name (a CDN's default certificate), and self-signed (not from the CA).

export type CertificateVariant = "valid" | "expired" | "wrong-name" | "self-signed";

/** A key and certificate chain (PEM) for node:https. */
export interface ServerCertificate {
  readonly variant: CertificateVariant;
  readonly key: string;
  readonly cert: string;
  /** The DNS names the certificate covers. */
  readonly names: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export interface TestCa {
  /** The CA certificate (PEM). */
  readonly certPem: string;
  /** A temporary file holding certPem: the value for SVC_EXTRA_CA_FILE. */
  readonly caFile: string;
  /** The CA's subject as Node prints a certificate's issuer ("CN=…, O=…"). */
  readonly issuer: string;
  /** The names a wrong-name certificate covers instead of the site's. */
  readonly wrongNames: readonly string[];
  /**
   * A leaf certificate of the given variant for the site's names (the first is the common name);
   * `validForMs` sets how long after the CA's `now` a valid one expires (default 90 days).
   */
  issue(variant: CertificateVariant, names: readonly string[], validForMs?: number): ServerCertificate;
  /** Removes the CA file. */
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;
const CA_NAME = "Svc Fixture Web Root CA";
const CA_ORG = "Svc fixture web";
// A site pointed at a CDN before its own certificate was installed gets the CDN's default one.
const WRONG_NAMES = ["cdn-edge.test", "*.cdn-edge.test"];

interface KeyPair {
  readonly privatePem: string;
  readonly privateKey: forge.pki.rsa.PrivateKey;
  readonly publicKey: forge.pki.rsa.PublicKey;
}

/** RSA 2048 keys from node:crypto (native, fast), handed to node-forge for signing. */
function newKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  return { privatePem: privateKey, privateKey: forge.pki.privateKeyFromPem(privateKey), publicKey: forge.pki.publicKeyFromPem(publicKey) };
}

/** A positive serial number of 16 random bytes (hex, first bit clear). */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString("hex");
}

/** Creates the CA (key, self-signed certificate valid ten years around `now`) and writes its PEM file. */
export async function createTestCa(now: Date = new Date()): Promise<TestCa> {
  const caKeys = newKeyPair();
  const ca = forge.pki.createCertificate();
  ca.publicKey = caKeys.publicKey;
  ca.serialNumber = serial();
  ca.validity.notBefore = new Date(now.getTime() - 365 * DAY_MS);
  ca.validity.notAfter = new Date(now.getTime() + 10 * 365 * DAY_MS);
  const caSubject = [
    { name: "commonName", value: CA_NAME },
    { name: "organizationName", value: CA_ORG },
  ];
  ca.setSubject(caSubject);
  ca.setIssuer(caSubject);
  ca.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(ca);
  const caKeyId = ca.generateSubjectKeyIdentifier().getBytes();

  const dir = await mkdtemp(join(tmpdir(), "svc-fixture-ca-"));
  const caFile = join(dir, "fixture-ca.pem");
  await writeFile(caFile, certPem);

  // One key for every leaf: the tests judge certificates, not keys, and RSA keys cost time.
  const leafKeys = newKeyPair();
  const selfSignedKeys = newKeyPair();

  const issue = (variant: CertificateVariant, names: readonly string[], validForMs = 90 * DAY_MS): ServerCertificate => {
    const covered = variant === "wrong-name" ? WRONG_NAMES : names;
    const expired = variant === "expired";
    const notBefore = new Date(now.getTime() - (expired ? 120 : 1) * DAY_MS);
    const notAfter = new Date(now.getTime() + (expired ? -30 * DAY_MS : validForMs));
    const selfSigned = variant === "self-signed";
    const keys = selfSigned ? selfSignedKeys : leafKeys;
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = serial();
    cert.validity.notBefore = notBefore;
    cert.validity.notAfter = notAfter;
    const subject = [{ name: "commonName", value: covered[0] ?? "localhost" }];
    cert.setSubject(subject);
    cert.setIssuer(selfSigned ? subject : caSubject);
    cert.setExtensions([
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: covered.map((value) => ({ type: 2, value })) },
      { name: "subjectKeyIdentifier" },
      ...(selfSigned ? [] : [{ name: "authorityKeyIdentifier", keyIdentifier: caKeyId }]),
    ]);
    cert.sign(selfSigned ? keys.privateKey : caKeys.privateKey, forge.md.sha256.create());
    // Servers send their chain without the root; the CA file supplies the trust anchor.
    return { variant, key: keys.privatePem, cert: forge.pki.certificateToPem(cert), names: covered, notBefore, notAfter };
  };

  return {
    certPem,
    caFile,
    issuer: `CN=${CA_NAME}, O=${CA_ORG}`,
    wrongNames: WRONG_NAMES,
    issue,
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
