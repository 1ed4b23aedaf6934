import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass, warnTier } from "./check.ts";
import { header } from "./response.ts";

const ONE_YEAR_S = 31_536_000;

export const hsts: CheckDef = {
  code: "hsts",
  title: "HSTS header is set",
  group: "security",
  rankGroup: "security",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Send `Strict-Transport-Security: max-age=31536000; includeSubDomains` on HTTPS responses (add `preload` once every subdomain has HTTPS).",
  run(facts) {
    const response = facts.home?.response;
    const url = response?.finalUrl ?? "";
    // HSTS is only honoured over HTTPS; a site without HTTPS fails https_available instead.
    if (!response || response.status === 0 || !url.startsWith("https://")) return notApplicable("the home page is not served over HTTPS");
    const value = header(response, "strict-transport-security");
    if (value === undefined) return fail(null, "no Strict-Transport-Security header");
    const maxAge = Number(/max-age\s*=\s*"?(\d+)/i.exec(value)?.[1] ?? 0);
    // Mozilla Observatory: missing −20, shorter than advised −10: a half failure.
    if (maxAge < ONE_YEAR_S) return warnTier(maxAge, `max-age=${maxAge} is shorter than one year (${ONE_YEAR_S})`);
    const missing = ["includeSubDomains", "preload"].filter((d) => !new RegExp(`\\b${d}\\b`, "i").test(value));
    return pass(maxAge, `max-age=${maxAge}${missing.length > 0 ? `; without ${missing.join(" and ")}` : ""}`);
  },
};
