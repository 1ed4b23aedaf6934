import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass, warnTier } from "./check.ts";

const DAY_S = 86_400;
const WARN_DAYS = 21;
const BAD_DAYS = 7;

export const tlsCertExpiry: CheckDef = {
  code: "tls_cert_expiry",
  title: "TLS certificate is not about to expire",
  group: "security",
  rankGroup: "security",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Renew the certificate now and automate renewal (ACME/certbot) so it never gets within three weeks of expiry.",
  run(facts) {
    const tls = facts.tls;
    if (!tls?.attempted || tls.validTo <= 0) return notApplicable("no certificate was read");
    const leftS = tls.validTo - facts.checkedAt;
    // An expired certificate is tls_cert_valid's failure (catalogue), so it is not counted twice here.
    if (leftS < 0) return notApplicable("the certificate has expired (see tls_cert_valid)");
    const days = Math.floor(leftS / DAY_S);
    const detail = `the certificate expires in ${days} day(s)`;
    if (leftS <= BAD_DAYS * DAY_S) return fail(days, detail, { level: "bad" });
    if (leftS <= WARN_DAYS * DAY_S) return warnTier(days, detail);
    return pass(days, detail);
  },
};
