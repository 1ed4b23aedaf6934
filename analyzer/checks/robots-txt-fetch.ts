import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { statusOrError } from "./response.ts";

export const robotsTxtFetch: CheckDef = {
  code: "robots_txt_fetch",
  title: "robots.txt can be fetched",
  group: "indexing",
  rankGroup: "indexing",
  level: "bad",
  weight: 6,
  effort: 1,
  recheck: true,
  hint: "Make /robots.txt answer 200 (or 404 if you want no rules); a 5xx, 429 or timeout makes search engines stop crawling the whole site.",
  run(facts) {
    const response = facts.robots?.response;
    // No fetch attempted means nothing was measured: not applicable, never a failure (seo-anchors §5).
    if (!response) return notApplicable("robots.txt was not fetched in this run");
    const status = response.status;
    // Crawlers treat an unreachable robots.txt (5xx, 429, no answer) as "disallow everything".
    if (status === 0 || status === 429 || status >= 500) {
      return fail(statusOrError(response), `robots.txt answered ${statusOrError(response)}: crawlers treat the site as disallowed`);
    }
    // 4xx means "no rules, everything allowed": info only in the catalogue, N/A in Lighthouse.
    if (status >= 400) return notApplicable(`robots.txt is missing (${status}): everything is allowed`);
    if (status >= 200 && status < 300) return pass(status, "robots.txt answers 200");
    return fail(status, `robots.txt answered ${status}`);
  },
};
