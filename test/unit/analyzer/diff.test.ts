import { describe, expect, it } from "vitest";
import { analyzeSite, diffRuns, type ReportItem, type RunSummary } from "../../../analyzer/index.ts";
import { brokenSite, healthySite, mediocreSite } from "./golden-sites.ts";

function item(code: string, status: ReportItem["status"], score: number | null, value: ReportItem["value"] = null): ReportItem {
  return { code, title: code, group: "content", rank_group: "content", level: "warn", status, score, value, detail: "", pages: [], weight: 3, gain: 0 };
}

const run = (items: ReportItem[], tech: string[] = []): RunSummary => ({ items, tech });

describe("diffRuns", () => {
  it("classifies new, returned, fixed, worse and improved", () => {
    const older = run([
      item("a", "pass", 1),
      item("b", "pass", 1),
      item("c", "fail", 0),
      item("d", "warn", 0.5),
      item("e", "fail", 0),
      item("f", "fail", 0.36),
      item("g", "fail", 0.36),
      item("h", "fail", 0.72),
    ]);
    const newer = run([
      item("a", "fail", 0, 404), // failing now, never before → new
      item("b", "warn", 0.5, 900), // failing now, failed in an earlier run → returned
      item("c", "pass", 1), // fixed
      item("d", "fail", 0), // warn → fail: worse
      item("e", "warn", 0.5), // fail → warn: improved
      item("f", "fail", 0.54, 2), // score +0.18 while failing: improved
      item("g", "fail", 0.27), // score −0.09: unchanged
      item("h", "fail", 0.62), // 0.72 → 0.62 is exactly −0.1 (binary noise aside): worse
      item("i", "fail", 0), // absent before → new
    ]);
    const d = diffRuns(older, newer, new Set(["b", "i"]));
    const codes = (l: { code: string }[]) => l.map((c) => c.code);
    expect({
      new: codes(d.new),
      returned: codes(d.returned),
      fixed: codes(d.fixed),
      worse: codes(d.worse),
      improved: codes(d.improved),
    }).toEqual({ new: ["a"], returned: ["b", "i"], fixed: ["c"], worse: ["d", "h"], improved: ["e", "f"] });
    expect(d.new[0]).toEqual({ code: "a", title: "a", group: "content", from: "pass", to: "fail", value: 404 });
    expect(d.returned[1]).toMatchObject({ code: "i", from: "na", to: "fail" });
    expect(d.changed).toBe(true);
  });

  it("a check that stops being applicable is not fixed, and one that becomes applicable and passes is no change", () => {
    const d = diffRuns(run([item("a", "fail", 0), item("b", "na", null)]), run([item("a", "na", null), item("b", "pass", 1)]), new Set());
    expect(d.changed).toBe(false);
  });

  it("reports technologies added and removed", () => {
    const d = diffRuns(run([], ["nginx", "WordPress"]), run([], ["nginx", "Cloudflare"]), new Set());
    expect([d.tech_added, d.tech_removed, d.changed]).toEqual([["Cloudflare"], ["WordPress"], true]);
  });

  it("healthy → broken → healthy over real analyses", () => {
    const healthy = analyzeSite(healthySite());
    const broken = analyzeSite(brokenSite());
    const down = diffRuns(healthy, broken, new Set());
    expect(down.new.map((c) => [c.code, c.from, c.to])).toEqual([
      ["robots_blocks_all", "pass", "fail"],
      // `Disallow: /` in the * group also shuts out the AI crawlers that have no group of their own.
      ["ai_crawlers_blocked", "pass", "fail"],
      ["https_redirect", "pass", "fail"],
      ["tls_cert_valid", "pass", "fail"],
    ]);
    const up = diffRuns(broken, healthy, new Set(["robots_blocks_all"]));
    expect(up.fixed.map((c) => c.code)).toEqual(["robots_blocks_all", "ai_crawlers_blocked", "https_redirect", "tls_cert_valid"]);
    expect(diffRuns(healthy, analyzeSite(healthySite()), new Set()).changed).toBe(false);
    const again = diffRuns(healthy, analyzeSite(mediocreSite()), new Set(["sitemap_present"]));
    expect(again.returned.map((c) => c.code)).toEqual(["sitemap_present"]);
  });
});
