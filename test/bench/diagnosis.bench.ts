/**
 * bench:diagnosis: latency of the diagnosis operations through the gateway (app.inject, PGlite) on
 * an account whose sites were checked daily for a year: each run's report holds 118 items (20
 * failing) and 7 rank groups, plus 60 days of imported clicks and index status and 10 tasks per
 * site. GET /diagnosis/{host}/history?days=365 computes the diagnosis as of each of 365 days on its
 * first request (the "max" column: finished days are then stored, docs/diagnosis.md) and reads the
 * stored days on the later ones (the median).
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:diagnosis                 5 sites, 10 rounds
 *   npm run bench:diagnosis -- --smoke      2 sites, 3 rounds (also when CI=true)
 */
import { performance } from "node:perf_hooks";
import { emptyFacts } from "../../analyzer/index.ts";
import { startTestGateway, T0_MS } from "../harness/gateway.ts";

const smoke = process.argv.includes("--smoke") || process.env.CI === "true";
const SITES = smoke ? 2 : 5;
const ROUNDS = smoke ? 3 : 10;
const NOW = Math.floor(T0_MS / 1000);
const DAY = 86_400;
const GROUPS = ["indexing", "technical", "security", "performance", "content", "links", "presentation"];

const gw = await startTestGateway({ env: { SVC_UPTIME_PLAN_EVERY_MS: "0", SVC_ALLOW_PRIVATE_TARGETS: "1" } });
const owner = await gw.newAccount("bench@example.com", ["read"]);
const seedStart = performance.now();
for (let s = 0; s < SITES; s++) {
  const host = `site${s}.example`;
  await gw.store.sites.add(owner.accountId, host, 24, NOW - 400 * DAY);
  for (let d = 365; d >= 1; d--) {
    const items = Array.from({ length: 118 }, (_, i) => ({
      code: `check_${i}`,
      title: `Check ${i}`,
      level: i % 3 === 0 ? "bad" : "warn",
      status: i < 20 ? "fail" : "pass",
      group: GROUPS[i % 7],
      rank_group: GROUPS[i % 7],
      score: i < 20 ? 0 : 1,
      value: null,
      detail: "a detail of a few words",
      pages: [],
      weight: 3,
      gain: i < 20 ? 1.5 : 0,
    }));
    const rank = 60 + ((d * 7 + s) % 20);
    const report = { version: 1, items, groups: GROUPS.map((id, i) => ({ id, weight: 10, score: 50 + ((d + i) % 50), checks: 17 })), caps: [], tech: [], tasks: [], origin: `https://${host}`, after: 95 };
    await gw.db.query("INSERT INTO runs (host, job_id, checked_at, rank, label, color, report) VALUES ($1, NULL, $2, $3, 'x', '#000', $4)", [host, NOW - d * DAY, rank, JSON.stringify(report)]);
  }
  const drafts = Array.from({ length: 10 }, (_, i) => ({ code: `check_${i}`, title: `Fix ${i}`, level: "warn" as const, group: "content", impact: i + 1, hint: "", detail: "", source: "report", recheck: true, effort: 1 + (i % 3) }));
  await gw.store.tasks.applyRun(owner.accountId, host, NOW - DAY, drafts, new Set());
  const facts = emptyFacts();
  for (let d = 60; d >= 1; d--) {
    const date = new Date((NOW - d * DAY) * 1000).toISOString().slice(0, 10);
    facts.daily.push({ engine: "google", date, query: "", page: "", country: "", device: "", clicks: 100 + (d % 7) * 5, impressions: 2000, posXImpr: 10_000 });
    facts.indexStatus.push({ engine: "google", date, indexed: 500 - d, notIndexed: 20 });
  }
  await gw.store.search.importBatch({ accountId: owner.accountId, host, provider: "gsc", kind: "performance", formats: ["bench"], fileName: "b.csv", sha256: `b${s}`, parserVersion: 1, rows: 120, importedAt: NOW }, facts);
}
console.log(`seeded ${SITES} sites × 365 daily runs in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

async function time(path: string, before?: () => Promise<unknown>): Promise<{ median: number; max: number }> {
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await before?.();
    const t = performance.now();
    const res = await gw.call("GET", `/api/v1${path}`, { key: owner.key });
    ms.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)]!, max: ms.at(-1)! };
}

for (const path of ["/diagnosis/site0.example", "/diagnosis/site0.example/history", "/diagnosis/site0.example/history?days=365", "/diagnosis", "/today"]) {
  const { median, max } = await time(path);
  console.log(`${path.padEnd(44)} median ${median.toFixed(1).padStart(7)} ms   max ${max.toFixed(1).padStart(7)} ms   (${ROUNDS} rounds, ${SITES} sites)`);
}
// The materialised history side by side in this process: every finished day computed (the stored
// days cleared before each round, as every request did before they were kept) against read back.
for (const days of [30, 365]) {
  const path = `/diagnosis/site0.example/history?days=${days}`;
  const computed = await time(path, () => gw.db.query("DELETE FROM diagnosis_days"));
  await time(path);
  const stored = await time(path);
  console.log(`history?days=${String(days).padEnd(4)} every day computed median ${computed.median.toFixed(1).padStart(7)} ms   finished days stored median ${stored.median.toFixed(1).padStart(7)} ms`);
}
await gw.close();
