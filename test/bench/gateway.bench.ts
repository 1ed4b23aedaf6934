/**
 * bench:gateway: what the gateway's pipeline costs, measured against two baselines in one run with
 * one load tool (autocannon), rounds interleaved so that drift of the machine hits every target alike.
 *
 *   svc        GET /api/v1/sites through the real gateway on a Postgres server (auth and hourly
 *              counter in Postgres, validation, ETag, usage meter, metrics).
 *   one-query  a bare Fastify route running one indexed SELECT on the same pool.
 *   bare       a bare Fastify route answering a constant small JSON object.
 *   svc-write  POST /api/v1/sites (a new host, its own Idempotency-Key) then DELETE of that site,
 *              through the real gateway: the keyed write with every mechanism.
 *   two-stmts  a bare Fastify route pair doing the same two statements (INSERT, DELETE) on the pool.
 *
 * The writes go to an account of their own (its own key and hourly window), so the rows they add
 * and remove never lie in the range the read targets scan. A run stopped by its timer leaves up to
 * one site per connection added and not yet deleted; those are deleted after each write run and the
 * touched tables vacuumed, so every round's reads and writes start from the same database.
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:gateway                 full: 3 rounds × 5 s per target, 16 connections
 *   npm run bench:gateway -- --smoke      smoke: 1 round × 1 s, 4 connections (also when CI=true)
 *
 * Overrides (environment): BENCH_ROUNDS, BENCH_DURATION (seconds), BENCH_CONNECTIONS,
 * BENCH_WORKERS (autocannon worker threads in the load client's process; 0, the default, runs it on
 * that process's main thread).
 * SVC_* names are left alone: loadConfig would only warn of a misspelt one.
 */
// autocannon (no type declarations installed) runs in gateway-load-client.cjs; the part of its
// options and result used here is typed below.
import Fastify, { type FastifyInstance } from "fastify";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startPostgres, type PostgresServer } from "../harness/postgres.ts";
import type { Db } from "../../storage/index.ts";
import { writeBenchOutput } from "./bench-output.ts";

interface Histogram {
  readonly average: number;
  readonly total: number;
  readonly p50: number;
  readonly p99: number;
}

interface AutocannonResult {
  readonly requests: Histogram;
  readonly latency: Histogram;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodeStats?: Record<string, { count: number }>;
}

interface AutocannonRequest {
  readonly method: string;
  readonly path: string;
  /** A module path: the load client requires it. */
  readonly setupRequest?: string;
}

interface AutocannonOptions {
  readonly url: string;
  readonly connections: number;
  readonly duration: number;
  readonly workers?: number;
  readonly headers?: Record<string, string>;
  readonly requests?: readonly AutocannonRequest[];
}


// ---------------------------------------------------------------------------------------------
// Settings

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

const ROUNDS = envInt("BENCH_ROUNDS", SMOKE ? 1 : 3, 1);
const DURATION_S = envInt("BENCH_DURATION", SMOKE ? 1 : 5, 1);
const CONNECTIONS = envInt("BENCH_CONNECTIONS", SMOKE ? 4 : 16, 1);
/**
 * The load client runs in a process of its own (so that this process's CPU is the servers'); this
 * many autocannon worker threads in it, 0 for its main thread.
 */
const WORKERS = envInt("BENCH_WORKERS", 0, 0);
const WARMUP_S = 1;
/** After a run: how long to wait for the servers' last answers (see settle). */
const SETTLE_MS = 200;
const SETTLE_MAX_MS = 2000;
const SITES = 20;
/**
 * The default plan's site limit for the run (50 out of the box). The write account holds at most one
 * site per connection at a time; the limit is still checked on every POST.
 */
const PLAN_SITES = 1000;
const POOL_SIZE = 8;
/** Issue 36's target for svc/one-query. */
const TARGET = 0.8;

// ---------------------------------------------------------------------------------------------
// Targets

interface Target {
  readonly name: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  /** A write cycle (POST a new site, DELETE it) instead of a GET of url. */
  readonly requests?: readonly AutocannonRequest[];
}

/** The written hosts (gateway-write-request.cjs): w<pid>-<thread>-<n>.example.com. */
const WRITTEN_HOSTS = "w%.example.com";

/** The write targets' cycle: POST base (a new host), then DELETE base/<that host>. */
const WRITE_SETUP = fileURLToPath(new URL("./gateway-write-request.cjs", import.meta.url));

function writeCycle(base: string): AutocannonRequest[] {
  const setupRequest = WRITE_SETUP;
  return [
    { method: "POST", path: base, setupRequest },
    { method: "DELETE", path: base, setupRequest },
  ];
}

