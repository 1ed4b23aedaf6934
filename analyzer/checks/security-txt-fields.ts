import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass, warnTier } from "./check.ts";

const DAY_S = 86_400;
// RFC 9116 §2.5.5: Expires is recommended to be less than a year ahead.
const MAX_AHEAD_DAYS = 366;
// RFC 9116 §2.5.5: the date-time of RFC 3339 §5.6 (Internet date/time format).
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export const securityTxtFields: CheckDef = {
  code: "security_txt_fields",
  title: "security.txt has Contact and a current Expires",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Give security.txt at least one `Contact:` line and exactly one `Expires:` date (RFC 3339, e.g. 2026-12-31T23:00:00Z) less than a year ahead, and renew it before it passes.",
  run(facts) {
    const file = facts.securityTxt;
    // A missing or mis-served file is security_txt's failure, not counted twice.
    if (!file || file.status !== 200 || file.contentType !== "text/plain" || !file.finalUrl.startsWith("https://")) {
      return notApplicable("no security.txt served as text/plain over HTTPS to read");
    }
    const fields = facts.securityTxtFields;
    if (!fields) return notApplicable("the fields of security.txt were not read");
    if (fields.contact.length === 0) return fail(null, "security.txt has no Contact: line");
    if (fields.expiresCount === 0) return fail(null, "security.txt has no Expires: line");
    if (fields.expiresCount > 1) return fail(null, `security.txt has ${fields.expiresCount} Expires: lines; RFC 9116 allows one`);
    const at = RFC3339.test(fields.expires) ? Date.parse(fields.expires) : Number.NaN;
    if (Number.isNaN(at)) return fail(null, `Expires "${fields.expires}" is not an RFC 3339 date-time`);
    const days = Math.floor((at / 1000 - facts.checkedAt) / DAY_S);
    if (at / 1000 <= facts.checkedAt) return fail(days, `security.txt expired on ${fields.expires}: readers must treat it as stale`);
    if (days > MAX_AHEAD_DAYS) return warnTier(days, `Expires is ${days} days ahead; RFC 9116 advises less than a year`);
    return pass(days, `${fields.contact.length} contact(s); expires in ${days} day(s)`);
  },
};
