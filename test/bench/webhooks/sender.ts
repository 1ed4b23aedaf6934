/**
 * One side of bench:webhooks, in a process of its own so that its CPU and memory are its own.
 *
 *   MODE=svc   Svc's embedded mode (`svc serve`'s store: PGlite under a temporary data dir, the
 *              scheduler over gRPC on loopback, the in-process bus, a crawler worker), with
 *              BENCH_HOOKS accounts each subscribed once to the receiver. Events are appended to
 *              the event log as the analysis path does; the webhooks planner (batches per webhook
 *              through the outbox), the bus, the crawler's webhook batches on its webhook slots and
 *              the results' writer deliver them.
 *   MODE=bare  A bare undici loop: the same bodies, signed the same way, posted by BENCH_HOOKS
 *              loops (one per webhook, as Svc sends one webhook's deliveries one at a time).
 *
 * Protocol on stdin/stdout, one JSON line each: it prints {"ready":true}; for each line
 * `{"phase":"burst"|"paced","n":N,"rate":R}` it produces N events (burst: as fast as it can,
 * BENCH_APPEND_BATCH per transaction; paced: one at a time at R a second) and, when the parent
 * writes `{"done":true}` (the receiver has them all), prints its figures for the phase: CPU used,
 * peak RSS, and when each event was committed (epoch ms, index n).
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Agent, request } from "undici";
import { composeEmbeddedWork, openStore } from "../../../bin/compose.ts";
import { createLogger, createMetricsRegistry, Lifecycle, loadConfig, systemClock, unixSeconds } from "../../../runtime/index.ts";
import type { NewEvent } from "../../../storage/index.ts";

const MODE = process.env.MODE ?? "svc";
const HOOKS = Number(process.env.BENCH_HOOKS ?? "20");
const ORIGIN = process.env.BENCH_ORIGIN!;
const CA_FILE = process.env.BENCH_CA_FILE!;
const APPEND_BATCH = Number(process.env.BENCH_APPEND_BATCH ?? "100");
const secretOf = (i: number) => `whsec_bench_${i}`;
const nowMs = () => performance.timeOrigin + performance.now();

interface Phase {
  readonly phase: "burst" | "paced";
  readonly n: number;
  readonly rate?: number;
}

/** A producer of events: the svc side appends them to the log, the bare side posts them itself. */
interface Side {
  /** Produces events [from, to) of a phase; committed[i] is set when event i is committed (svc) or queued (bare). */
  produce(phase: Phase, committed: number[]): Promise<void>;
  close(): Promise<void>;
}

