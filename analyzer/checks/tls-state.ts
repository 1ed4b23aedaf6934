// What the TLS facts say about HTTPS, shared by the https/tls checks so they never disagree.
import type { SiteFacts, TlsFacts } from "../../proto/index.ts";

// Node's certificate verification codes: the handshake was possible, the certificate is the problem.
const CERT_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)/;

/** The handshake failed (or would fail) only because of the certificate. */
export function isCertificateError(tls: TlsFacts): boolean {
  return CERT_ERROR.test(tls.error) || CERT_ERROR.test(tls.authorizationError);
}

/** TLS was attempted and a server speaks it on :443, whatever its certificate. */
export function httpsServed(tls: TlsFacts | undefined): boolean {
  return tls !== undefined && tls.attempted && (tls.handshakeOk || isCertificateError(tls));
}

/** Whether HTTPS works as far as the facts show; without a TLS attempt the origin's scheme decides. */
export function httpsWorks(facts: SiteFacts): boolean {
  return facts.tls?.attempted ? httpsServed(facts.tls) : facts.origin.startsWith("https:");
}
