import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { headerValues } from "./response.ts";

// Cookie names that usually carry a session or a credential (Mozilla Observatory looks for
// HttpOnly on session cookies): script access to them is what XSS steals.
const SESSION_NAME = /sess|sid|auth|token|login|jwt|remember/i;

/** What a Set-Cookie line lacks on an HTTPS page, or an empty list. */
export function cookieProblems(setCookie: string): string[] {
  const [pair = "", ...attributes] = setCookie.split(";");
  const name = pair.split("=")[0]?.trim() ?? "";
  const flags = new Set(attributes.map((a) => a.split("=")[0]?.trim().toLowerCase()));
  const problems: string[] = [];
  if (!flags.has("secure")) problems.push("Secure");
  if (!flags.has("samesite")) problems.push("SameSite");
  if (SESSION_NAME.test(name) && !flags.has("httponly")) problems.push("HttpOnly");
  return problems.length === 0 ? [] : [`${name || "(unnamed)"} without ${problems.join(", ")}`];
}

export const cookieFlags: CheckDef = {
  code: "cookie_flags",
  title: "Cookies are Secure, SameSite and HttpOnly",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Set cookies with `Secure` and `SameSite=Lax` (or Strict), and session or login cookies with `HttpOnly` as well.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, url }) => {
        // Over plain HTTP nothing protects a cookie: https_available is the finding there.
        if (!url.startsWith("https://")) return "na";
        const cookies = headerValues(page.response, "set-cookie");
        if (cookies.length === 0) return "na";
        const problems = cookies.flatMap(cookieProblems);
        return problems.length === 0 ? "pass" : { verdict: "fail", why: problems.join("; ") };
      },
      { problem: "cookies without Secure or SameSite, or session cookies without HttpOnly", none: "no HTTPS page sets a cookie" },
    );
  },
};