/** The event i of a phase: for hook i % HOOKS, a rank change (what analyses append). */
function eventOf(phase: string, i: number) {
  const hook = i % HOOKS;
  return { hook, host: `site${hook}.example.com`, text: `Rank of site${hook}.example.com fell from 70 to ${60 + (i % 10)}`, payload: { phase, n: i, from: 70, to: 60 + (i % 10) } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls produceOne(i) for i in [0, n) at `rate` a second, on schedule (not after each other's end). */
async function paced(n: number, rate: number, produceOne: (i: number) => Promise<void>): Promise<void> {
  const start = nowMs();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const at = start + (i * 1000) / rate;
    const wait = at - nowMs();
    if (wait > 0) await sleep(wait);
    pending.push(produceOne(i));
  }
  await Promise.all(pending);
}

async function svcSide(): Promise<Side> {
  const dir = await mkdtemp(join(tmpdir(), "svc-bench-webhooks-"));
  const config = loadConfig({
    SVC_DATA_DIR: dir,
    SVC_LOG_LEVEL: "silent",
    SVC_ALLOW_PRIVATE_TARGETS: "1",
    SVC_EXTRA_CA_FILE: CA_FILE,
    SVC_PLAN_EVERY_S: "0",
    SVC_UPTIME_PLAN_EVERY_MS: "0",
    SVC_BROWSER: "off",
    SVC_PARSE_WARMUP_PAGES: "1",
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("SVC_"))),
  }, "serve");
  const life = new Lifecycle();
  const { store } = await openStore(config, systemClock, life);
  await composeEmbeddedWork(config, store, life, createLogger("silent"), systemClock, createMetricsRegistry("serve"));
  const now = unixSeconds(systemClock);
  const plan = await store.accounts.upsertPlan("bench-webhooks", { sites: 1, checks_per_day: 1, rechecks_per_day: 1, webhooks: 1, api_keys: 1 });
  const accounts: number[] = [];
  for (let i = 0; i < HOOKS; i++) {
    const account = await store.accounts.createAccount(`hook${i}@bench.example.com`, plan, false, now);
    accounts.push(account.id);
    const hook = await store.webhooks.createWithinPlan({ accountId: account.id, name: `bench ${i}`, url: `${ORIGIN}/hook/${i}`, events: ["rank"], hosts: [], secret: secretOf(i) }, now);
    if (hook === "limit") throw new Error("plan limit");
  }
  const newEvent = (phase: string, i: number): NewEvent => {
    const e = eventOf(phase, i);
    return { eventKey: `bench:${phase}:${i}`, accountId: accounts[e.hook]!, host: e.host, type: "rank", kind: "rank.changed", level: "bad", text: e.text, payload: e.payload };
  };
  return {
    async produce(phase, committed) {
      if (phase.phase === "paced") {
        await paced(phase.n, phase.rate ?? 100, async (i) => {
          await store.events.add([newEvent(phase.phase, i)], unixSeconds(systemClock));
          committed[i] = nowMs();
        });
        return;
      }
      for (let from = 0; from < phase.n; from += APPEND_BATCH) {
        const to = Math.min(phase.n, from + APPEND_BATCH);
        const batch = Array.from({ length: to - from }, (_, k) => newEvent(phase.phase, from + k));
        await store.events.add(batch, unixSeconds(systemClock));
        const at = nowMs();
        for (let i = from; i < to; i++) committed[i] = at;
      }
    },
    async close() {
      await life.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function bareSide(): Promise<Side> {
  const agent = new Agent({ connect: { ca: readFileSync(CA_FILE, "utf8") } });
  let delivery = 0;
  const send = async (phase: string, i: number) => {
    const e = eventOf(phase, i);
    const t = Math.floor(Date.now() / 1000);
    const id = ++delivery;
    const notification = { type: "rank", host: e.host, events: [{ id, type: "rank", kind: "rank.changed", level: "bad", text: e.text, at: t, data: e.payload }] };
    const body = Buffer.from(JSON.stringify({ ...notification, event: "rank", delivery: id, sent_at: t }));
    const secret = secretOf(e.hook);
    const v1 = createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
    const legacy = createHmac("sha256", secret).update(body).digest("hex");
    const res = await request(`${ORIGIN}/hook/${e.hook}`, {
      method: "POST",
      dispatcher: agent,
      body,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-svc-event": "rank",
        "x-svc-delivery": String(id),
        "x-svc-timestamp": String(t),
        "x-svc-signature-v2": `t=${t},v1=${v1}`,
        "x-svc-signature": `sha256=${legacy}`,
      },
    });
    await res.body.dump();
  };
  return {
    async produce(phase, committed) {
      if (phase.phase === "paced") {
        // One loop per webhook, each sending its webhook's events in order as they come.
        const queues = Array.from({ length: HOOKS }, () => Promise.resolve());
        await paced(phase.n, phase.rate ?? 100, async (i) => {
          committed[i] = nowMs();
          const hook = i % HOOKS;
          const next = queues[hook]!.then(() => send(phase.phase, i));
          queues[hook] = next;
          await next;
        });
        return;
      }
      const at = nowMs();
      for (let i = 0; i < phase.n; i++) committed[i] = at;
      await Promise.all(
        Array.from({ length: HOOKS }, async (_, hook) => {
          for (let i = hook; i < phase.n; i += HOOKS) await send(phase.phase, i);
        }),
      );
    },
    async close() {
      await agent.close();
    },
  };
}

const side = MODE === "bare" ? await bareSide() : await svcSide();
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const next = async () => JSON.parse(((await lines.next()).value as string | undefined) ?? "{}") as Phase & { done?: boolean; quit?: boolean };
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
for (;;) {
  const phase = await next();
  if (!phase.phase) break;
  const committed: number[] = new Array<number>(phase.n);
  const cpu0 = process.cpuUsage();
  const started = nowMs();
  const producing = side.produce(phase, committed);
  await next(); // {"done":true}: the receiver has every event of the phase
  await producing;
  const cpu = process.cpuUsage(cpu0);
  const figures = { started, cpu_s: (cpu.user + cpu.system) / 1e6, peak_rss_mb: process.resourceUsage().maxRSS / 1024, committed };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
await side.close();
process.exit(0);
