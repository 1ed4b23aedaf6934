import { describe, expect, it } from "vitest";
import { analyzeSite, bandOf, computeRank } from "../../../analyzer/index.ts";
import { brokenSite, healthySite, mediocreSite } from "./golden-sites.ts";

const groupScores = (a: ReturnType<typeof analyzeSite>) => Object.fromEntries(a.groups.map((g) => [g.id, g.score]));

describe("golden ranks (seo-anchors §3)", () => {
  it("healthy site: every check passes → 100 excellent", () => {
    const a = analyzeSite(healthySite());
    expect([a.rank, a.label, a.color]).toEqual([100, "excellent", "#2e7d32"]);
    expect(a.caps).toEqual([]);
    expect(a.tasks).toEqual([]);
    expect(a.groups.map((g) => [g.id, g.weight])).toEqual([
      ["indexing", 22],
      ["technical", 10],
      ["security", 14],
      ["performance", 16],
      ["content", 16],
      ["links", 10],
      ["presentation", 12],
    ]);
    expect(a.tech).toEqual(["nginx", "WordPress"]);
  });

  it("mediocre site → 72 good", () => {
    // indexing     robots 0·6, sitemap 0·3, canonical 0·3, home/noindex/404/host pass, nosnippet 1,
    //              noimageindex 1, meta_in_body 3, soft_404 3, url_hygiene 1 pass; sitemap_valid, canonical_valid,
    //              robots_blocks_all, robots_blocks_assets, robots_txt_syntax, ai_crawlers_blocked, sitemap_in_robots,
    //              sitemap_blocked_urls, sitemap_non_canonical N/A (no robots body, no sitemap) → 27/39 = 0.692308
    // technical    ttfb 0.5·3, compression 0·3, rest 8 + dom_size 3 + duplicate_ids 1 + meta_refresh 3
    //              + deprecated_tags 1                                          → 17.5/22 = 0.795455
    // security     hsts 0·3, security_txt 0·1, spf 0·3, dmarc 0.5·3, bimi 0·1 (DMARC p=none: mailboxes ignore
    //              BIMI), the other 54 pass; security_txt_fields N/A (no security.txt) → 55.5/65 = 0.853846
    // performance  render_blocking 0·3, image_dimensions 0·3, redirects 3        → 3/9     = 0.333333
    // content      description 0·3, img_alt 0·3, h1_present 0.9·(1−2/5)·3, rest 16 + title_multiple 3
    //              + description_multiple 3 + headings_order 1 + headings_empty 1 + lorem_ipsum 3
    //              + picture_no_img 1; description_length, description_duplicate, img_alt_long N/A
    //              (no description, no alt)                                      → 29.62/37 = 0.800541
    // links        link_text 0.9·(1−3/5)·1, localhost 3, nofollow 3, too_many_links 1, empty_anchor_text 1,
    //              crawlable_anchors 3                                           → 11.36/12 = 0.946667
    // presentation viewport 0.36·6, og 0·3, lang/hreflang_codes/jsonld 9, twitter_card 1, pwa 2,
    //              hreflang self/x-default/lang 3, schema required/core/breadcrumbs 3, social_profiles 1;
    //              og_image, og_url_match, og_description N/A (no Open Graph)    → 21.16/28 = 0.755714
    // 100·R = 15.230769 + 7.954545 + 11.953846 + 5.333333 + 12.808649 + 9.466667 + 9.068571 = 71.816380 → 72
    const a = analyzeSite(mediocreSite());
    expect([a.rank, a.label, a.color]).toEqual([72, "good", "#7cb342"]);
    expect(a.caps).toEqual([]);
    expect(groupScores(a)).toEqual({
      indexing: 69,
      technical: 80,
      security: 85,
      performance: 33,
      content: 80,
      links: 95,
      presentation: 76,
    });
    expect(a.groups.find((g) => g.id === "indexing")?.checks).toBe(12);
  });

  it("broken site: caps 29 (robots), 39 (certificate), 79 (no https redirect) → 29 bad", () => {
    // Uncapped: indexing 50/57 (robots_blocks_all 0·6 and ai_crawlers_blocked 0·1: the * group's
    // Disallow: / also binds GPTBot & co.; robots_blocks_assets and sitemap_blocked_urls N/A, robots_blocks_all
    // is the finding), security 51/63 (https_redirect 0·6, tls_cert_valid 0·6; tls_cert_expiry N/A once
    // expired), the rest 1: 100·R = 19.298246 + 10 + 11.333333 + 64 = 94.631579; C = min(29, 39, 79) = 29 → 29.
    const a = analyzeSite(brokenSite());
    expect([a.rank, a.label, a.color]).toEqual([29, "bad", "#d32f2f"]);
    expect(a.caps).toEqual([
      { code: "robots_blocks_all", cap: 29, title: "robots.txt does not block the whole site" },
      { code: "tls_cert_valid", cap: 39, title: "TLS certificate is valid" },
      { code: "https_redirect", cap: 79, title: "HTTP redirects to HTTPS" },
    ]);
    expect(groupScores(a)).toMatchObject({ indexing: 88, security: 81, content: 100 });
  });
});

