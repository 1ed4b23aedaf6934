import { describe, expect, it } from "vitest";
import { diagnose, historyPoints, stability, weekSummary } from "../../../analyzer/index.ts";
import { DAY, NOW, daily, fail, repeat, run, site, task } from "./diagnosis-builder.ts";

// A site blocked by a noindex in the check of 2026-11-17 (rank 85 → 60) whose index fell from 200
// to 80 pages and whose clicks halved; no uptime probe, browser run, backlinks or tracked queries.
const blocked = site({
  runs: [
    run(1, 10, 85),
    run(2, 5, 60, [fail("noindex", "Pages are not blocked by noindex")], null, [
      { id: "indexing", score: 40 },
      { id: "content", score: 90 },
    ]),
  ],
  indexed: [...daily("2026-11-02", repeat(200, 15)), ...daily("2026-11-19", repeat(80, 3))],
  clicks: [...daily("2026-10-20", repeat(100, 26)), ...daily("2026-11-15", repeat(50, 7))],
  tasks: [
    task(1, "title_length", { impact: 2 }),
    task(2, "noindex", { level: "bad", impact: 20, title: "Remove the noindex" }),
    task(3, "img_alt_missing", { impact: 3, effort: 2 }),
    task(4, "h1_present", { status: "done", impact: 9 }),
  ],
});

describe("diagnose", () => {
  const d = diagnose(blocked, NOW);

  it("ranks the index drop after the block above the rank fall it also caused", () => {
    expect(d.causes.map((c) => [c.code, c.severity, c.confidence])).toEqual([
      ["index_drop_after_block", "critical", 0.95],
      ["new_critical_problems", "bad", 0.85],
    ]);
    expect(d.root_cause?.code).toBe("index_drop_after_block");
    expect(d.level).toBe("critical");
  });

  it("scores the zones and the health from the parts with data", () => {
    expect(d.zones.map((z) => [z.zone, z.score, z.state])).toEqual([
      ["indexing", 40, "bad"],
      ["content", 90, "ok"],
      ["availability", null, "nodata"],
      ["speed", null, "nodata"],
      ["index_coverage", 40, "bad"],
      ["traffic", 50, "warn"],
    ]);
    // (rank 60·50 + index coverage 40·10 + traffic 50·10) ÷ 70 = 55.7
    expect(d.health).toBe(56);
  });

  it("says which sources are missing and which rules could not be asked", () => {
    expect(d.completeness).toEqual({
      score: 70,
      sources: [
        { source: "report", present: true },
        { source: "uptime", present: false },
        { source: "browser", present: false },
        { source: "search", present: true },
        { source: "indexing", present: true },
        { source: "backlinks", present: false },
        { source: "positions", present: false },
      ],
      missing: ["uptime", "browser", "backlinks", "positions"],
      rules_not_evaluated: [
        { rule: "site_down", missing: ["uptime"] },
        { rule: "performance_regression", missing: ["browser"] },
        { rule: "position_drop", missing: ["positions"] },
        { rule: "lost_backlinks", missing: ["backlinks"] },
      ],
    });
  });

  it("puts the task that fixes the root cause first, then open tasks by gain per effort", () => {
    expect(d.actions).toEqual([
      { order: 1, task_id: 2, code: "noindex", title: "Remove the noindex", level: "bad", gain: 20, effort: 1, time_min: 30, cause: "index_drop_after_block" },
      { order: 2, task_id: 1, code: "title_length", title: "Fix title_length", level: "warn", gain: 2, effort: 1, time_min: 30, cause: null },
      { order: 3, task_id: 3, code: "img_alt_missing", title: "Fix img_alt_missing", level: "warn", gain: 3, effort: 2, time_min: 120, cause: null },
    ]);
  });

  it("gives a cause that no task fixes its own action", () => {
    const down = diagnose(site({ uptime: { firstProbe: NOW - 9 * DAY, incidents: [{ kind: "down", title: "Down", cause: "timeout", firstSeen: NOW - 600, resolvedAt: null }] } }), NOW);
    expect([down.level, down.health, down.actions]).toEqual([
      "critical",
      0,
      [{ order: 1, task_id: null, code: null, title: "Bring the site back: check the server, hosting and DNS.", level: "bad", gain: null, effort: null, time_min: null, cause: "site_down" }],
    ]);
  });

  it("measures the dynamics against a week and a month ago", () => {
    // A week ago: rank 85, index 200 of 200 (100), clicks (6·100 + 50) ÷ 7 against 100, -7.1% (93):
    // (85·50 + 100·10 + 93·10) ÷ 70 = 88.3.
    expect(d.dynamics).toEqual({
      rank: { value: 60, delta_7d: -25, delta_30d: null, trend: "down" },
      health: { value: 56, delta_7d: -32, trend: "down" },
      traffic: { clicks_per_day: 50, before: 100, change_pct: -50, trend: "down" },
      indexed: { pages: 80, peak_30d: 200, change_pct: -60, trend: "down" },
    });
  });

  it("knows nothing of a site never checked nor probed", () => {
    const none = diagnose(site(), NOW);
    expect([none.level, none.health, none.root_cause, none.completeness.score]).toEqual(["unknown", null, null, 0]);
  });
});

describe("the history", () => {
  const two = site({ runs: [run(1, 3, 80), run(2, 1, 50)] });

  it("gives each day the diagnosis as it stood at the day's end", () => {
    expect(historyPoints(two, NOW, 5)).toEqual([
      { day: "2026-11-18", health: null, level: "unknown", rank: null, root_cause: null },
      { day: "2026-11-19", health: 80, level: "ok", rank: 80, root_cause: null },
      { day: "2026-11-20", health: 80, level: "ok", rank: 80, root_cause: null },
      { day: "2026-11-21", health: 50, level: "warn", rank: 50, root_cause: null },
      { day: "2026-11-22", health: 50, level: "warn", rank: 50, root_cause: null },
    ]);
  });

  it("counts stable day pairs and sums up the week", () => {
    expect(stability(historyPoints(two, NOW, 5))).toBe(67);
    expect(stability(historyPoints(site(), NOW, 5))).toBeNull();
    expect(weekSummary(blocked, NOW)).toEqual({
      from: "2026-11-16",
      to: "2026-11-22",
      health_from: 88,
      health_to: 56,
      delta: -32,
      checks: 1,
      incidents: 0,
      down_min: 0,
      // Every task was first seen 3 days ago; h1_present was done since.
      tasks_new: 4,
      tasks_fixed: 1,
    });
  });
});
