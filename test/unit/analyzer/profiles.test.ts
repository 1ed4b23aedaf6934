import { describe, expect, it } from "vitest";
import {
  afterAll,
  analyzeSite,
  applyProfile,
  CAP_CHECKS,
  CHECKS,
  EXCLUSION_FAMILIES,
  FAMILY_CHECKS,
  groupShares,
  memberChecks,
  profiledIssues,
  SITE_TYPES,
  TYPE_DEFAULTS,
  validateExclusions,
  type NominalCheck,
  type StoredRankItem,
} from "../../../analyzer/index.ts";
import { brokenSite, healthySite, mediocreSite } from "./golden-sites.ts";

// analyzer/profiles.ts: the spec's profile rules (seo-anchors §3.7) on nominal weights, and the rank
// with and without exclusions from a run's stored items.

function subsets<T>(xs: readonly T[], max: number): T[][] {
  const out: T[][] = [[]];
  for (const x of xs) for (const s of [...out]) if (s.length < max) out.push([...s, x]);
  return out;
}

describe("the whitelist's families", () => {
  it("stand for catalogue checks that exist (the anchors' [x:family] marks); same_ip has none", () => {
    const codes = new Set(CHECKS.map((c) => c.code));
    for (const f of EXCLUSION_FAMILIES) for (const c of FAMILY_CHECKS[f]) expect(codes.has(c), `${f} → ${c}`).toBe(true);
    expect(memberChecks([...EXCLUSION_FAMILIES])).toEqual([
      "security_txt",
      "security_txt_fields",
      "bimi",
      "text_length",
      "pwa_manifest",
      "pwa_icons",
      "hreflang_codes",
      "hreflang_return",
      "hreflang_self",
      "hreflang_x_default",
      "hreflang_lang_mismatch",
      "jsonld_syntax",
      "schema_required",
      "schema_core_types",
      "schema_breadcrumbs",
      "og_required",
      "og_image",
      "og_url_match",
      "og_description",
      "twitter_card",
    ]);
    expect(memberChecks(["same_ip"])).toEqual([]);
  });

  it("never include a cap trigger (a profile never moves a cap)", () => {
    const members = memberChecks([...EXCLUSION_FAMILIES]);
    expect(CAP_CHECKS.map((c) => c.def.code).filter((c) => members.includes(c))).toEqual([]);
  });

  it("give each type default exclusions that pass the rules without confirmation", () => {
    expect(TYPE_DEFAULTS).toEqual({ general: [], shop: ["pwa"], forum: ["bimi", "same_ip"], blog: ["pwa", "bimi"], corporate: ["pwa"], portal: [] });
    for (const t of SITE_TYPES) expect(validateExclusions(TYPE_DEFAULTS[t], null), t).toBeNull();
  });
});

