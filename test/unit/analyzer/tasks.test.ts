import { describe, expect, it } from "vitest";
import { afterAll, analyzeSite, projectionBlindness, type TaskDraft } from "../../../analyzer/index.ts";
import type { SiteFacts } from "../../../proto/index.ts";
import { brokenSite, mediocreSite } from "./golden-sites.ts";
import { ORIGIN, allPages, cleanCrawl, response, setHeader } from "./site-builder.ts";

const LEVEL = { bad: 0, warn: 1, info: 2 };

function fixed(site: SiteFacts, fix: (f: SiteFacts) => void): SiteFacts {
  fix(site);
  return site;
}

describe("tasks (seo-anchors §3.6)", () => {
  it("mediocre site: one task per failing check, most useful first", () => {
    const a = analyzeSite(mediocreSite());
    expect(a.tasks.map((t) => [t.code, t.impact])).toEqual([
      // 100·R = 71.816380 (rank.test.ts); impact = round(100·R + gain) − 72, e.g. image_dimensions
      // 16·3/9 = 5.333 → 77.15 → 77 (+5), robots_txt_fetch 22·6/39 = 3.385 → 75.20 → 75 (+3),
      // viewport 12·3.84/28 = 1.646 → 73.46 → 73 (+1), hsts 14·3/65 = 0.646 → 72.46 → 72 (+0).
      ["image_dimensions", 5],
      ["render_blocking", 5],
      ["robots_txt_fetch", 3],
      ["canonical_present", 2],
      ["sitemap_present", 2],
      ["viewport", 1],
      ["compression", 1],
      ["description_present", 1],
      ["og_required", 1],
      ["img_alt_missing", 1],
      ["hsts", 0],
      ["spf", 0],
      ["h1_present", 0],
      ["ttfb", 0],
      ["dmarc", 0],
      ["security_txt", 0],
      ["bimi", 0],
      ["link_text", 0],
    ]);
    const failing = a.items.filter((i) => i.status === "warn" || i.status === "fail").map((i) => i.code);
    expect(a.tasks.map((t) => t.code).sort()).toEqual(failing.sort());
  });

  it("orders by gain, then level bad > warn > info, then effort", () => {
    const tasks = analyzeSite(mediocreSite()).tasks;
    const key = (t: TaskDraft) => [-t.impact, LEVEL[t.level], t.effort];
    for (let i = 1; i < tasks.length; i++) {
      const [a, b] = [key(tasks[i - 1]!), key(tasks[i]!)];
      const cmp = a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
      expect(cmp, `${tasks[i - 1]!.code} before ${tasks[i]!.code}`).toBeLessThanOrEqual(0);
    }
  });

  it("a task carries the check's level, group, hint, effort and recheck", () => {
    const a = analyzeSite(mediocreSite());
    expect(a.tasks.find((t) => t.code === "dmarc")).toEqual({
      code: "dmarc",
      title: "DMARC policy is published",
      level: "info", // p=none: the catalogue's info tier
      group: "domain",
      impact: 0, // 14·1.5/65 = 0.32 → 72.14 still rounds to 72
      impact_uncapped: 0,
      hint: expect.stringContaining("_dmarc.") as string,
      detail: "p=none: monitoring only, spoofed mail is still delivered",
      source: "report",
      recheck: true,
      effort: 1,
      lifts_cap: false,
    });
  });

  it("gain is exact: passing the check alone raises the rank by its impact", () => {
    const a = analyzeSite(mediocreSite());
    for (const t of a.tasks) expect(afterAll(a, [t.code]) - a.rank, t.code).toBe(t.impact);
    for (const i of a.items.filter((x) => x.status === "pass" || x.status === "na")) expect(i.gain, i.code).toBe(0);
  });

  // The third element: checks the fix brings into scope (N/A before, applicable after). They are held out of
  // both runs (weight 0), since their arrival renormalises the group and is not the fixed check's gain.
  it.each<[string, (f: SiteFacts) => void, string[]]>([
    ["hsts", (f) => setHeader(f.home!.response, "strict-transport-security", "max-age=31536000"), []],
    [
      "description_present",
      (f) => allPages(f).forEach((p) => void (p.metaDescription = "A description long enough to read.")),
      ["description_length", "description_duplicate"],
    ],
    [
      "robots_txt_fetch",
      (f) => Object.assign(f.robots!, { response: response(`${ORIGIN}/robots.txt`), present: true }),
      ["robots_blocks_all", "robots_blocks_assets", "robots_txt_syntax", "ai_crawlers_blocked", "sitemap_in_robots"],
    ],
    ["image_dimensions", (f) => allPages(f).forEach((p) => p.images.forEach((img) => Object.assign(img, { width: 10, height: 10 }))), []],
  ])("fixing %s in the facts moves the rank by exactly its impact", (code, fix, heldOut) => {
    const before = analyzeSite(mediocreSite(), { excluded: heldOut });
    const after = analyzeSite(fixed(mediocreSite(), fix), { excluded: heldOut });
    expect(after.items.find((i) => i.code === code)?.status).toBe("pass");
    expect(after.rank - before.rank).toBe(before.tasks.find((t) => t.code === code)?.impact);
  });

  it("broken site: the binding cap lifts the ceiling, the others gain nothing alone", () => {
    const a = analyzeSite(brokenSite());
    expect(a.tasks.map((t) => [t.code, t.impact, t.lifts_cap])).toEqual([
      ["robots_blocks_all", 10, true], // ceiling 29 → 39
      ["https_redirect", 0, false],
      ["tls_cert_valid", 0, false],
      ["ai_crawlers_blocked", 0, false], // info; the * group's Disallow: / binds AI crawlers too
    ]);
    const robotsFixed = analyzeSite(fixed(brokenSite(), (f) => void (f.robots!.groups[0]!.disallow = ["/admin/"])));
    expect(robotsFixed.rank).toBe(39);
  });

  it("under a cap, a task's gain with the cap lifted orders the tasks the cap holds at 0 (R7)", () => {
    // The cap binds (robots.txt blocks all: 29), a crawl found 10 broken URLs, security.txt is
    // missing: alone, none of them gains a point under the ceiling. With the cap lifted the broken
    // links are worth 0.6 points and security.txt 0.2: tasks of equal impact and level are ordered by it
    // (https_redirect and tls_cert_valid before broken_internal, all bad; ai_crawlers_blocked before security_txt, both info).
    const site = fixed(brokenSite(), (f) => {
      f.crawl = cleanCrawl({ brokenLinks: 10, broken: [{ url: `${ORIGIN}/gone/`, detail: "404, linked from 10 pages" }] });
      f.securityTxt = response(`${ORIGIN}/.well-known/security.txt`, { status: 404, contentType: "text/html" });
      f.securityTxtFields = undefined;
    });
    const a = analyzeSite(site);
    expect(a.rank).toBe(29);
    expect(a.tasks.map((t) => [t.code, t.impact, t.impact_uncapped])).toEqual([
      ["robots_blocks_all", 10, 1.9],
      ["https_redirect", 0, 1.4],
      ["tls_cert_valid", 0, 1.4],
      ["broken_internal", 0, 0.6],
      ["ai_crawlers_blocked", 0, 0.3],
      ["security_txt", 0, 0.2],
    ]);
  });

  it("without a cap, the gain with caps lifted is the gain", () => {
    for (const t of analyzeSite(mediocreSite()).tasks) expect(t.impact_uncapped, t.code).toBe(t.impact);
  });

  it("afterAll: every task fixed, or a chosen subset (/issues after, gain_all)", () => {
    const broken = analyzeSite(brokenSite());
    expect(afterAll(broken)).toBe(100);
    expect(afterAll(broken, ["robots_blocks_all", "tls_cert_valid"])).toBe(79);
    const mediocre = analyzeSite(mediocreSite());
    expect(afterAll(mediocre)).toBe(100);
    expect(afterAll(mediocre, ["image_dimensions", "render_blocking"])).toBe(82); // 71.816380 + 16·(6/9) = 82.48
  });

  it("projectionBlindness: a projection is shown while at least half the checks were measured", () => {
    const item = (status: string) => ({ status });
    expect(projectionBlindness([...Array(5).fill(item("na")), ...Array(5).fill(item("fail"))])).toBeNull();
    expect(projectionBlindness([...Array(6).fill(item("na")), ...Array(4).fill(item("pass"))])).toBe(
      "6 of 10 checks were not measured in this check: a rank after fixing the issues found would rest on the few that were",
    );
    expect(projectionBlindness(analyzeSite(brokenSite()).items)).toBeNull();
  });

  it("tied binding caps: both are binding, neither lifts the rank alone", () => {
    const a = analyzeSite(fixed(brokenSite(), (f) => void (f.home!.metaRobots = "noindex")));
    expect(a.caps.slice(0, 2).map((c) => [c.code, c.cap])).toEqual([
      ["noindex", 29],
      ["robots_blocks_all", 29],
    ]);
    // Ordered by their gain once the caps are lifted (R7).
    expect(a.tasks.filter((t) => t.lifts_cap).map((t) => [t.code, t.impact, t.impact_uncapped])).toEqual([
      ["robots_blocks_all", 0, 2.3],
      ["noindex", 0, 1.5],
    ]);
  });
});
