import { checkServerIdentity, type DetailedPeerCertificate, type TLSSocket } from "node:tls";
import { TlsFacts } from "../../proto/index.ts";
import type { Egress } from "../fetch/egress.ts";
import { classifyFetchError } from "../fetch/fetch-errors.ts";

export interface TlsFactsOptions {
  /** Connect and handshake budget. Default 10 s. */
  readonly timeoutMs?: number;
}

/**
 * Handshakes with `host:port` at the address the egress validated (SNI = host) and reads the
 * certificate chain. Verification uses the egress CAs, but the handshake is not aborted on a bad
 * certificate: its facts are what we came for. Never throws.
 */
export async function collectTlsFacts(host: string, port: number, egress: Pick<Egress, "dial">, opts: TlsFactsOptions = {}): Promise<TlsFacts> {
  const facts = TlsFacts.fromPartial({ attempted: true });
  let socket: TLSSocket | undefined;
  try {
    socket = (await egress.dial(host, port, { tls: { rejectUnauthorized: false, alpn: ["h2", "http/1.1"] }, timeoutMs: opts.timeoutMs ?? 10_000 })).socket;
  } catch (err) {
    facts.error = tlsErrorCode(err);
    return facts;
  }
  try {
    fillFromSocket(facts, host, socket);
  } finally {
    socket.destroy();
  }
  return facts;
}

function fillFromSocket(facts: TlsFacts, host: string, socket: TLSSocket): void {
  const cert = socket.getPeerCertificate(true);
  facts.handshakeOk = true;
  facts.protocol = socket.getProtocol() ?? "";
  facts.authorized = socket.authorized;
  facts.authorizationError = socket.authorized ? "" : String(socket.authorizationError ?? "");
  facts.error = facts.authorizationError;
  if (!cert || Object.keys(cert).length === 0) return;
  facts.subjectCn = firstValue(cert.subject?.CN);
  facts.altNames = (cert.subjectaltname ?? "")
    .split(",")
    .map((s) => s.trim().replace(/^(DNS|IP Address):/, ""))
    .filter(Boolean);
  facts.issuer = distinguishedName(cert.issuer);
  facts.validFrom = Math.floor(Date.parse(cert.valid_from) / 1000);
  facts.validTo = Math.floor(Date.parse(cert.valid_to) / 1000);
  facts.chainLength = chainLength(cert);
  facts.nameMatches = checkServerIdentity(host, cert) === undefined;
}

/** Certificates in the chain as Node reports it: what the server sent, plus the trust anchor when found. */
function chainLength(cert: DetailedPeerCertificate): number {
  let n = 1;
  let current = cert;
  while (current.issuerCertificate && current.issuerCertificate.fingerprint256 !== current.fingerprint256 && n < 20) {
    current = current.issuerCertificate;
    n += 1;
  }
  return n;
}

function distinguishedName(dn: Record<string, string | string[] | undefined> | undefined): string {
  if (!dn) return "";
  return Object.entries(dn)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : v}`)
    .join(", ");
}

function firstValue(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
}

/** Network failures as the fetch codes (refused, timeout, dns, reset); TLS failures keep OpenSSL's code. */
function tlsErrorCode(err: unknown): string {
  const { code, detail } = classifyFetchError(err, false);
  if (code !== "tls") return code;
  const raw = (err as { code?: string }).code;
  return raw ?? detail;
}
