import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { headerValues } from "./response.ts";

/** A policy's directives: lower-case name → its source list (CSP Level 3 §2.2). */
export function cspDirectives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** Whether a policy lets inline scripts run: 'unsafe-inline' in script-src (else default-src) without a nonce or hash. */
function allowsInlineScript(policy: string): boolean {
  const d = cspDirectives(policy);
  const sources = d.get("script-src") ?? d.get("default-src") ?? [];
  const lower = sources.map((s) => s.toLowerCase());
  // CSP Level 2+: a nonce or hash makes browsers ignore 'unsafe-inline'.
  return lower.includes("'unsafe-inline'") && !lower.some((s) => s.startsWith("'nonce-") || s.startsWith("'sha"));
}

export const csp: CheckDef = {
  code: "csp",
  title: "Content-Security-Policy is set",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Send a `Content-Security-Policy` header (start from `default-src 'self'` and list the hosts you load from; try it as Content-Security-Policy-Report-Only first).",
  run(facts) {
    let inline = 0;
    const outcome = aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        // A report-only policy enforces nothing: it does not count.
        const policies = [...headerValues(page.response, "content-security-policy"), page.metaCsp].filter((p) => p.trim());
        if (policies.length === 0) return { verdict: "fail", why: "no Content-Security-Policy" };
        if (policies.some(allowsInlineScript)) inline += 1;
        return "pass";
      },
      { problem: "no Content-Security-Policy header or meta", none: "no HTML page answered 200" },
    );
    if (inline > 0) outcome.detail += `; ${inline} page(s) allow 'unsafe-inline' scripts`;
    return outcome;
  },
};