interface Sample {
  readonly rps: number;
  /** Answers received. */
  readonly total: number;
  /** CPU of the bench's process (the servers; the load client runs apart) per answer, µs. */
  readonly cpuUs: number;
  /** CPU of the database's backends per answer, µs (10 ms resolution over the run). */
  readonly pgUs: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly codes: string;
}

function urlOf(app: FastifyInstance, path: string): string {
  const addr = app.server.address();
  if (addr === null || typeof addr === "string") throw new Error("server is not listening on TCP");
  return `http://127.0.0.1:${addr.port}${path}`;
}

const LOAD_CLIENT = fileURLToPath(new URL("./gateway-load-client.cjs", import.meta.url));

/** Runs autocannon in a child process (gateway-load-client.cjs) and returns its result. */
function runClient(opts: AutocannonOptions): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOAD_CLIENT, JSON.stringify(opts)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`the load client exited with ${code}`));
      else resolve(JSON.parse(out) as AutocannonResult);
    });
  });
}

/** CPU time (ms) of the database's server processes now: the pool's backends, read from /proc. */
async function postgresCpuMs(db: Db): Promise<Map<number, number>> {
  const rows = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 a second).
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      ticks.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      // a backend that ended between the two reads
    }
  }
  return ticks;
}

async function load(target: Target, durationS: number, db: Db): Promise<Sample> {
  const pgBefore = await postgresCpuMs(db);
  const cpuBefore = process.cpuUsage();
  const result = await runClient({
    url: target.url,
    connections: CONNECTIONS,
    duration: durationS,
    ...(WORKERS > 0 ? { workers: WORKERS } : {}),
    ...(target.headers ? { headers: target.headers } : {}),
    ...(target.requests ? { requests: target.requests } : {}),
  });
  const cpu = process.cpuUsage(cpuBefore);
  const pgAfter = await postgresCpuMs(db);
  // Backends present at both reads only: one started or ended between them has no difference to give.
  let pgMs = 0;
  for (const [pid, ms] of pgAfter) pgMs += ms - (pgBefore.get(pid) ?? ms);
  const answered = Math.max(1, result.requests.total);
  const codes = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, s]) => `${code}×${s.count}`)
    .join(" ");
  return {
    rps: result.requests.average,
    total: result.requests.total,
    cpuUs: (cpu.user + cpu.system) / answered,
    pgUs: (pgMs * 1000) / answered,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    codes,
  };
}

/**
 * Waits until the servers hold no connection of the load client's and then a little more: the
 * client's timer stops it with a request in flight on each connection, which the server still
 * answers (and a write still commits) after autocannon has returned. Without the wait, that tail
 * runs inside the next target's run and the written rows counted below miss the late ones.
 */
