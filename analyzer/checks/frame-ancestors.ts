import type { CheckDef } from "./check.ts";
import { cspDirectives } from "./csp.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { header, headerValues } from "./response.ts";

const XFO = new Set(["DENY", "SAMEORIGIN"]);
// Sources that let any site frame the page: no protection.
const ANY = new Set(["*", "http:", "https:", "http://*", "https://*"]);

/** The protection a response declares against framing, or undefined. */
export function framingProtection(xfo: string | undefined, policies: readonly string[]): string | undefined {
  for (const policy of policies) {
    const sources = cspDirectives(policy).get("frame-ancestors");
    if (sources && sources.length > 0 && !sources.some((s) => ANY.has(s.toLowerCase()))) return `frame-ancestors ${sources.join(" ")}`;
  }
  const value = xfo?.split(",")[0]?.trim().toUpperCase();
  return value !== undefined && XFO.has(value) ? `X-Frame-Options: ${value}` : undefined;
}

export const frameAncestors: CheckDef = {
  code: "frame_ancestors",
  title: "Pages cannot be framed by other sites",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Send `Content-Security-Policy: frame-ancestors 'self'` (or `X-Frame-Options: SAMEORIGIN`) so other sites cannot embed your pages for clickjacking.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      // frame-ancestors is ignored in a <meta> policy (CSP Level 3 §6.4.2): headers only.
      ({ page }) => (framingProtection(header(page.response, "x-frame-options"), headerValues(page.response, "content-security-policy")) ? "pass" : "fail"),
      { problem: "neither CSP frame-ancestors nor X-Frame-Options DENY/SAMEORIGIN", none: "no HTML page answered 200" },
    );
  },
};
