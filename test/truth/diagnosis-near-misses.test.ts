import { describe, expect, it } from "vitest";
import { diagnose, type SiteEvidence } from "../../analyzer/index.ts";
import { DAY, NOW, daily, fail, repeat, run, site } from "../unit/analyzer/diagnosis-builder.ts";

// Every root-cause rule of /diagnosis, given evidence that almost qualifies: one step short of
// each threshold, or the right figures in the wrong order. Truth by construction: no root cause,
// no cause at all. (The certificate rule's near misses belong with the certificate incidents'
// scenarios, issue 31 §1, kept by its own tier file.)

const rootCauses = (ev: SiteEvidence) => {
  const d = diagnose(ev, NOW);
  return { root: d.root_cause?.code ?? null, causes: d.causes.map((c) => c.code) };
};
const NONE = { root: null, causes: [] };
const dayOf = (daysAgo: number) => new Date((NOW - daysAgo * DAY) * 1000).toISOString().slice(0, 10);

describe("root causes with evidence that almost qualifies", () => {
  it("site_down: 29 minutes down in the week, no open incident", () => {
    const incidents = [
      { kind: "down", title: "Site down", cause: "http 503", firstSeen: NOW - 3 * DAY, resolvedAt: NOW - 3 * DAY + 20 * 60 },
      { kind: "down", title: "Site down", cause: "http 503", firstSeen: NOW - DAY, resolvedAt: NOW - DAY + 9 * 60 },
      // Long ago: outside the 7 days.
      { kind: "down", title: "Site down", cause: "http 503", firstSeen: NOW - 9 * DAY, resolvedAt: NOW - 8 * DAY },
    ];
    expect(rootCauses(site({ runs: [run(1, 2, 80)], uptime: { firstProbe: NOW - 20 * DAY, incidents } }))).toEqual(NONE);
  });

  it("index_drop_after_block: a noindex first seen at the first check, after the index had already fallen", () => {
    const indexed = [...daily(dayOf(20), repeat(100, 19)), ...daily(dayOf(1), [80, 55])];
    expect(rootCauses(site({ runs: [run(1, 0.1, 49, [fail("noindex", "Pages are not blocked by noindex")])], indexed }))).toEqual(NONE);
  });

  it("index_drop_after_block: a noindex and an index down 19 %", () => {
    const runs = [run(1, 10, 85), run(2, 5, 84, [fail("noindex", "Pages are not blocked by noindex", "warn")])];
    const indexed = [...daily(dayOf(20), repeat(100, 15)), ...daily(dayOf(4), repeat(81, 5))];
    expect(rootCauses(site({ runs, indexed }))).toEqual(NONE);
  });

  it("new_critical_problems: the rank fell 2 points with a new bad check", () => {
    expect(rootCauses(site({ runs: [run(1, 2, 80), run(2, 1, 78, [fail("h1_present", "Pages have an h1")])] }))).toEqual(NONE);
  });

  it("new_critical_problems: the rank fell, but the failing check was not measured the time before (an outage)", () => {
    const outage = { ...run(1, 2, 60), unmeasured: ["hreflang_return", "sitemap_present"] };
    expect(rootCauses(site({ runs: [outage, run(2, 1, 50, [fail("sitemap_present", "A sitemap exists")])] }))).toEqual(NONE);
  });

  it("performance_regression: the score fell one point short of a regression", async () => {
    const { REGRESSION_POINTS } = await import("../../analyzer/browser/index.ts");
    const runs = [run(1, 2, 80, [], { score: 90, lcpMs: 1800 }), run(2, 1, 80, [], { score: 90 - (REGRESSION_POINTS - 1), lcpMs: 2100 })];
    expect(rootCauses(site({ runs }))).toEqual(NONE);
  });

  it("position_drop: one query fell, or two of eight (25 %), or all fell by 2 places only", () => {
    const track = (moves: [string, number, number | null][]) => moves.flatMap(([keyword, then, now]) => [
      { keyword, day: dayOf(8), position: then },
      { keyword, day: dayOf(1), position: now },
    ]);
    expect(rootCauses(site({ positions: track([["oak table", 3, 9], ["pine chair", 5, 5], ["teak bench", 7, 6]]) }))).toEqual(NONE);
    const eight = track([["a", 3, 9], ["b", 4, null], ["c", 2, 2], ["d", 5, 5], ["e", 6, 6], ["f", 7, 7], ["g", 8, 8], ["h", 9, 9]]);
    expect(rootCauses(site({ positions: eight }))).toEqual(NONE);
    expect(rootCauses(site({ positions: track([["a", 3, 5], ["b", 4, 6], ["c", 2, 4]]) }))).toEqual(NONE);
  });

  it("lost_backlinks: 2 links lost, or 3 of 40 (7.5 %), or lost long ago", () => {
    const links = (lost: number, live: number, lostDay = dayOf(5)) => [
      ...Array.from({ length: lost }, () => ({ firstSeen: dayOf(200), lostAt: lostDay })),
      ...Array.from({ length: live }, () => ({ firstSeen: dayOf(200), lostAt: null })),
    ];
    expect(rootCauses(site({ backlinks: links(2, 5) }))).toEqual(NONE);
    expect(rootCauses(site({ backlinks: links(3, 37) }))).toEqual(NONE);
    expect(rootCauses(site({ backlinks: links(5, 5, dayOf(45)) }))).toEqual(NONE);
  });

  it("external_traffic_drop: clicks down 19 %", () => {
    const clicks = [...daily(dayOf(28), repeat(100, 21)), ...daily(dayOf(7), repeat(81, 7))];
    expect(rootCauses(site({ runs: [run(1, 1, 80)], clicks }))).toEqual(NONE);
  });
});
