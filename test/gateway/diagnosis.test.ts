import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { emptyFacts } from "../../analyzer/index.ts";
import type { TaskDraftRow } from "../../storage/index.ts";
import { startTestGateway, T0_MS, type TestGateway } from "../harness/gateway.ts";

// GET /diagnosis, /diagnosis/{host}, /diagnosis/{host}/history and /today over an account with
// sites in known states, built in the store (runs, tasks, probes' incidents, imported search data)
// at times relative to the test clock; figures computed by hand. A second account shares a host
// (shared reports) but not the first account's search data, tasks, incidents or events.

const NOW = Math.floor(T0_MS / 1000); // 2026-11-22 10:00 UTC
const DAY = 86_400;
let gw: TestGateway;
let alice: { accountId: number; key: string };
let bob: { accountId: number; key: string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(path: string, key: string): Promise<any> {
  const res = await gw.call("GET", `/api/v1${path}`, { key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

interface Item {
  code: string;
  title: string;
  level: "bad" | "warn" | "info";
}

/** A finished run of host at `at` with these failing checks, rank groups and home-page browser score. */
async function storeRun(host: string, at: number, rank: number, failing: Item[], groups: [string, number][] = [], browser?: { score: number; lcp_ms: number }) {
  const report = {
    version: 1,
    items: failing.map((f) => ({ ...f, status: "fail", group: "content", rank_group: "content", score: 0, value: null, detail: "", pages: [], weight: 1, gain: 1 })),
    groups: groups.map(([id, score]) => ({ id, weight: 10, score, checks: 1 })),
    caps: [],
    tech: [],
    tasks: [],
    origin: `https://${host}`,
    after: 100,
    ...(browser ? { browser: { state: "measured", note: "", pages: [{ device: "mobile", url: `https://${host}/`, checked_at: at, error: "", ...browser }] } } : {}),
  };
  await gw.db.query("INSERT INTO runs (host, job_id, checked_at, rank, label, color, report) VALUES ($1, NULL, $2, $3, 'x', '#000', $4)", [host, at, rank, JSON.stringify(report)]);
  await gw.store.sites.recordRun(host, rank, "x", at);
}

const draft = (code: string, title: string, level: "bad" | "warn", impact: number, effort: number): TaskDraftRow => ({
  code,
  title,
  level,
  group: "content",
  impact,
  hint: "",
  detail: "",
  source: "report",
  recheck: true,
  effort,
});

/** Consecutive days from `first`. */
const days = (first: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${first}T00:00:00Z`) + i * DAY * 1000).toISOString().slice(0, 10));

beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_UPTIME_PLAN_EVERY_MS: "0", SVC_ALLOW_PRIVATE_TARGETS: "1" } });
  alice = await gw.newAccount("alice@example.com", ["read"]);
  bob = await gw.newAccount("bob@example.com", ["read"]);
  for (const host of ["blocked.example", "down.example", "slow.example", "fine.example", "new.example"]) await gw.store.sites.add(alice.accountId, host, 24, NOW - 20 * DAY);
  for (const host of ["blocked.example", "bob.example"]) await gw.store.sites.add(bob.accountId, host, 24, NOW - 20 * DAY);

  // blocked.example: a noindex appears in the check of 2026-11-17 (rank 85 → 60); Alice's imports show the
  // index falling from 200 to 80 pages and clicks halving (100 a day to 2026-11-14, 50 from 2026-11-15).
  await storeRun("blocked.example", NOW - 10 * DAY, 85, [], [["indexing", 90]]);
  const noindex = { code: "noindex", title: "Pages are not blocked by noindex", level: "bad" as const };
  await storeRun("blocked.example", NOW - 5 * DAY, 60, [noindex, { code: "title_length", title: "Title length", level: "warn" }], [["indexing", 40], ["content", 90]]);
  await gw.store.tasks.applyRun(alice.accountId, "blocked.example", NOW - 5 * DAY, [draft("noindex", "Remove the noindex", "bad", 20, 1), draft("title_length", "Shorten titles", "warn", 2, 1), draft("text_length", "Write more text", "warn", 5, 1)], new Set());
  // Alice's profile of the site excludes the text checks: their task counts nowhere (as in GET /plan).
  await gw.store.profiles.set(alice.accountId, "blocked.example", "general", ["text"], NOW - 5 * DAY);
  const facts = emptyFacts();
  const clicks = [...days("2026-10-20", 26).map((d) => [d, 100] as const), ...days("2026-11-15", 7).map((d) => [d, 50] as const)];
  facts.daily.push(...clicks.map(([date, c]) => ({ engine: "google" as const, date, query: "", page: "", country: "", device: "", clicks: c, impressions: c * 10, posXImpr: c * 50 })));
  const index = [...days("2026-11-02", 15).map((d) => [d, 200] as const), ...days("2026-11-19", 3).map((d) => [d, 80] as const)];
  facts.indexStatus.push(...index.map(([date, n]) => ({ engine: "google" as const, date, indexed: n, notIndexed: 0 })));
  await gw.store.search.importBatch(
    { accountId: alice.accountId, host: "blocked.example", provider: "gsc", kind: "performance", formats: ["test"], fileName: "t.csv", sha256: "t", parserVersion: 1, rows: 51, importedAt: NOW - DAY },
    facts,
  );

  // down.example: checked 3 days ago (80), probed for 10 days, down since two hours ago.
  await storeRun("down.example", NOW - 3 * DAY, 80, []);
  // bob.example: down for an hour, never checked.
  for (const [host, since] of [["down.example", NOW - 7200], ["bob.example", NOW - 3600]] as const) {
    await gw.db.query("INSERT INTO uptime_targets (host, url, interval_s, next_slot, state, since, first_probe) VALUES ($1, $2, 300, $3, 'down', $4, $5)", [host, `https://${host}/`, NOW + 300, since, NOW - 10 * DAY]);
    await gw.store.incidents.open({ host, kind: "down", title: `${host} is down`, cause: "http 503", at: since });
  }

  // slow.example: the home page's score fell from 90 to 72 in the check two hours ago (rank 90 → 75), which
  // also brought a render-blocking task.
  await storeRun("slow.example", NOW - 3 * DAY, 90, [], [], { score: 90, lcp_ms: 1800 });
  await storeRun("slow.example", NOW - 7200, 75, [{ code: "render_blocking", title: "Render-blocking resources", level: "warn" }], [], { score: 72, lcp_ms: 3900 });
  await gw.store.tasks.applyRun(alice.accountId, "slow.example", NOW - 7200, [draft("render_blocking", "Defer render-blocking scripts", "warn", 4, 2)], new Set());

  // fine.example: checked yesterday (92, content 80), up for 10 days; its only task was fixed an hour ago.
  await storeRun("fine.example", NOW - DAY, 92, [], [["content", 80]]);
  await gw.db.query("INSERT INTO uptime_targets (host, url, interval_s, next_slot, state, since, first_probe) VALUES ('fine.example', 'https://fine.example/', 300, $1, 'up', $2, $2)", [NOW + 300, NOW - 10 * DAY]);
  await gw.store.tasks.applyRun(alice.accountId, "fine.example", NOW - 3 * DAY, [draft("h1_present", "Add an H1", "warn", 3, 1)], new Set());
  await gw.store.tasks.applyRun(alice.accountId, "fine.example", NOW - 3600, [], new Set(["h1_present"]));

  // down.example had a task done two days ago; no series its fix would move (no search data, no rank groups).
  await gw.store.tasks.applyRun(alice.accountId, "down.example", NOW - 4 * DAY, [draft("title_present", "Add titles", "bad", 6, 1)], new Set());
  await gw.store.tasks.applyRun(alice.accountId, "down.example", NOW - 2 * DAY, [], new Set(["title_present"]));

  // Events: Alice's of two hours and two days ago, Bob's of an hour ago.
  await gw.store.events.add([{ eventKey: "t1", accountId: alice.accountId, host: "slow.example", type: "page", kind: "performance.regressed", level: "warn", text: "slow.example got slower", payload: {} }], NOW - 7200);
  await gw.store.events.add([{ eventKey: "t2", accountId: alice.accountId, host: "fine.example", type: "events", kind: "analysis.done", level: "info", text: "old", payload: {} }], NOW - 2 * DAY);
  await gw.store.events.add([{ eventKey: "t3", accountId: bob.accountId, host: "bob.example", type: "uptime", kind: "site.down", level: "bad", text: "bob.example is down", payload: {} }], NOW - 3600);
});

afterAll(async () => {
  await gw?.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const BLOCKED_TEXT = "Traffic fell 50% because pages dropped out of the index (200 → 80) after a noindex on 2026-11-17.";
const DOWN_TEXT = "The site has been down since 2026-11-22 08:00 UTC (http 503).";
const SLOW_TEXT = "The home page's performance score fell from 90 to 72 between the checks of 2026-11-19 and 2026-11-22, LCP 1800 → 3900 ms.";

describe("GET /diagnosis", () => {
  it("lists every site of the account, most severe first, with health and root cause", async () => {
    const { sites } = await get("/diagnosis", alice.key);
    expect(sites.map((s: { host: string; level: string; health: number | null; root_cause: { code: string } | null; rank: number | null; completeness: number }) => [s.host, s.level, s.health, s.root_cause?.code ?? null, s.rank, s.completeness])).toEqual([
      // (60·50 + index coverage 40·10 + traffic 50·10) ÷ 70 = 55.7
      ["blocked.example", "critical", 56, "index_drop_after_block", 60, 70],
      // (80·50 + availability 0·20) ÷ 70 = 57.1
      ["down.example", "critical", 57, "site_down", 80, 70],
      // (75·50 + speed 72·10) ÷ 60 = 74.5: ok by health, warn by its cause
      ["slow.example", "warn", 75, "performance_regression", 75, 60],
      ["new.example", "unknown", null, null, null, 0],
      // (92·50 + 100·20) ÷ 70 = 94.3
      ["fine.example", "ok", 94, null, 92, 70],
    ]);
    expect(sites[0].root_cause).toEqual({ code: "index_drop_after_block", title: "Pages dropped out of the index after they were blocked", text: BLOCKED_TEXT, severity: "critical", confidence: 0.95 });
  });

  it("diagnoses another account's copy of a shared host from that account's own data only", async () => {
    const { sites } = await get("/diagnosis", bob.key);
    expect(sites.map((s: { host: string; level: string; health: number | null; root_cause: { code: string } | null }) => [s.host, s.level, s.health, s.root_cause?.code ?? null])).toEqual([
      ["bob.example", "critical", 0, "site_down"],
      // Bob imported no search data: the rank fall is all his evidence shows.
      ["blocked.example", "bad", 60, "new_critical_problems"],
    ]);
  });
});

describe("GET /diagnosis/{host}", () => {
  it("answers zones, the ranked causes, dynamics, completeness and the order of actions", async () => {
    const { diagnosis } = await get("/diagnosis/blocked.example", alice.key);
    expect(diagnosis).toMatchObject({ host: "blocked.example", checked_at: NOW - 5 * DAY, level: "critical", health: 56 });
    expect(diagnosis.root_cause).toMatchObject({ code: "index_drop_after_block", text: BLOCKED_TEXT, fixed_by: ["noindex"] });
    expect(diagnosis.causes.map((c: { code: string; confidence: number }) => [c.code, c.confidence])).toEqual([
      ["index_drop_after_block", 0.95],
      ["new_critical_problems", 0.85],
    ]);
    expect(diagnosis.zones.map((z: { zone: string; score: number | null; state: string }) => [z.zone, z.score, z.state])).toEqual([
      ["indexing", 40, "bad"],
      ["content", 90, "ok"],
      ["availability", null, "nodata"],
      ["speed", null, "nodata"],
      ["index_coverage", 40, "bad"],
      ["traffic", 50, "warn"],
    ]);
    expect(diagnosis.dynamics).toEqual({
      rank: { value: 60, delta_7d: -25, delta_30d: null, trend: "down" },
      health: { value: 56, delta_7d: -32, trend: "down" },
      traffic: { clicks_per_day: 50, before: 100, change_pct: -50, trend: "down" },
      indexed: { pages: 80, peak_30d: 200, change_pct: -60, trend: "down" },
    });
    expect([diagnosis.completeness.score, diagnosis.completeness.missing]).toEqual([70, ["uptime", "browser", "backlinks", "positions"]]);
    expect(diagnosis.actions).toEqual([
      { order: 1, task_id: expect.any(Number), code: "noindex", title: "Remove the noindex", level: "bad", gain: 20, effort: 1, time_min: 30, cause: "index_drop_after_block" },
      { order: 2, task_id: expect.any(Number), code: "title_length", title: "Shorten titles", level: "warn", gain: 2, effort: 1, time_min: 30, cause: null },
    ]);
  });

  it("is owner-only: another account's site, or a site nobody monitors, is not_found", async () => {
    for (const path of ["/diagnosis/bob.example", "/diagnosis/bob.example/history", "/diagnosis/nobody.example"]) {
      const res = await gw.call("GET", `/api/v1${path}`, { key: alice.key });
      expect([res.statusCode, res.json().code]).toEqual([404, "not_found"]);
    }
    expect((await gw.call("GET", "/api/v1/diagnosis/blocked.example/history?days=0", { key: alice.key })).json().code).toBe("bad_param");
  });
});

describe("GET /diagnosis/{host}/history", () => {
  it("gives each day's health as it stood then, the stability and the week", async () => {
    const h = await get("/diagnosis/blocked.example/history?days=7", alice.key);
    expect(h.points.map((p: { day: string; health: number; level: string; rank: number; root_cause: string | null }) => [p.day, p.health, p.level, p.rank, p.root_cause])).toEqual([
      // Before the noindex: rank 85, the index whole, clicks (5·100 + 2·50) ÷ 7 against 100 (-14.3%): 87.3
      ["2026-11-16", 87, "ok", 85, null],
      // The noindex and the rank fall; the index not yet down; clicks -21.4%: (60·50 + 100·10 + 79·10) ÷ 70 = 68.4
      ["2026-11-17", 68, "bad", 60, "new_critical_problems"],
      ["2026-11-18", 67, "bad", 60, "new_critical_problems"],
      // The index shows 80 pages: the block's chain is the root cause from here on.
      ["2026-11-19", 58, "critical", 60, "index_drop_after_block"],
      ["2026-11-20", 57, "critical", 60, "index_drop_after_block"],
      ["2026-11-21", 56, "critical", 60, "index_drop_after_block"],
      ["2026-11-22", 56, "critical", 60, "index_drop_after_block"],
    ]);
    expect(h).toMatchObject({
      host: "blocked.example",
      days: 7,
      // Stable pairs: 68→67, 58→57, 57→56, 56→56 of six.
      stability: 67,
      week: { from: "2026-11-16", to: "2026-11-22", health_from: 88, health_to: 56, delta: -32, checks: 1, incidents: 0, down_min: 0, tasks_new: 2, tasks_fixed: 0 },
    });
    expect((await get("/diagnosis/blocked.example/history", alice.key)).points).toHaveLength(30);
  });

  it("keeps finished days once computed, reads them back, and computes them again when the evidence's stamp changes", async () => {
    const stored = async () =>
      gw.db.query<{ day: string; health: number | null; stamp: string }>("SELECT day, health, stamp FROM diagnosis_days WHERE account_id = $1 AND host = 'blocked.example' ORDER BY day", [alice.accountId]);
    // The 7- and 30-day requests above stored the 29 finished days (today's point is never stored).
    const rows = await stored();
    expect(rows.map((r) => r.day)).toEqual(Array.from({ length: 29 }, (_, i) => new Date((NOW - (29 - i) * DAY) * 1000).toISOString().slice(0, 10)));
    expect(rows.find((r) => r.day === "2026-11-16")?.health).toBe(87);
    // Another account's history of a shared host is its own (Bob has no rows for Alice's site).
    expect(await gw.db.query("SELECT 1 FROM diagnosis_days WHERE account_id = $1 AND host = 'blocked.example'", [bob.accountId])).toEqual([]);

    // Stored days answer as stored: a day altered in the table shows altered, today is computed.
    await gw.db.query("UPDATE diagnosis_days SET health = 1 WHERE account_id = $1 AND host = 'blocked.example' AND day = '2026-11-16'", [alice.accountId]);
    const read = (await get("/diagnosis/blocked.example/history?days=7", alice.key)).points as { day: string; health: number }[];
    expect(read.map((p) => p.health)).toEqual([1, 68, 67, 58, 57, 56, 56]);

    // A stamp that no longer matches (an import or a profile change since) makes them computed again.
    await gw.db.query("UPDATE diagnosis_days SET stamp = 'before' WHERE account_id = $1 AND host = 'blocked.example'", [alice.accountId]);
    expect(((await get("/diagnosis/blocked.example/history?days=7", alice.key)).points as { health: number }[]).map((p) => p.health)).toEqual([87, 68, 67, 58, 57, 56, 56]);
    expect((await stored()).filter((r) => r.day >= "2026-11-16").every((r) => r.stamp !== "before")).toBe(true);

    // The stamp moves with the account's imports of the site (search data is dated in the past).
    const before = await gw.store.diagnosisDays.importStamp(alice.accountId, "stamp.example");
    const facts = emptyFacts();
    facts.daily.push({ engine: "google", date: "2026-11-10", query: "", page: "", country: "", device: "", clicks: 5, impressions: 50, posXImpr: 100 });
    await gw.store.search.importBatch({ accountId: alice.accountId, host: "stamp.example", provider: "gsc", kind: "performance", formats: ["t"], fileName: "s.csv", sha256: "stamp", parserVersion: 1, rows: 1, importedAt: NOW }, facts);
    expect(await gw.store.diagnosisDays.importStamp(alice.accountId, "stamp.example")).not.toBe(before);
    expect(await gw.store.diagnosisDays.importStamp(bob.accountId, "stamp.example")).toBe("i0.0");
  });
});

describe("GET /today", () => {
  it("sums up the account's morning across its sites", async () => {
    const t = await get("/today", alice.key);
    expect(t.kpi).toEqual({
      sites: 5,
      checked: 4,
      avg_health: 70.5,
      critical: 2,
      bad: 0,
      warn: 1,
      ok: 1,
      unknown: 1,
      down: 1,
      incidents_open: 1,
      open_tasks: 3,
      crit_tasks: 1,
      potential_gain: 26,
      tasks_new_24h: 1,
      tasks_fixed_24h: 1,
      improved_30d: 0,
      worse_30d: 0,
    });
    expect(t.sites).toEqual([
      { host: "blocked.example", level: "critical", health: 56, rank: 60, rank_delta: -25, online: null, open_tasks: 2, crit_tasks: 1, root_cause: "index_drop_after_block" },
      { host: "down.example", level: "critical", health: 57, rank: 80, rank_delta: null, online: false, open_tasks: 0, crit_tasks: 0, root_cause: "site_down" },
      { host: "slow.example", level: "warn", health: 75, rank: 75, rank_delta: -15, online: null, open_tasks: 1, crit_tasks: 0, root_cause: "performance_regression" },
      { host: "new.example", level: "unknown", health: null, rank: null, rank_delta: null, online: null, open_tasks: 0, crit_tasks: 0, root_cause: null },
      { host: "fine.example", level: "ok", health: 94, rank: 92, rank_delta: null, online: true, open_tasks: 0, crit_tasks: 0, root_cause: null },
    ]);
    expect(t.actions.map((a: { order: number; host: string; code: string | null; title: string; gain: number | null; time_min: number | null; cause: string | null }) => [a.order, a.host, a.code, a.title, a.gain, a.time_min, a.cause])).toEqual([
      [1, "blocked.example", "noindex", "Remove the noindex", 20, 30, "index_drop_after_block"],
      [2, "down.example", null, "Bring the site back: check the server, hosting and DNS.", null, null, "site_down"],
      [3, "slow.example", "render_blocking", "Defer render-blocking scripts", 4, 120, "performance_regression"],
      [4, "blocked.example", "title_length", "Shorten titles", 2, 30, null],
    ]);
    expect(t.actions_total).toBe(4);
    expect(t.incidents.map((i: { host: string; kind: string; status: string; duration: number }) => [i.host, i.kind, i.status, i.duration])).toEqual([["down.example", "down", "open", 7200]]);
    expect(t.diagnosis.map((d: { host: string; level: string; root_cause: { text: string } }) => [d.host, d.level, d.root_cause.text])).toEqual([
      ["blocked.example", "critical", BLOCKED_TEXT],
      ["down.example", "critical", DOWN_TEXT],
      ["slow.example", "warn", SLOW_TEXT],
    ]);
    expect(t.changes).toEqual([
      { host: "fine.example", kind: "task_fixed", title: "Add an H1", from: null, to: null, at: NOW - 3600 },
      // Equal times: by host, then title.
      { host: "slow.example", kind: "task_new", title: "Defer render-blocking scripts", from: null, to: null, at: NOW - 7200 },
      { host: "slow.example", kind: "rank", title: "Rank 90 → 75", from: 90, to: 75, at: NOW - 7200 },
    ]);
    expect(t.causes.map((c: { host: string; code: string; severity: string }) => [c.host, c.code, c.severity])).toEqual([
      ["blocked.example", "index_drop_after_block", "critical"],
      ["down.example", "site_down", "critical"],
      ["slow.example", "performance_regression", "warn"],
    ]);
    expect(t.events_24h.map((e: { host: string; kind: string }) => [e.host, e.kind])).toEqual([["slow.example", "performance.regressed"]]);
  });

  it("shows another account only its own sites, incidents and events", async () => {
    const t = await get("/today", bob.key);
    expect([t.kpi.sites, t.kpi.incidents_open, t.kpi.open_tasks]).toEqual([2, 1, 0]);
    expect(t.incidents.map((i: { host: string }) => i.host)).toEqual(["bob.example"]);
    expect(t.events_24h.map((e: { host: string }) => e.host)).toEqual(["bob.example"]);
    expect([t.results, t.verify]).toEqual([[], { total: 0, tasks: [] }]);
  });

  it("lists the fixes' effects, and the fixes still waiting for their verdict, until the verdict comes", async () => {
    const t = await get("/today", alice.key);
    // No series the title fix would move: nodata (the metric table of GET /effects/{host}).
    expect(t.results).toEqual([
      { host: "down.example", task_id: expect.any(Number), task: "Add titles", done_at: NOW - 2 * DAY, metric: "clicks", verdict: "nodata", before: null, after: null, change_pct: null, note: "Search clicks per day: no measurements for this site" },
    ]);
    // The H1 fixed an hour ago moves the content group's score, judged after a day's wait.
    expect(t.verify).toEqual({
      total: 1,
      tasks: [{ host: "fine.example", task_id: expect.any(Number), task: "Add an H1", metric: "rank_group.content", done_at: NOW - 3600, note: "Score of the task's rank group: judged from 2026-11-23, after a 1-day wait" }],
    });
    // Two days on, a check measures the content group at 95 (80 before the fix).
    gw.clock.advance(2 * DAY * 1000);
    await storeRun("fine.example", NOW + DAY + 3600, 95, [], [["content", 95]]);
    const later = await get("/today", alice.key);
    expect(later.results.map((r: { host: string; verdict: string; before: number; after: number; change_pct: number }) => [r.host, r.verdict, r.before, r.after, r.change_pct])).toEqual([
      ["fine.example", "improved", 80, 95, 18.8],
      ["down.example", "nodata", null, null, null],
    ]);
    expect([later.verify.total, later.kpi.improved_30d, later.kpi.worse_30d]).toEqual([0, 1, 0]);
  });
});
