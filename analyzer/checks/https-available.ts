import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { httpsServed } from "./tls-state.ts";

export const httpsAvailable: CheckDef = {
  code: "https_available",
  title: "Site is available over HTTPS",
  group: "security",
  rankGroup: "security",
  level: "bad",
  weight: 6,
  effort: 1,
  recheck: true,
  hint: "Serve the site over HTTPS on port 443 with a certificate for this host (e.g. a free Let's Encrypt certificate).",
  run(facts) {
    const tls = facts.tls;
    // No attempt means nothing was measured: N/A, never a failure (seo-anchors §5).
    if (!tls?.attempted) return notApplicable("TLS was not attempted in this run");
    // A certificate error still means HTTPS is there; tls_cert_valid reports (and caps) the certificate.
    // The port probed is the site's own when it has one (example.com:8443), else 443.
    const port = /:(\d+)$/.exec(facts.host.replace(/^\[[^\]]*\]/, ""))?.[1] ?? "443";
    if (httpsServed(tls)) return pass(tls.protocol || "tls", `TLS handshake on :${port} succeeds${tls.protocol ? ` (${tls.protocol})` : ""}`);
    const error = tls.error || "handshake failed";
    return fail(error, `no HTTPS on :${port} (${error})`, { cap: 49 });
  },
};
