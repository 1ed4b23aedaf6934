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

  it("mediocre site → 68 fair", () => {
    // indexing     robots 0·6, sitemap 0·3, canonical 0·3, home/noindex/404/host pass, nosnippet 1,
    //              noimageindex 1, meta_in_body 3 pass; sitemap_valid, canonical_valid,
    //              robots_blocks_all, robots_txt_syntax, ai_crawlers_blocked N/A (no robots body) → 23/35 = 0.657143
    // technical    ttfb 0.5·3, compression 0·3, rest 8 + dom_size 3 + duplicate_ids 1 → 13.5/18 = 0.75
    // security     hsts 0·3, security_txt 0·1, spf 0·3, dmarc 0.5·3, rest 33 + insecure_form 3
    //              + ns_redundancy 3 + caa 1 + mx 1                             → 42.5/51 = 0.833333
    // performance  render_blocking 0·3, image_dimensions 0·3, redirects 3        → 3/9     = 0.333333
    // content      description 0·3, img_alt 0·3, h1_present 0.9·(1−2/5)·3, rest 16 + title_multiple 3;
    //              description_length, description_duplicate N/A (no description) → 20.62/28 = 0.736429
    // links        link_text 0.9·(1−3/5)·1, localhost 3, nofollow 3             → 6.36/7  = 0.908571
    // presentation viewport 0.36·6, og 0·3, lang/hreflang/jsonld 9, twitter_card 1 → 12.16/19 = 0.64
    // 100·R = 14.457143 + 7.5 + 11.666667 + 5.333333 + 11.782857 + 9.085714 + 7.68 = 67.505714 → 68
    const a = analyzeSite(mediocreSite());
    expect([a.rank, a.label, a.color]).toEqual([68, "fair", "#fb8c00"]);
    expect(a.caps).toEqual([]);
    expect(groupScores(a)).toEqual({
      indexing: 66,
      technical: 75,
      security: 83,
      performance: 33,
      content: 74,
      links: 91,
      presentation: 64,
    });
    expect(a.groups.find((g) => g.id === "indexing")?.checks).toBe(10);
  });

  it("broken site: caps 29 (robots), 39 (certificate), 79 (no https redirect) → 29 bad", () => {
    // Uncapped: indexing 44/51 (robots_blocks_all 0·6 and ai_crawlers_blocked 0·1: the * group's
    // Disallow: / also binds GPTBot & co.), security 36/48 (tls_cert_expiry N/A once expired), the rest 1:
    // 100·R = 18.980392 + 10 + 10.5 + 54 = 93.480392; C = min(29, 39, 79) = 29 → 29.
    const a = analyzeSite(brokenSite());
    expect([a.rank, a.label, a.color]).toEqual([29, "bad", "#d32f2f"]);
    expect(a.caps).toEqual([
      { code: "robots_blocks_all", cap: 29, title: "robots.txt does not block the whole site" },
      { code: "tls_cert_valid", cap: 39, title: "TLS certificate is valid" },
      { code: "https_redirect", cap: 79, title: "HTTP redirects to HTTPS" },
    ]);
    expect(groupScores(a)).toMatchObject({ indexing: 86, security: 75, content: 100 });
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
    // presentation without og: 12.16/16 = 0.76 → +12·0.12 = +1.44 → 68.945714 → 69
    const a = analyzeSite(mediocreSite(), { excluded: ["og_required"] });
    expect(a.rank).toBe(69);
    expect(a.items.find((i) => i.code === "og_required")).toMatchObject({ status: "fail", weight: 0, gain: 0 });
    expect(a.tasks.map((t) => t.code)).not.toContain("og_required");
  });
});
