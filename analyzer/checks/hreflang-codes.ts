import type { Alternate } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { isValidHreflang } from "./language-tags.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

function alternateProblem(alt: Alternate): string | undefined {
  if (!isValidHreflang(alt.hreflang)) return `hreflang="${alt.hreflang}" is not an ISO 639-1 language (+ ISO 3166-1 region) or x-default`;
  if (!httpUrl(alt.href)) return `href "${alt.href}" is not an absolute URL`;
  return undefined;
}

export const hreflangCodes: CheckDef = {
  code: "hreflang_codes",
  title: "hreflang annotations are valid",
  group: "international",
  rankGroup: "presentation",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Use ISO 639-1 language codes with optional ISO 3166-1 regions (en-GB, not en-UK) or x-default, and absolute URLs in hreflang links.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.hreflang.length === 0) return "na";
        const why = page.hreflang.map(alternateProblem).find((p) => p !== undefined);
        return why === undefined ? "pass" : { verdict: "fail", why };
      },
      { problem: "invalid hreflang code or relative URL", none: "no page has hreflang annotations" },
    );
  },
};