async function settle(servers: readonly FastifyInstance[]): Promise<void> {
  const open = (app: FastifyInstance) => new Promise<number>((resolve) => app.server.getConnections((err, n) => resolve(err ? 0 : n)));
  for (let waited = 0; waited < SETTLE_MAX_MS; waited += 20) {
    const counts = await Promise.all(servers.map(open));
    if (counts.every((n) => n === 0)) break;
    await sleep(20);
  }
  await sleep(SETTLE_MS);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** autocannon's latency histogram has 1 ms resolution: 0 means under a millisecond. */
const ms = (v: number) => (v < 1 ? "<1" : v.toFixed(0));
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

function row(cells: readonly string[]): string {
  const [round = "", target = "", ...rest] = cells;
  return `${pad(round, 7)}${pad(target, 11)}${rest.map((c) => lpad(c, 12)).join("")}`;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  let server: PostgresServer | null = null;
  let gw: TestGateway | null = null;
  const bare: FastifyInstance[] = [];
  try {
    process.stdout.write("bench:gateway: starting a private PostgreSQL\n");
    server = await startPostgres();
    const postgresUrl = await server.createDatabase("bench");
    // The production pipeline: no response-schema checking (the tests' observer).
    gw = await startTestGateway({ postgresUrl, poolSize: POOL_SIZE, validateResponses: false, env: { SVC_RATE_PER_HOUR: "10000000" } });
    const gateway = gw;

    for (let i = 0; i < SITES; i++) {
      const res = await gateway.call("POST", "/api/v1/sites", { body: { host: `site${i}.example.com` } });
      if (res.statusCode !== 201) throw new Error(`adding site${i}.example.com answered ${res.statusCode}: ${res.body}`);
    }
    // The operator's way to give accounts room (`svc admin plan set default --sites N`).
    await gateway.admin.setPlan("default", { sites: PLAN_SITES });
    const writer = await gateway.newAccount("writer@example.com", ["read", "write"]);
    await gateway.app.listen({ host: "127.0.0.1", port: 0 });

    const [owner] = await gateway.db.query<{ id: number }>("SELECT id FROM accounts WHERE email = 'owner@example.com'");
    const accountId = owner?.id ?? 1;
    const db = gateway.db;

    /** The read targets' state: the owner's sites, the sites table's dead rows. */
    const readState = async (): Promise<string> => {
      const [own] = await db.query<{ n: number }>("SELECT count(*) AS n FROM sites WHERE account_id = $1", [accountId]);
      const [dead] = await db.query<{ n: number | null }>("SELECT n_dead_tup AS n FROM pg_stat_user_tables WHERE relname = 'sites'");
      if ((own?.n ?? 0) !== SITES) process.stdout.write(`WARNING: the owner has ${own?.n} sites, not ${SITES}: the read targets answer another page\n`);
      return `owner's sites ${own?.n}, sites' dead rows ${dead?.n ?? "?"}`;
    };
    /**
     * After a write run: the sites its timer left added and not deleted (at most one per connection;
     * more means DELETEs that did not delete), deleted here; then the tables the writes touched are
     * vacuumed. A server in steady state has autovacuum keep pace with its writes; in the bench, the
     * burst of a run (thousands of dead rows in seconds) would otherwise be vacuumed at a moment of
     * autovacuum's choosing, inside whichever run comes next.
     */
    const afterWrites = async (name: string): Promise<number> => {
      const left = await db.query("DELETE FROM sites WHERE account_id = $1 AND host LIKE $2 RETURNING 1", [writer.accountId, WRITTEN_HOSTS]);
      if (left.length > CONNECTIONS) process.stdout.write(`WARNING: ${name} left ${left.length} written sites, more than its ${CONNECTIONS} connections: some DELETEs did not delete\n`);
      await db.exec("VACUUM (ANALYZE) sites, idempotency_keys, rate_counters");
      return left.length;
    };

    const oneQuery = Fastify({ logger: false });
    oneQuery.get("/sites", async () =>
      gateway.db.query("SELECT host, added, interval_h FROM sites WHERE account_id = $1 ORDER BY host LIMIT 50", [accountId]),
    );
    bare.push(oneQuery);
    await oneQuery.listen({ host: "127.0.0.1", port: 0 });

    // The write cycle's two statements, bare: what svc-write's POST and DELETE store, and nothing else.
    const twoStatements = Fastify({ logger: false });
    twoStatements.post<{ Body: { host: string } }>("/sites", async (req, reply) => {
      await db.query("INSERT INTO sites (account_id, host, added, interval_h) VALUES ($1, $2, $3, 24)", [writer.accountId, req.body.host, Date.now()]);
      return reply.code(201).send({ host: req.body.host });
    });
    twoStatements.delete<{ Params: { host: string } }>("/sites/:host", async (req, reply) => {
      await db.query("DELETE FROM sites WHERE account_id = $1 AND host = $2", [writer.accountId, req.params.host]);
      return reply.code(204).send();
    });
    bare.push(twoStatements);
    await twoStatements.listen({ host: "127.0.0.1", port: 0 });

    const constant = Fastify({ logger: false });
    constant.get("/ping", async () => ({ ok: true, service: "svc" }));
    bare.push(constant);
    await constant.listen({ host: "127.0.0.1", port: 0 });

    const targets: Target[] = [
      { name: "svc", url: urlOf(gateway.app, "/api/v1/sites"), headers: { "x-api-key": gateway.ownerKey } },
      { name: "one-query", url: urlOf(oneQuery, "/sites") },
      { name: "bare", url: urlOf(constant, "/ping") },
      { name: "svc-write", url: urlOf(gateway.app, "/api/v1/sites"), headers: { "x-api-key": writer.key }, requests: writeCycle("/api/v1/sites") },
      { name: "two-stmts", url: urlOf(twoStatements, "/sites"), requests: writeCycle("/sites") },
    ];

    // One request each before any load: the gateway must answer a full page, not an error.
    for (const t of targets.filter((x) => !x.requests)) {
      const res = await fetch(t.url, { headers: t.headers ?? {} });
      const body = (await res.json());
      const items = Array.isArray(body) ? body.length : Array.isArray((body as { sites?: unknown[] }).sites) ? (body as { sites: unknown[] }).sites.length : null;
      const etag = res.headers.get("etag");
      process.stdout.write(`check ${pad(t.name, 10)} ${res.status}${items !== null ? `, ${items} items` : ""}${etag ? ", ETag" : ""}\n`);
      if (t.name === "svc" && res.status !== 200) process.stdout.write(`WARNING: svc answered ${res.status} before the load: ${JSON.stringify(body)}\n`);
      if (t.name === "svc") {
        const missing = ["etag", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].filter((h) => !res.headers.has(h));
        if (missing.length > 0) throw new Error(`svc answered without ${missing.join(", ")}: the mechanisms the bench measures are not all on`);
      }
    }

    const cores = typeof availableParallelism === "function" ? availableParallelism() : cpus().length;
    process.stdout.write(
      `\nmode: ${SMOKE ? "smoke" : "full"}; load: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} round(s) interleaved ` +
        `(${targets.map((t) => t.name).join(", ")}), ${WARMUP_S} s untimed warm-up per target, ` +
        `client in a process of its own${WORKERS > 0 ? ` with ${WORKERS} worker thread(s)` : ""}; gateway pool ${POOL_SIZE}, ${SITES} sites\n` +
        `machine: ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}); the load client (its own process), the servers (this process) ` +
        `and PostgreSQL share them, so the figures are relative, not capacity; latency resolution 1 ms\n\n`,
    );

    const servers = [gateway.app, ...bare];
    let svcAnswered = 0;
    for (const t of targets) {
      const warm = await load(t, WARMUP_S, db);
      if (t.name === "svc") svcAnswered += warm.total;
      await settle(servers);
      if (t.requests) await afterWrites(t.name);
    }

    const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
    let leftTotal = 0;
    process.stdout.write(row(["round", "target", "requests/s", "p50 ms", "p99 ms", "non-2xx", "errors", "node µs/req", "pg µs/req"]) + "\n");
    for (let r = 1; r <= ROUNDS; r++) {
      process.stdout.write(`round ${r} starts: ${await readState()}\n`);
      for (const t of targets) {
        const s = await load(t, DURATION_S, db);
        samples.get(t.name)?.push(s);
        if (t.name === "svc") svcAnswered += s.total;
        await settle(servers);
        const left = t.requests ? await afterWrites(t.name) : null;
        if (left !== null) leftTotal += left;
        process.stdout.write(
          row([String(r), t.name, s.rps.toFixed(0), ms(s.p50), ms(s.p99), String(s.non2xx), String(s.errors + s.timeouts), s.cpuUs.toFixed(0), s.pgUs.toFixed(0)]) +
            (s.codes ? `   (${s.codes})` : "") +
            (left !== null ? `   (${left} left by the timer, deleted)` : "") +
            "\n",
        );
        if (t.name.startsWith("svc") && s.non2xx > 0) {
          process.stdout.write(`WARNING: svc answered ${s.non2xx} non-2xx responses in round ${r} (${s.codes || "codes unknown"}): its figures do not measure the happy path\n`);
        }
      }
    }

    const med = new Map<string, { rps: number; p50: number; p99: number; non2xx: number; cpuUs: number; pgUs: number }>();
    process.stdout.write(`\nmedians over ${ROUNDS} round(s)\n`);
    process.stdout.write(row(["", "target", "requests/s", "p50 ms", "p99 ms", "non-2xx", "node µs/req", "pg µs/req"]) + "\n");
    for (const t of targets) {
      const list = samples.get(t.name) ?? [];
      const m = {
        rps: median(list.map((s) => s.rps)),
        p50: median(list.map((s) => s.p50)),
        p99: median(list.map((s) => s.p99)),
        non2xx: list.reduce((n, s) => n + s.non2xx, 0),
        cpuUs: median(list.map((s) => s.cpuUs)),
        pgUs: median(list.map((s) => s.pgUs)),
      };
      med.set(t.name, m);
      process.stdout.write(row(["", t.name, m.rps.toFixed(0), ms(m.p50), ms(m.p99), String(m.non2xx), m.cpuUs.toFixed(0), m.pgUs.toFixed(0)]) + "\n");
    }

    const svc = med.get("svc")?.rps ?? 0;
    const one = med.get("one-query")?.rps ?? 0;
    const bareRps = med.get("bare")?.rps ?? 0;
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "n/a");
    const svcRounds = samples.get("svc") ?? [];
    const oneRounds = samples.get("one-query") ?? [];
    const ratioRounds = svcRounds.map((s, i) => (oneRounds[i]?.rps ? s.rps / (oneRounds[i]?.rps ?? 1) : 0));
    process.stdout.write(`\nratio svc/one-query requests/s: ${ratio(svc, one)} (target >= ${TARGET}); per round: ${ratioRounds.map((r) => r.toFixed(2)).join(" ")}\n`);
    process.stdout.write(`ratio svc/bare requests/s: ${ratio(svc, bareRps)}\n`);
    const write = med.get("svc-write")?.rps ?? 0;
    const twoStmts = med.get("two-stmts")?.rps ?? 0;
    const writeRounds = (samples.get("svc-write") ?? []).map((s, i) => s.rps / ((samples.get("two-stmts") ?? [])[i]?.rps || 1));
    process.stdout.write(`ratio svc-write/two-stmts requests/s (POST with Idempotency-Key + DELETE): ${ratio(write, twoStmts)}; per round: ${writeRounds.map((r) => r.toFixed(2)).join(" ")}\n`);
    // CPU per answer does not depend on how much of the machine other work takes, as requests/s does.
    const cpuRatio = (a: string, b: string) => {
      const x = samples.get(a) ?? [];
      const y = samples.get(b) ?? [];
      return `${ratio(med.get(a)?.cpuUs ?? 0, med.get(b)?.cpuUs ?? 0)}; per round: ${x.map((s, i) => (s.cpuUs / (y[i]?.cpuUs || 1)).toFixed(2)).join(" ")}`;
    };
    process.stdout.write(`node CPU per answer, svc/one-query: ${cpuRatio("svc", "one-query")}\n`);
    process.stdout.write(`node CPU per answer, svc-write/two-stmts: ${cpuRatio("svc-write", "two-stmts")}\n`);
    process.stdout.write(`written sites left by the write runs' timers (deleted after each run): ${leftTotal} over ${ROUNDS * 2} runs of ${CONNECTIONS} connections\n`);
    process.stdout.write(`after the rounds: ${await readState()}\n`);
    // The usage meter counted every svc answer (it batches: flushed here rather than waiting for its timer).
    await gateway.deps.usage.flush();
    const usage = await gateway.call("GET", "/api/v1/usage?days=1");
    const counted = usage.json<{ total: number }>().total;
    process.stdout.write(`usage meter: ${counted} calls of the owner's key counted; svc answered ${svcAnswered} under load (plus ${SITES} additions and 1 check)\n`);
    if (counted < svcAnswered + SITES + 1) process.stdout.write(`WARNING: the usage meter counted fewer calls than svc answered\n`);
    // The servers share this process with the gateway: its RSS is the gateway's plus three small routes.
    const rssBytes = process.memoryUsage.rss();
    process.stdout.write(`RSS of the bench process (gateway and bare routes; the load client runs apart): ${(rssBytes / 1048576).toFixed(0)} MB\n`);
    const written = writeBenchOutput({
      bench: "gateway",
      mode: SMOKE ? "smoke" : "full",
      figures: {
        svc_requests_per_s: svc,
        one_query_requests_per_s: one,
        bare_requests_per_s: bareRps,
        svc_p50_ms: med.get("svc")?.p50 ?? null,
        svc_node_cpu_us_per_request: med.get("svc")?.cpuUs ?? null,
        one_query_node_cpu_us_per_request: med.get("one-query")?.cpuUs ?? null,
        svc_write_node_cpu_us_per_request: med.get("svc-write")?.cpuUs ?? null,
        two_statements_node_cpu_us_per_request: med.get("two-stmts")?.cpuUs ?? null,
        one_query_p50_ms: med.get("one-query")?.p50 ?? null,
        ratio_svc_one_query: one > 0 ? svc / one : null,
        svc_write_requests_per_s: write,
        two_statements_requests_per_s: twoStmts,
        ratio_svc_write_two_statements: twoStmts > 0 ? write / twoStmts : null,
        rounds: ROUNDS,
        rss_bytes: rssBytes,
      },
      hotPath: { path: "keyed request (GET /sites)", ratio: one > 0 ? svc / one : null, ratioRounds, ceiling: "one-query route", target: TARGET, rssBytes },
    });
    process.stdout.write(`figures: ${written}\n`);
    if (gateway.violations.length > 0) process.stdout.write(`WARNING: ${gateway.violations.length} svc answers did not match the response schema; first: ${gateway.violations[0]}\n`);
  } finally {
    for (const app of bare) await app.close().catch(() => undefined);
    if (gw) await gw.close().catch((err: unknown) => process.stderr.write(`closing the gateway failed: ${String(err)}\n`));
    server?.stop();
  }
}

try {
  await main();
  process.exit(0);
} catch (err) {
  process.stderr.write(`bench:gateway failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
