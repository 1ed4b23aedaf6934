import { SiteFacts, TlsTask } from "../../../proto/index.ts";
import { narrowArm, type RecheckScope } from "./scope.ts";

/** The certificate and TLS protocol of the site: one live handshake (the `tls` kind). */
export const tlsScope: RecheckScope = {
  id: "tls",
  mode: "tls",
  codes: ["https_available", "tls_cert_valid", "tls_cert_expiry", "tls_protocols"],
  why: "a live TLS handshake with the site",
  applies: () => true,
  target: (ctx) => ({ $case: "tls", value: TlsTask.fromPartial({ host: ctx.host }) }),
  facts: (ctx, result) => SiteFacts.fromPartial({ host: ctx.host, origin: ctx.origin, checkedAt: ctx.now, tls: narrowArm(result, "tls")?.facts }),
};
