// What an idle Svc process does, counted (issue 20 §8): loaded into Svc's processes with
// BENCH_NODE_OPTIONS="--import tsx --import <this file's URL>?from=S&for=S&dir=DIR" (distribution.bench.ts;
// the query string configures it, as only NODE_OPTIONS reaches the roles). Between `from` and
// `from + for` seconds of the process's uptime it counts the Postgres statements the process sends
// (by their text), the Kafka requests (by API), the HTTP requests (ClickHouse's among them, by
// host and path), the timers armed (setTimeout by call site) and the interval timers fired (by
// call site); then it writes DIR/<role>-<pid>.json with the counts per second. A census run is
// not a measurement: the counting costs CPU of its own (a stack trace per timer). With profile=1
// it also writes a CPU profile of the window (DIR/<role>-<pid>.cpuprofile; Chrome DevTools reads it).
// With flag=PATH the window is instead the time that file exists (distribution.bench.ts creates it
// around its crawl rounds when BENCH_CENSUS_FLAG names it): what a crawl round does, counted; the
// report (totals and per second of the window) is written when the file goes away.
import { subscribe } from "node:diagnostics_channel";
import { Session } from "node:inspector";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const params = new URL(import.meta.url).searchParams;
const FROM_S = Number(params.get("from") ?? 70);
const FOR_S = Number(params.get("for") ?? 60);
const DIR = params.get("dir") ?? "/tmp/idle-census";
const PROFILE = params.get("profile") === "1";
const FLAG = params.get("flag");
const role = process.argv.slice(2).find((a) => !a.startsWith("-")) ?? "svc";

type Counts = Map<string, number>;
const counts: Record<"pg" | "kafka" | "http" | "timeouts" | "intervals", Counts> = { pg: new Map(), kafka: new Map(), http: new Map(), timeouts: new Map(), intervals: new Map() };
/** With a flag file: whether it exists, looked at every 100 ms (by the poll below). */
let flagged = false;
const counting = () => {
  if (FLAG) return flagged;
  const up = process.uptime();
  return up >= FROM_S && up < FROM_S + FOR_S;
};
const add = (map: Counts, key: string) => {
  if (counting()) map.set(key, (map.get(key) ?? 0) + 1);
};
/** The first frame outside Node's internals, this file and kafkajs's/pg's own plumbing: where a timer was armed. */
const site = () => {
  const lines = (new Error().stack ?? "").split("\n").slice(3);
  const own = lines.find((l) => !l.includes("node:") && !l.includes("idle-census")) ?? lines[0] ?? "?";
  return own.trim().replace(/^at /, "").replace(process.cwd(), ".");
};

// Timeouts by call site only (their delays vary); intervals by call site and period.
const realSetTimeout = globalThis.setTimeout as unknown as (this: unknown, ...args: unknown[]) => NodeJS.Timeout;
const realSetInterval = globalThis.setInterval as unknown as (this: unknown, ...args: unknown[]) => NodeJS.Timeout;
type TimerFn = (...args: unknown[]) => unknown;
(globalThis as { setTimeout: unknown }).setTimeout = function (this: unknown, fn: TimerFn, ms?: number, ...rest: unknown[]) {
  if (counting()) add(counts.timeouts, site());
  return realSetTimeout.call(this, fn, ms, ...rest);
};
(globalThis as { setInterval: unknown }).setInterval = function (this: unknown, fn: TimerFn, ms?: number, ...rest: unknown[]) {
  const where = `${site()} (${ms ?? 0} ms)`;
  return realSetInterval.call(
    this,
    function (this: unknown, ...args: unknown[]) {
      add(counts.intervals, where);
      return fn.apply(this, args);
    },
    ms,
    ...rest,
  );
};

const require = createRequire(join(process.cwd(), "package.json"));
type Patchable = { prototype: Record<string, (...args: unknown[]) => unknown> };
/** Counts the calls of a method of a CommonJS module's class (by the key `keyOf` gives), when the module is there. */
function countCalls(module: string, pick: (m: unknown) => Patchable, method: string, map: Counts, keyOf: (arg: unknown) => string): void {
  try {
    const proto = pick(require(module)).prototype;
    const original = proto[method];
    if (!original) return;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      add(map, keyOf(args[0]));
      return original.apply(this, args);
    };
  } catch {
    // not in this process
  }
}
countCalls("pg", (m) => (m as { Client: Patchable }).Client, "query", counts.pg, (config) => {
  const text = typeof config === "string" ? config : ((config as { text?: string } | null)?.text ?? "?");
  return text.replace(/\s+/g, " ").trim().slice(0, 90);
});
countCalls("kafkajs/src/network/connection.js", (m) => m as Patchable, "send", counts.kafka, (args) => (args as { request?: { apiName?: string } } | null)?.request?.apiName ?? "?");
subscribe("http.client.request.start", (message) => {
  const { request } = message as { request: { method: string; host: string; path: string } };
  add(counts.http, `${request.method} ${request.host}${request.path.split("?")[0] ?? ""}`);
});

// With profile=1, a CPU profile of the window too (--cpu-prof is refused in NODE_OPTIONS): DIR/<role>-<pid>.cpuprofile.
const session = PROFILE ? new Session() : null;
const writeProfile = () =>
  session?.post("Profiler.stop", (err, result) => {
    if (!err && result) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(join(DIR, `${role}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    }
  });
if (session) session.connect();
if (session && !FLAG) {
  realSetTimeout(() => session.post("Profiler.enable", () => session.post("Profiler.start")), Math.max(0, FROM_S * 1000 - process.uptime() * 1000)).unref();
}

const perS = (map: Counts, seconds: number) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, Number((n / seconds).toFixed(3))]));
const totals = (map: Counts) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]));
function writeReport(windowS: [number, number]): void {
  mkdirSync(DIR, { recursive: true });
  const seconds = Math.max(1e-3, windowS[1] - windowS[0]);
  const report = {
    role,
    pid: process.pid,
    windowS,
    perSecond: Object.fromEntries(Object.entries(counts).map(([k, m]) => [k, perS(m, seconds)])),
    ...(FLAG ? { total: Object.fromEntries(Object.entries(counts).map(([k, m]) => [k, totals(m)])) } : {}),
  };
  writeFileSync(join(DIR, `${role}-${process.pid}.json`), `${JSON.stringify(report, null, 2)}\n`);
}

if (FLAG) {
  let since = 0;
  realSetInterval(() => {
    const now = existsSync(FLAG);
    if (now && !flagged) {
      since = process.uptime();
      session?.post("Profiler.enable", () => session.post("Profiler.start"));
    }
    if (!now && flagged) {
      writeReport([since, process.uptime()]);
      writeProfile();
    }
    flagged = now;
  }, 100).unref();
} else {
  realSetTimeout(() => {
    writeProfile();
    writeReport([FROM_S, FROM_S + FOR_S]);
  }, (FROM_S + FOR_S) * 1000 - process.uptime() * 1000 + 100).unref();
}