describe("rank model", () => {
  it("bands: bad 1–29, poor 30–49, fair 50–69, good 70–89, excellent 90–100", () => {
    const at = (r: number) => bandOf(r).label;
    expect([1, 29, 30, 49, 50, 69, 70, 89, 90, 100].map(at)).toEqual([
      "bad",
      "bad",
      "poor",
      "poor",
      "fair",
      "fair",
      "good",
      "good",
      "excellent",
      "excellent",
    ]);
    expect(new Set([1, 30, 50, 70, 90].map((r) => bandOf(r).color)).size).toBe(5);
  });

  it("renormalises over applicable checks and drops groups with none", () => {
    const r = computeRank([
      { code: "a", rankGroup: "indexing", weight: 6, score: 1 },
      { code: "b", rankGroup: "indexing", weight: 3, score: 0 },
      { code: "c", rankGroup: "indexing", weight: 6, score: null },
      { code: "d", rankGroup: "content", weight: 3, score: 0.5 },
    ]);
    // indexing 6/9, content 0.5; R = (22·2/3 + 16·0.5) / 38 = 22.6667/38 = 0.596491
    expect(r.rank).toBe(60);
    expect(r.groups.filter((g) => g.score === null).map((g) => g.id)).toEqual(["technical", "security", "performance", "links", "presentation"]);
    expect(r.groups.find((g) => g.id === "indexing")).toEqual({ id: "indexing", weight: 22, score: 67, checks: 2 });
  });

  it("rounds half up, takes the lowest cap, and never goes below 1", () => {
    const half = computeRank([
      { code: "a", rankGroup: "links", weight: 1, score: 0.845 },
      { code: "b", rankGroup: "links", weight: 1, score: 0.845 },
    ]);
    expect(half.rank).toBe(85);
    const capped = computeRank([
      { code: "a", rankGroup: "links", weight: 1, score: 0, cap: 49 },
      { code: "b", rankGroup: "links", weight: 1, score: 0, cap: 10 },
    ]);
    expect([capped.rank, capped.ceiling]).toEqual([1, 10]);
  });

  it("excluded checks weigh 0 and cap nothing", () => {
    const entries = [
      { code: "a", rankGroup: "links" as const, weight: 3, score: 1 },
      { code: "b", rankGroup: "links" as const, weight: 3, score: 0, cap: 29 },
    ];
    expect(computeRank(entries).rank).toBe(29);
    expect(computeRank(entries, { excluded: ["b"] }).rank).toBe(100);
  });

  it("a profile exclusion changes the rank exactly as the model says, and opens no task", () => {
    // presentation without og_required: 21.16/25 = 0.8464 → +12·(0.8464 − 0.755714) = +1.088229 → 72.904609 → 73
    const a = analyzeSite(mediocreSite(), { excluded: ["og_required"] });
    expect(a.rank).toBe(73);
    expect(a.items.find((i) => i.code === "og_required")).toMatchObject({ status: "fail", weight: 0, gain: 0 });
    expect(a.tasks.map((t) => t.code)).not.toContain("og_required");
  });
});

describe("the performance group with browser metrics (seo-anchors §3.3)", () => {
  const entry = (code: string, weight: number, score: number | null) => ({ code, rankGroup: "performance" as const, weight, score });
  const performance = (entries: ReturnType<typeof entry>[]) => computeRank(entries).groups.find((g) => g.id === "performance")?.score;

  it("is 0.75 of the metrics' weighted mean and 0.25 of the diagnostics'", () => {
    // M = (25·1 + 25·0.5 + 30·0 + 10·1) / 90 = 47.5 / 90; D = (3·1 + 1·0) / 4 = 0.75
    const g = performance([entry("lcp", 25, 1), entry("cls", 25, 0.5), entry("tbt", 30, 0), entry("fcp", 10, 1), entry("ttfb", 3, 1), entry("compression", 1, 0)]);
    expect(g).toBe(Math.round(100 * (0.75 * (47.5 / 90) + 0.25 * 0.75)));
  });

  it("is the diagnostics alone without metrics, and the metrics alone without diagnostics", () => {
    expect(performance([entry("lcp", 25, null), entry("ttfb", 3, 1), entry("compression", 1, 0)])).toBe(75);
    expect(performance([entry("lcp", 25, 0.4), entry("ttfb", 3, null)])).toBe(40);
  });
});
