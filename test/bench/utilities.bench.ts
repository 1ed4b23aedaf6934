/**
 * bench:utilities: every offline utility's input_example, run N times directly (runUtility in this
 * thread) and through the API (POST /utilities/{id} by app.inject: authentication, limits,
 * validation, the worker-thread pool and the answer), with p50/p99 of each and the API's overhead
 * ratio (API p50 / direct p50). The target: at most 1.2× for utilities whose direct run
 * takes over 10 ms; below that the fixed cost of a request and a thread hop dominates.
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:utilities                 30 runs of each (BENCH_RUNS overrides)
 *   npm run bench:utilities -- --smoke      3 runs of each (also when CI=true)
 *
 * The img group (compress, WebP/AVIF, resize of a 5 MB photo against sharp) is not on this
 * branch yet: its rows appear when those utilities are in the table.
 */
import { performance } from "node:perf_hooks";
import { availableParallelism } from "node:os";
import { runUtility, seededPorts, UTILITIES } from "../../utilities/index.ts";
import { startTestGateway } from "../harness/gateway.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 30);

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] as number;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

async function main(): Promise<void> {
  const gw = await startTestGateway({ validateResponses: false, env: { SVC_RATE_PER_HOUR: "10000000" } });
  const offline = UTILITIES.filter((u) => !u.net);
  const ports = () => seededPorts(Date.now(), new Uint8Array([1]));
  const api = async (id: string, input: unknown) => {
    const res = await gw.call("POST", `/api/v1/utilities/${id}`, { body: { input } });
    if (res.statusCode !== 200) throw new Error(`${id}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  };
  // Warm-up: every utility's modules and the pool's threads load before anything is timed (a
  // utility with a thread of its own, spell_check, answers 409 not_ready until its dictionaries are built).
  for (const u of offline) {
    await runUtility(u.id, u.example, ports());
    const deadline = Date.now() + 180_000;
    for (;;) {
      const res = await gw.call("POST", `/api/v1/utilities/${u.id}`, { body: { input: u.example } });
      if (res.statusCode === 200) break;
      if (res.statusCode !== 409 || Date.now() > deadline) throw new Error(`${u.id}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  console.log(`bench:utilities: ${offline.length} offline utilities, ${RUNS} runs each${SMOKE ? " (smoke)" : ""}, ${availableParallelism()} cores, pool of ${gw.config.utilities.threads} thread(s)`);
  console.log(`${"utility".padEnd(24)} ${"direct p50".padStart(10)} ${"p99".padStart(8)} ${"API p50".padStart(10)} ${"p99".padStart(8)} ${"ratio".padStart(7)}`);
  const slow: { id: string; ratio: number }[] = [];
  for (const u of offline) {
    const direct: number[] = [];
    const viaApi: number[] = [];
    // Interleaved, so that drift of the machine hits both alike.
    for (let n = 0; n < RUNS; n++) {
      let t = performance.now();
      await runUtility(u.id, u.example, ports());
      direct.push(performance.now() - t);
      t = performance.now();
      await api(u.id, u.example);
      viaApi.push(performance.now() - t);
    }
    direct.sort((a, b) => a - b);
    viaApi.sort((a, b) => a - b);
    const d50 = quantile(direct, 0.5);
    const a50 = quantile(viaApi, 0.5);
    const ratio = a50 / d50;
    if (d50 > 10) slow.push({ id: u.id, ratio });
    console.log(`${u.id.padEnd(24)} ${fmt(d50).padStart(10)} ${fmt(quantile(direct, 0.99)).padStart(8)} ${fmt(a50).padStart(10)} ${fmt(quantile(viaApi, 0.99)).padStart(8)} ${ratio.toFixed(2).padStart(6)}×`);
  }
  console.log("");
  if (slow.length === 0) console.log("no utility takes over 10 ms directly: the 1.2× target has nothing to apply to");
  else for (const s of slow) console.log(`over 10 ms: ${s.id} API/direct ${s.ratio.toFixed(2)}× (target ≤ 1.2×) ${s.ratio <= 1.2 ? "met" : "missed"}`);
  await gw.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