describe("validateExclusions", () => {
  it("refuses unknown families, repeats and more than five", () => {
    expect(validateExclusions(["og", "title_length"], ["og", "title_length"])).toEqual({
      param: "exclude",
      message: "title_length cannot be excluded; excludable: text, pwa, hreflang, bimi, schema, security_txt, og, same_ip",
    });
    expect(validateExclusions(["og", "og"], ["og"])).toEqual({ param: "exclude", message: "og is named more than once" });
    const six = ["text", "pwa", "hreflang", "bimi", "schema", "og"];
    expect(validateExclusions(six, six)).toEqual({ param: "exclude", message: "at most 5 exclusions (max_exclusions), got 6" });
    expect(validateExclusions(six.slice(0, 5), six)).toBeNull();
  });

  it("wants every explicit exclusion confirmed; defaults (confirm null) need none", () => {
    expect(validateExclusions(["og", "schema"], ["og"])).toEqual({ param: "confirm", message: "confirm the exclusion of schema by naming it in confirm" });
    expect(validateExclusions(["og", "schema"], [])).toEqual({ param: "confirm", message: "confirm the exclusion of og, schema by naming it in confirm" });
    expect(validateExclusions(["og", "schema"], ["schema", "og", "text"])).toBeNull();
    expect(validateExclusions(["og", "schema"], null)).toBeNull();
    expect(validateExclusions([], [])).toBeNull();
  });

  it("with today's catalogue, only presentation can go over half: hreflang + og is exactly half, a third of pwa or schema too much", () => {
    // presentation (36): viewport 6, html_lang 3, social_profiles 1; pwa 2 (pwa_manifest 1, pwa_icons 1); hreflang 9
    // (codes 3, return 3, self 1, x_default 1, lang_mismatch 1); schema 6 (jsonld_syntax 3, required 1, core_types 1,
    // breadcrumbs 1); og 9 (og_required 3, og_image 3, og_url_match 1, og_description 1, twitter_card 1).
    const presentation: Record<string, number> = { pwa: 2, hreflang: 9, schema: 6, og: 9 };
    for (const s of subsets(EXCLUSION_FAMILIES, 5)) {
      const share = s.reduce((sum, f) => sum + (presentation[f] ?? 0), 0);
      expect(validateExclusions(s, s) === null, s.join(",")).toBe(share <= 18);
    }
    expect(groupShares(["hreflang", "og"])).toEqual([{ group: "presentation", excluded: 18, total: 36 }]);
    expect(validateExclusions(["hreflang", "og"], ["hreflang", "og"])).toBeNull();
    expect(validateExclusions(["hreflang", "schema", "og"], ["hreflang", "schema", "og"])).toEqual({
      param: "exclude",
      message: "the exclusions take 24 of the 36 weight of the presentation group; at most 50% (max_group_share 0.5)",
    });
    // The largest combinations the rule allows: og + schema + pwa (the anchors' example) and hreflang + schema + pwa, 17 of 36.
    expect(validateExclusions(["og", "schema", "pwa"], ["og", "schema", "pwa"])).toBeNull();
    expect(groupShares(["text", "security_txt", "pwa", "bimi"])).toEqual([
      { group: "security", excluded: 3, total: 66 },
      { group: "content", excluded: 3, total: 46 },
      { group: "presentation", excluded: 2, total: 36 },
    ]);
  });

  it("refuses exclusions over half of a group's nominal weight (seo-anchors §3.7's catalogue: og + schema + pwa + hreflang = 28/41)", () => {
    // The presentation group of the anchors' full catalogue, where pwa and hreflang weigh more.
    const catalogue: NominalCheck[] = [
      { code: "viewport", rankGroup: "presentation", weight: 6 },
      { code: "html_lang", rankGroup: "presentation", weight: 3 },
      { code: "font_size", rankGroup: "presentation", weight: 4 },
      { code: "hreflang_codes", rankGroup: "presentation", weight: 12 },
      { code: "jsonld_syntax", rankGroup: "presentation", weight: 3 },
      { code: "og_required", rankGroup: "presentation", weight: 6 },
      { code: "pwa_manifest", rankGroup: "presentation", weight: 7 },
      { code: "title_present", rankGroup: "content", weight: 6 },
    ];
    const members = { ...FAMILY_CHECKS, pwa: ["pwa_manifest"] };
    const allowed = ["og", "schema", "pwa"];
    expect(groupShares(allowed, catalogue, members)).toEqual([{ group: "presentation", excluded: 16, total: 41 }]);
    expect(validateExclusions(allowed, allowed, catalogue, members)).toBeNull();
    const over = ["og", "schema", "pwa", "hreflang"];
    expect(validateExclusions(over, over, catalogue, members)).toEqual({
      param: "exclude",
      message: "the exclusions take 28 of the 41 weight of the presentation group; at most 50% (max_group_share 0.5)",
    });
  });
});

