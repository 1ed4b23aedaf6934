import { parseArgs } from "node:util";

// What passes between bench:crawl (test/bench/crawl.bench.ts) and one tool run (run-*.ts here):
// the arguments in, one RESULT line out. Each tool runs in its own process under /usr/bin/time,
// so this file stays free of imports from the peers' own node_modules.

/** Arguments every runner takes. */
export interface RunArgs {
  /** The site's start URL, e.g. http://127.0.0.1:40123/ */
  readonly url: string;
  /** Connections (or concurrency) the tool is given. */
  readonly concurrency: number;
  /** The runner stops its crawl by itself after this long (the bench kills it a little later). */
  readonly deadlineMs: number;
  /** Where the tool's CPU profiles go (svc: its server's threads), when the bench asks for them. */
  readonly profileDir?: string;
  /**
   * svc only: crawls of the site, untimed, in the same server before the timed one (`?fresh=true`):
   * a running server's figure, its code compiled by V8 (the first crawl of a fresh process spends
   * about a fifth of its CPU compiling, on V8's background threads). `--warm` is 1, `--warm-crawls N` N.
   */
  readonly warmCrawls: number;
}

/** What a runner reports about its own crawl; the pages the bench reports come from nginx's log. */
export interface ToolReport {
  readonly tool: string;
  /** False when the tool could not crawl at all (Svc without the crawl endpoint). */
  readonly available: boolean;
  /** Wall seconds of the crawl itself, timed inside the runner (no process start, no module loading). */
  readonly crawlWallS: number;
  /** CPU seconds (user + system) of the crawling process over the same window. */
  readonly crawlCpuS: number;
  /** Peak RSS of the crawling process in MB, when the runner measures it (Svc's server); else null. */
  readonly peakRssMb: number | null;
  /** Pages the tool says it crawled (for comparison with the access log only). */
  readonly pagesReported: number;
  /** Distinct internal URLs the tool found broken. */
  readonly brokenInternal: number;
  /** A few of them, for reading. */
  readonly brokenSample: readonly string[];
  /** Requests that got no HTTP answer (refused, reset, timed out). */
  readonly connectionErrors: number;
  /** True when the runner hit its own deadline before the crawl finished. */
  readonly timedOut: boolean;
  /** Why the crawl ended without finishing (Svc: the job's error), or null. */
  readonly failure: string | null;
  /** Whatever else the tool can tell (Svc: server CPU, API latency; linkinator: concurrency). */
  readonly extra: Record<string, unknown>;
}

const MARK = "BENCH_RESULT ";

/** Parses the common arguments: --url, --concurrency, --deadline-ms. */
export function runArgs(argv: readonly string[] = process.argv.slice(2)): RunArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: { url: { type: "string" }, concurrency: { type: "string", default: "16" }, "deadline-ms": { type: "string", default: "600000" }, "profile-dir": { type: "string" }, warm: { type: "boolean", default: false }, "warm-crawls": { type: "string" } },
    strict: true,
  });
  if (!values.url || !/^http:\/\/127\.0\.0\.1:\d+\//.test(values.url)) throw new Error(`--url must be http://127.0.0.1:<port>/…, got ${String(values.url)}`);
  const concurrency = Number(values.concurrency);
  const deadlineMs = Number(values["deadline-ms"]);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error("--concurrency must be a positive integer");
  if (!Number.isInteger(deadlineMs) || deadlineMs < 1000) throw new Error("--deadline-ms must be an integer >= 1000");
  const warmCrawls = values["warm-crawls"] !== undefined ? Number(values["warm-crawls"]) : values.warm === true ? 1 : 0;
  if (!Number.isInteger(warmCrawls) || warmCrawls < 0 || warmCrawls > 10) throw new Error("--warm-crawls must be an integer from 0 to 10");
  return { url: values.url, concurrency, deadlineMs, warmCrawls, ...(values["profile-dir"] ? { profileDir: values["profile-dir"] } : {}) };
}

/** Prints the report as the RESULT line the bench reads. */
export function printReport(report: ToolReport): void {
  process.stdout.write(`\n${MARK}${JSON.stringify(report)}\n`);
}

/** The report in a runner's output, or null when it printed none (it crashed or was killed). */
export function reportIn(stdout: string): ToolReport | null {
  const line = stdout.split("\n").reverse().find((l) => l.startsWith(MARK));
  return line ? (JSON.parse(line.slice(MARK.length)) as ToolReport) : null;
}

/** CPU seconds (user + system) this process has used so far. */
export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * process.hrtime in µs: CLOCK_MONOTONIC, the clock of V8's CPU profiles in any process here, so a
 * runner's window (extra.windowUs) cuts another process's profiles.
 */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Distinct values, sorted, at most n. */
export function sample(values: Iterable<string>, n = 5): string[] {
  return [...new Set(values)].sort().slice(0, n);
}
