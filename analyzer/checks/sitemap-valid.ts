import type { SitemapFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

const MAX_URLS = 50_000;

function problemsOf(sitemap: SitemapFacts): string[] {
  const problems = [...sitemap.problems];
  if (!sitemap.valid && problems.length === 0) problems.push("not a sitemaps.org 0.9 urlset or sitemapindex");
  if (sitemap.urlCount > MAX_URLS) problems.push(`${sitemap.urlCount} URLs (limit ${MAX_URLS})`);
  return problems;
}

export const sitemapValid: CheckDef = {
  code: "sitemap_valid",
  title: "XML sitemap is valid",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Fix the sitemap: well-formed XML in the sitemaps.org namespace, at most 50,000 absolute same-host URLs per file, W3C dates not in the future.",
  run(facts) {
    const fetched = facts.sitemaps.filter((s) => s.response?.status === 200);
    // A missing sitemap is sitemap_present's failure; counting it here too would punish it twice.
    if (fetched.length === 0) return notApplicable("no sitemap was fetched");
    const broken = fetched.map((s) => ({ url: s.url, problems: problemsOf(s) })).filter((s) => s.problems.length > 0);
    if (broken.length === 0) return pass(0, `${fetched.length} sitemap(s) valid`);
    const first = broken[0];
    const detail = `${broken.length} of ${fetched.length} sitemap(s) invalid; ${first?.url}: ${first?.problems.join("; ")}`;
    return fail(broken.length, detail, { pages: broken.map((s) => s.url) });
  },
};
