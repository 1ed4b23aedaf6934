/**
 * What tracing costs `svc serve` at rest: RSS and CPU of an idle embedded service without
 * SVC_OTLP_ENDPOINT (the OpenTelemetry SDK never loaded) and with it (the SDK loaded, spans sent to
 * a loopback receiver), one after the other on fresh data directories. Each process settles for
 * BENCH_SETTLE_S (10) after /readyz, then CPU (user + system, all threads, from /proc) is counted
 * over BENCH_IDLE_S (30) and RSS read at the end. Then each answers BENCH_REQUESTS (200) GET /sites
 * with a traceparent, and the CPU of those is printed too (spans are made and, when on, sent).
 *
 *     node --import tsx test/bench/tracing-cost.ts
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { startOtlpReceiver } from "../harness/otlp-receiver.ts";
import { spawnSvc, svcEnvFor, tempDataDir, waitReady } from "../harness/svc-process.ts";

const KEY = "svc_BxwROGl3PNRZhnpF5G09iQsn7P0rPgfM7G0spWb4";
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 10);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const TICK_MS = 10; // USER_HZ of /proc/<pid>/stat on Linux

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

async function run(endpoint: string | null): Promise<{ rss: number; idleCpuPerS: number; cpuPerRequest: number; spans: number }> {
  const dir = await tempDataDir();
  const receiver = await startOtlpReceiver();
  const { env, port, adminPort } = await svcEnvFor(dir.dir, { SVC_BOOTSTRAP_KEY: KEY, SVC_RATE_PER_HOUR: "1000000", ...(endpoint ? { SVC_OTLP_ENDPOINT: receiver.endpoint } : {}) });
  const serve = spawnSvc(["serve"], env);
  try {
    await waitReady(serve, adminPort, 180_000);
    const pid = serve.pid;
    await sleep(SETTLE_S * 1000);
    const c0 = cpuMs(pid);
    await sleep(IDLE_S * 1000);
    const idle = cpuMs(pid) - c0;
    const rss = rssMb(pid);
    const c1 = cpuMs(pid);
    for (let i = 0; i < REQUESTS; i++) {
      const trace = `${(i + 1).toString(16).padStart(32, "0")}`;
      await fetch(`http://127.0.0.1:${port}/api/v1/sites`, { headers: { "x-api-key": KEY, traceparent: `00-${trace}-00f067aa0ba902b7-01` } }).then((r) => r.arrayBuffer());
    }
    const busy = cpuMs(pid) - c1;
    await sleep(3000);
    return { rss, idleCpuPerS: idle / 1000 / IDLE_S, cpuPerRequest: busy / REQUESTS, spans: receiver.spans.length };
  } finally {
    serve.child.kill("SIGTERM");
    await serve.waitExit(30_000).catch(() => undefined);
    await receiver.close();
    await dir.remove();
  }
}

const off = await run(null);
const on = await run("receiver");
const f = (n: number, d = 1) => n.toFixed(d);
console.log("| SVC_OTLP_ENDPOINT | RSS idle | CPU idle (CPU-s per s) | CPU per GET /sites | spans received |");
console.log("|---|---:|---:|---:|---:|");
console.log(`| unset | ${f(off.rss, 0)} MB | ${f(off.idleCpuPerS, 4)} | ${f(off.cpuPerRequest, 2)} ms | ${off.spans} |`);
console.log(`| set | ${f(on.rss, 0)} MB | ${f(on.idleCpuPerS, 4)} | ${f(on.cpuPerRequest, 2)} ms | ${on.spans} |`);
