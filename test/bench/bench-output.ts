/**
 * What a benchmark leaves behind for bench:summary and the sizing model: one JSON per bench,
 * .tmp/bench/<bench>.json, overwritten by each run.
 *
 *   {
 *     "bench": "gateway",                    the bench's name (bench:<name>)
 *     "at": "2026-12-07T00:10:00.000Z",      when the run ended
 *     "commit": "57525fd…" | null,           the checkout's HEAD
 *     "mode": "full" | "smoke",
 *     "figures": { "<name_with_unit>": number | null, … },
 *     "hotPath"?: {                          only the benches of issue 36's hot paths
 *       "path": "keyed request",
 *       "ratio": 0.52 | null,               Svc's throughput over the ceiling's, median of the rounds
 *       "ratioRounds": [0.5, 0.52, 0.55],    the per-round ratios (their spread)
 *       "ceiling": "one-query route",
 *       "target": 0.8,                       the ratio wanted (at least)
 *       "rssBytes": 123456789 | null         the Svc process's RSS at the end of the run
 *     },
 *     "moreHotPaths"?: [ … ]                 further lines of the same shape (bench:crawl's running server)
 *   }
 *
 * Figures carry their unit in their name (cpu_ms_per_page, rss_bytes, requests_per_s).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface HotPathFigures {
  readonly path: string;
  readonly ratio: number | null;
  readonly ratioRounds: readonly number[];
  readonly ceiling: string;
  readonly target: number;
  readonly rssBytes: number | null;
}

export interface BenchOutput {
  readonly bench: string;
  readonly at: string;
  readonly commit: string | null;
  readonly mode: "full" | "smoke";
  readonly figures: Readonly<Record<string, number | null>>;
  readonly hotPath?: HotPathFigures;
  /** Further lines of the same bench (bench:crawl: the running server's crawl beside the fresh process's). */
  readonly moreHotPaths?: readonly HotPathFigures[];
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Where the outputs go: .tmp/bench under the checkout. */
export const BENCH_OUTPUT_DIR = join(REPO_ROOT, ".tmp", "bench");

function headCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || null;
  } catch {
    return null;
  }
}

/** Writes a bench's figures (its date and commit added) and returns the path written. */
export function writeBenchOutput(output: Omit<BenchOutput, "at" | "commit">, dir: string = BENCH_OUTPUT_DIR): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${output.bench}.json`);
  const full: BenchOutput = { ...output, at: new Date().toISOString(), commit: headCommit() };
  writeFileSync(path, `${JSON.stringify(full, null, 2)}\n`);
  return path;
}

/** A bench's last output, or null when it has none (never run here, or unreadable). */
export function readBenchOutput(bench: string, dir: string = BENCH_OUTPUT_DIR): BenchOutput | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, `${bench}.json`), "utf8")) as BenchOutput;
    return parsed && typeof parsed === "object" && parsed.figures && typeof parsed.figures === "object" ? parsed : null;
  } catch {
    return null;
  }
}

/** A figure of a bench's output, null when the output or the figure is missing. */
export function benchFigure(output: BenchOutput | null, name: string): number | null {
  const value = output?.figures[name];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