describe("applyProfile", () => {
  // Two groups: content (title_present 6 pass, text_length 3 fail) and presentation (viewport 6
  // pass, og_required 3 fail, jsonld_syntax 3 not applicable).
  const item = (code: string, rank_group: StoredRankItem["rank_group"], weight: number, score: number | null): StoredRankItem => ({
    code,
    rank_group,
    weight,
    score,
    status: score === null ? "na" : score === 1 ? "pass" : "fail",
  });
  const items = [
    item("title_present", "content", 6, 1),
    item("text_length", "content", 3, 0),
    item("viewport", "presentation", 6, 1),
    item("og_required", "presentation", 3, 0.45),
    item("jsonld_syntax", "presentation", 3, null),
  ];

  it("answers nulls before the first run, never invented values", () => {
    expect(applyProfile(["og", "pwa"], null)).toEqual({
      base: null,
      value: null,
      delta: null,
      warn: false,
      excluded: [
        { code: "og", title: "Open Graph tags", was: null, reason: expect.stringContaining("(og_required, og_image, og_url_match, og_description, twitter_card) from the rank.") },
        { code: "pwa", title: "Progressive web app (manifest, service worker)", was: null, reason: expect.stringContaining("(pwa_manifest, pwa_icons) from the rank.") },
      ],
    });
    // same_ip waits for a reverse-IP source: no check stands for it.
    expect(applyProfile(["same_ip"], null).excluded[0]?.reason).toContain("excluding it changes nothing");
  });

  it("gives excluded checks weight 0 with the group weights fixed, and warns over a lift of 5", () => {
    // base: content 6/9, presentation (6 + 1.35)/9 → (16·0.6667 + 12·0.8167)/28 = 0.7310 → 73.
    // text + og excluded: both groups 1 → 100, delta 27, warn.
    const applied = applyProfile(["text", "og"], { items, caps: [] });
    expect(applied).toMatchObject({ base: 73, value: 100, delta: 27, warn: true });
    expect(applied.excluded.map((e) => [e.code, e.was])).toEqual([
      ["text", 0],
      ["og", 45],
    ]);
    // og alone: presentation 1 → (16·0.6667 + 12)/28 = 0.8095 → 81, delta 8.
    expect(applyProfile(["og"], { items, caps: [] })).toMatchObject({ base: 73, value: 81, delta: 8, warn: true });
    // A not-applicable family changes nothing and shows no score.
    expect(applyProfile(["schema"], { items, caps: [] })).toMatchObject({ base: 73, value: 73, delta: 0, warn: false, excluded: [{ code: "schema", was: null }] });
  });

  it("lowers the rank when a passing check is excluded, and keeps the run's caps", () => {
    const passing = [item("title_present", "content", 6, 0), item("text_length", "content", 3, 1), item("viewport", "presentation", 6, 1)];
    // base: content 3/9 → (16/3 + 12)/28 = 0.6190 → 62; without text_length content is 0 → 12/28 → 43.
    expect(applyProfile(["text"], { items: passing, caps: [] })).toMatchObject({ base: 62, value: 43, delta: -19, warn: false, excluded: [{ code: "text", was: 100 }] });
    expect(applyProfile(["text"], { items: passing, caps: [{ code: "title_present", cap: 49 }] })).toMatchObject({ base: 49, value: 43, delta: -6 });
    expect(applyProfile(["og"], { items, caps: [{ code: "viewport", cap: 49 }] })).toMatchObject({ base: 49, value: 49, delta: 0 });
  });
});

describe("profiledIssues: a stored run's tasks as a profile sees them", () => {
  const sites = { mediocre: mediocreSite(), broken: brokenSite(), healthy: healthySite() };
  const view = (a: ReturnType<typeof analyzeSite>) => ({ rank: a.rank, after: afterAll(a), tasks: a.tasks.map((t) => ({ code: t.code, impact: t.impact, lifts_cap: t.lifts_cap })) });

  it("reproduces the stored rank, after and tasks without exclusions", () => {
    for (const [name, facts] of Object.entries(sites)) {
      const a = analyzeSite(facts);
      expect(profiledIssues([], a), name).toEqual(view(a));
    }
  });

  it("equals analyzing the site with the excluded checks (weight 0, no cap, no task)", () => {
    for (const families of [["og", "text"], ["security_txt", "schema", "hreflang"], [...EXCLUSION_FAMILIES].slice(0, 5)] as const) {
      for (const [name, facts] of Object.entries(sites)) {
        const p = profiledIssues(families, analyzeSite(facts));
        expect(p, `${name} ${families.join(",")}`).toEqual(view(analyzeSite(facts, { excluded: memberChecks(families) })));
        expect(p.rank).toBe(applyProfile(families, analyzeSite(facts)).value);
      }
    }
  });
});
