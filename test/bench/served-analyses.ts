/**
 * Analyses of one site through a real `svc serve` process (node bin/svc.js serve), one after
 * another, for benches that measure what an analysis costs as deployed: the CPU of the process
 * and its whole tree (Chromium's processes included, read from /proc: proc.ts treeCpuS) from ready
 * to the last analysis done, and how long each held its job slot (from the job first seen
 * running to done, polled every 100 ms), and whether it waited to confirm a severe failure.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { http, spawnSvc, svcEnvFor, tempDataDir, waitReady } from "../harness/svc-process.ts";
import { processTree, treeCpuS } from "./proc.ts";

const KEY = "svc_BxwROGl3PNRZhnpF5G09iQsn7P0rPgfM7G0spWb4";
const POLL_MS = 100;

export interface ServedAnalyses {
  /** CPU seconds of the process tree per analysis (ready → last done, divided by the count). */
  readonly cpuSPerAnalysis: number;
  /** Seconds each analysis held its job slot. */
  readonly slotS: readonly number[];
  /** Whether each waited for the second look (SVC_CONFIRM_DELAY_MS). */
  readonly confirmed: readonly boolean[];
  /** Whether a Chromium process ran in the tree during the analyses. */
  readonly browserRan: boolean;
  /** The machine's 1-minute load average at the end (slot times stretch on a loaded machine; CPU times much less). */
  readonly loadAvg: number;
}

interface JobView {
  readonly state: string;
  readonly items: readonly { step: string | null }[];
}

/** Runs `count` fresh analyses of host on a new `svc serve` with these settings (SVC_*), then stops it. */
export async function servedAnalyses(host: string, count: number, settings: Record<string, string>, jobTimeoutMs = 300_000): Promise<ServedAnalyses> {
  const dir = await tempDataDir();
  const { env, port, adminPort } = await svcEnvFor(dir.dir, {
    SVC_BOOTSTRAP_KEY: KEY,
    SVC_ALLOW_PRIVATE_TARGETS: "1",
    SVC_RATE_PER_HOUR: "10000000",
    SVC_PLAN_CHECKS_PER_DAY: "1000000",
    SVC_PLAN_EVERY_S: "0",
    ...settings,
  });
  const serve = spawnSvc(["serve"], env);
  try {
    await waitReady(serve, adminPort, 180_000);
    const api = (path: string, method = "GET", body?: unknown) => http(`http://127.0.0.1:${port}/api/v1${path}`, { method, key: KEY, body, timeoutMs: 30_000 });
    const cpuAtReady = treeCpuS(serve.pid);
    const slotS: number[] = [];
    const confirmed: boolean[] = [];
    let browserRan = false;
    for (let i = 0; i < count; i++) {
      const started = await api("/analyze", "POST", { host, fresh: true });
      if (started.status !== 202 && started.status !== 200) throw new Error(`POST /analyze: ${started.status} ${started.text}`);
      const id = (started.json as { job: { id: number } }).job.id;
      const deadline = Date.now() + jobTimeoutMs;
      let running: number | null = null;
      let confirming = false;
      for (let poll = 0; ; poll++) {
        if (poll % 10 === 0) browserRan ||= processTree(serve.pid).some((p) => /chrom/i.test(p.name));
        // A poll that times out on a loaded machine is tried again; the job's deadline bounds it all.
        const answer = await api(`/jobs/${id}`).catch(() => null);
        if (answer?.status !== 200) {
          if (Date.now() > deadline) throw new Error(`analysis ${id} not done within ${jobTimeoutMs} ms`);
          await sleep(POLL_MS);
          continue;
        }
        const job = (answer.json as { job: JobView }).job;
        if (job.state === "running" && running === null) running = performance.now();
        if (job.items.some((it) => it.step?.startsWith("confirm:"))) confirming = true;
        if (job.state === "done" || job.state === "error") {
          if (job.state === "error") throw new Error(`analysis ${id} ended in error`);
          slotS.push((performance.now() - (running ?? performance.now())) / 1000);
          break;
        }
        if (Date.now() > deadline) throw new Error(`analysis ${id} not done within ${jobTimeoutMs} ms`);
        await sleep(POLL_MS);
      }
      confirmed.push(confirming);
    }
    const cpuS = treeCpuS(serve.pid) - cpuAtReady;
    return { cpuSPerAnalysis: cpuS / count, slotS, confirmed, browserRan, loadAvg: loadavg()[0] ?? 0 };
  } finally {
    serve.child.kill("SIGTERM");
    await serve.waitExit(30_000).catch(() => serve.child.kill("SIGKILL"));
    await dir.remove();
  }
}

