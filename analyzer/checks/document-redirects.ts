import type { CheckDef } from "./check.ts";
import { aggregatePages, sampledPages } from "./page-sample.ts";
import { isSuccess, originOf } from "./response.ts";

export const documentRedirects: CheckDef = {
  code: "document_redirects",
  title: "Pages are reached without redirects",
  group: "performance",
  rankGroup: "performance",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Link to final URLs (right scheme, host and trailing slash) so pages load without an extra redirect round trip.",
  run(facts) {
    const origin = originOf(facts.origin);
    return aggregatePages(
      sampledPages(facts),
      ({ page }) => {
        if (!isSuccess(page.response)) return "na";
        // Hops from the monitored name to the served origin (example.com → www.example.com) are
        // host_canonical's business; only redirects inside the origin cost every visitor.
        const hop = page.response?.redirects.find((r) => originOf(r.url) === origin);
        return hop ? { verdict: "fail", why: `${hop.url} → ${hop.status} ${hop.location}` } : "pass";
      },
      { problem: "reached through a redirect", none: "no page answered 2xx" },
    );
  },
};
