import type { TlsFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { httpsServed } from "./tls-state.ts";

function certificateProblem(tls: TlsFacts, nowS: number): string | undefined {
  if (tls.validTo > 0 && nowS > tls.validTo) return "CERT_HAS_EXPIRED";
  if (tls.validFrom > 0 && nowS < tls.validFrom) return "CERT_NOT_YET_VALID";
  if (!tls.nameMatches) return "ERR_TLS_CERT_ALTNAME_INVALID";
  if (!tls.authorized) return tls.authorizationError || tls.error || "UNTRUSTED";
  return undefined;
}

export const tlsCertValid: CheckDef = {
  code: "tls_cert_valid",
  title: "TLS certificate is valid",
  group: "security",
  rankGroup: "security",
  level: "bad",
  weight: 6,
  effort: 1,
  recheck: true,
  hint: "Install a current certificate from a public CA that covers this host (and its www twin), with the full intermediate chain.",
  run(facts) {
    const tls = facts.tls;
    if (!tls?.attempted) return notApplicable("TLS was not attempted in this run");
    // No HTTPS at all is https_available's failure (and cap); there is no certificate to judge.
    if (!httpsServed(tls)) return notApplicable("no TLS server answered");
    const problem = certificateProblem(tls, facts.checkedAt);
    if (problem) return fail(problem, `the certificate for ${facts.host} is not valid: ${problem}`, { cap: 39 });
    return pass(tls.issuer || null, `valid certificate${tls.issuer ? ` issued by ${tls.issuer}` : ""}`);
  },
};
