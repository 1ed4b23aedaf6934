import { SiteFacts, TlsFacts } from "../../../proto/index.ts";
import type { RecheckScope } from "./scope.ts";

/** The certificate and TLS protocol of the site: one live handshake (the `tls` kind). */
export const tlsScope: RecheckScope = {
  id: "tls",
  mode: "tls",
  codes: ["https_available", "tls_cert_valid", "tls_cert_expiry", "tls_protocols"],
  why: "a live TLS handshake with the site",
  applies: () => true,
  target: (ctx) => ctx.host,
  facts: (ctx, result) => SiteFacts.fromPartial({ host: ctx.host, origin: ctx.origin, checkedAt: ctx.now, tls: TlsFacts.fromJSON(result) }),
};
