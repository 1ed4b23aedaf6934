import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass, warnTier } from "./check.ts";

// OpenSSL's answers when client and server share no protocol version. Svc offers TLS 1.2 and 1.3
// (Node's defaults), so a server that speaks only TLS 1.0/1.1 fails the handshake this way.
const NO_COMMON_VERSION = /UNSUPPORTED_PROTOCOL|ALERT_PROTOCOL_VERSION|NO_PROTOCOLS_AVAILABLE|VERSION_TOO_LOW/;
const MODERN = new Set(["TLSv1.2", "TLSv1.3"]);

export const tlsProtocols: CheckDef = {
  code: "tls_protocols",
  title: "TLS 1.2 or newer is offered, ideally 1.3",
  group: "security",
  rankGroup: "security",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Enable TLS 1.3 next to TLS 1.2 on the server (and keep TLS 1.0/1.1 off); in nginx: `ssl_protocols TLSv1.2 TLSv1.3;`.",
  run(facts) {
    const tls = facts.tls;
    if (!tls?.attempted) return notApplicable("no TLS handshake was attempted");
    if (NO_COMMON_VERSION.test(tls.error)) return fail(tls.error, `the server offers no TLS 1.2 or 1.3 (${tls.error})`, { level: "bad" });
    if (!tls.handshakeOk || !tls.protocol) return notApplicable(`no TLS session to read (${tls.error || "no handshake"}); https_available judges it`);
    if (!MODERN.has(tls.protocol)) return fail(tls.protocol, `the server chose ${tls.protocol}, older than TLS 1.2`, { level: "bad" });
    // Offered TLS 1.3, the server picked its best: 1.2 means it has no 1.3 (the catalogue's info tier).
    if (tls.protocol === "TLSv1.2") return warnTier(tls.protocol, "TLSv1.2 negotiated although TLS 1.3 was offered: the server lacks TLS 1.3", { level: "info" });
    return pass(tls.protocol, `${tls.protocol} negotiated`);
  },
};
