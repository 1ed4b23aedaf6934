/**
 * bench:effects: GET /effects/{host} (issue 18) over many done tasks on PGlite (embedded).
 *
 * One site, one done task per check of the catalogue, each fixed 6 hours after the one before
 * (so no two share their windows), 60 daily checks with every rank group's score, and a probe a
 * day for the uptime metrics. Figures: the database queries one GET with limit 200 makes, and its
 * latency (median of 7, app.inject: the whole pipeline without sockets).
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:effects
 */
import { CHECKS, RANK_GROUPS } from "../../analyzer/index.ts";
import { createStore, type Db, type TaskDraftRow } from "../../storage/index.ts";
import { writePgliteTemplate } from "../harness/template.ts";
import { startTestGateway } from "../harness/gateway.ts";

const HOST = "bench.example.com";
const DAY = 86400;
const log = (s: string) => process.stdout.write(`${s}\n`);

async function main(): Promise<void> {
  await writePgliteTemplate();
  let queries = 0;
  // Counts every query the store sends (the request pipeline's own included: keys, limits).
  const counting = (db: Db): Db =>
    new Proxy(db, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key === "query") return (...args: unknown[]) => ((queries += 1), (value as (...a: unknown[]) => unknown).apply(target, args));
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const gw = await startTestGateway({ validateResponses: false, env: { SVC_RATE_PER_HOUR: "10000000" }, storeOverrides: (_store, db) => createStore(counting(db)) });
  try {
    const me = (await gw.call("GET", "/api/v1/me")).json<{ user: { id: number } }>();
    await gw.call("POST", "/api/v1/sites", { body: { host: HOST } });
    const now = Math.floor(gw.clock.nowMs() / 1000);
    const draft = (code: string): TaskDraftRow => ({ code, title: code, level: "warn", group: "x", impact: 1, hint: "", detail: "", source: "report", recheck: true, effort: 1 });
    await gw.store.tx((t) => t.tasks.applyRun(me.user.id, HOST, now - 90 * DAY, CHECKS.map((c) => draft(c.code)), new Set()));
    for (const [i, c] of CHECKS.entries()) await gw.store.tx((t) => t.tasks.applyRun(me.user.id, HOST, now - 40 * DAY + i * 6 * 3600, [], new Set([c.code])));
    await gw.store.tx(async (t) => {
      for (let i = 0; i < 60; i++) {
        const groups = RANK_GROUPS.map((id) => ({ id, weight: 10, score: 50 + (i % 5), checks: 3 }));
        await t.runs.insert({ host: HOST, jobId: 1_000_000 + i, checkedAt: now - (60 - i) * DAY, rank: 60, label: "ok", color: "yellow", report: { version: 1, items: [], groups, caps: [], tech: [], tasks: [], origin: `https://${HOST}`, after: 60 } });
      }
    });
    await gw.store.uptimeSeries.add(
      Array.from({ length: 60 }, (_, i) => {
        const at = now - (60 - i) * DAY + 12 * 3600;
        return { host: HOST, slot: at, confirm: false, at, ok: true, status: 200, cause: "", dnsMs: 1, connectMs: 1, tlsMs: 1, ttfbMs: 150, totalMs: 200 + (i % 7), lateMs: 0, node: "bench", held: false };
      }),
    );
    const times: number[] = [];
    let perCall = 0;
    let effects = 0;
    for (let i = 0; i < 7; i++) {
      const before = queries;
      const started = performance.now();
      const res = await gw.call("GET", `/api/v1/effects/${HOST}?limit=200&offset=${i}`);
      times.push(performance.now() - started);
      perCall = queries - before;
      effects = res.json<{ effects: unknown[] }>().effects.length;
    }
    times.sort((a, b) => a - b);
    log(`bench:effects (pglite): ${CHECKS.length} done tasks, 60 daily checks, 60 probes`);
    log(`  GET /effects?limit=200: ${effects} effects, ${perCall} queries per call, median ${times[3]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)})`);
  } finally {
    await gw.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:effects could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
