import type { CheckDef } from "./check.ts";
import { aggregatePages, sampledPages } from "./page-sample.ts";
import { isSuccess } from "./response.ts";

const MIB = 1024 * 1024;
const WARN_BYTES = 2 * MIB;
const BAD_BYTES = 15 * MIB;

export const htmlSize: CheckDef = {
  code: "html_size",
  title: "HTML documents are not oversized",
  group: "technical",
  rankGroup: "technical",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: true,
  hint: "Keep HTML under 2 MB: paginate long lists, move inline data and images (base64) out of the document.",
  run(facts) {
    const pages = sampledPages(facts);
    const outcome = aggregatePages(
      pages,
      ({ page }) => {
        const r = page.response;
        if (r?.error === "too_large") return { verdict: "fail", why: "larger than the crawler's download limit" };
        if (!r || !page.isHtml || !isSuccess(r)) return "na";
        return r.bodyBytes > WARN_BYTES ? { verdict: "fail", why: `${(r.bodyBytes / MIB).toFixed(1)} MiB` } : "pass";
      },
      { problem: "HTML over 2 MiB", none: "no HTML page answered 200" },
    );
    // Google stops reading at 15 MB: past that the failure is severe.
    if (pages.some(({ page }) => (page.response?.bodyBytes ?? 0) > BAD_BYTES)) outcome.level = "bad";
    return outcome;
  },
};
