import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { headerValues } from "./response.ts";

const POLICIES = new Set([
  "no-referrer",
  "no-referrer-when-downgrade",
  "same-origin",
  "origin",
  "strict-origin",
  "origin-when-cross-origin",
  "strict-origin-when-cross-origin",
  "unsafe-url",
]);
// Policies that send the full URL (path and query) to other sites.
const LEAKY = new Set(["unsafe-url", "no-referrer-when-downgrade"]);

/** The policy in force: the last known token of the header values, else of the meta (Referrer Policy §8.1, §11.1). */
export function referrerPolicy(headers: readonly string[], meta: string): string | undefined {
  const last = (values: readonly string[]) =>
    values
      .flatMap((v) => v.split(","))
      .map((t) => t.trim().toLowerCase())
      .filter((t) => POLICIES.has(t))
      .at(-1);
  return last(headers) ?? last([meta]);
}

export const referrerPolicyCheck: CheckDef = {
  code: "referrer_policy",
  title: "Referrer-Policy keeps URLs private",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Send `Referrer-Policy: strict-origin-when-cross-origin` (or stricter) so other sites see only your origin, never full page addresses.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const policy = referrerPolicy(headerValues(page.response, "referrer-policy"), page.metaReferrer);
        if (policy === undefined) return { verdict: "fail", why: "no Referrer-Policy" };
        return LEAKY.has(policy) ? { verdict: "fail", why: `Referrer-Policy: ${policy}` } : "pass";
      },
      { problem: "Referrer-Policy missing, unsafe-url or no-referrer-when-downgrade", none: "no HTML page answered 200" },
    );
  },
};
