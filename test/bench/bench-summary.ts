/**
 * npm run bench:summary: one line per hot path of issue 36 — the keyed request (bench:gateway), the
 * whole-site crawl (bench:crawl), the webhook delivery (bench:webhooks) — with its ratio to the
 * ceiling measured in the same run, the per-round spread, the target and the RSS. The lines come
 * from the JSON each bench writes (test/bench/bench-output.ts, .tmp/bench/<bench>.json).
 *
 *   npm run bench:summary                 runs the three benches in turn (full runs: many minutes), then prints
 *   npm run bench:summary -- --read       prints from the benches' last outputs, running nothing
 *   npm run bench:summary -- --smoke      runs them in smoke mode (figures for a quick look, not the table)
 *
 * A benchmark's summary, not a test: it never fails on a number.
 */
import { spawnSync } from "node:child_process";
import { readBenchOutput, type BenchOutput } from "./bench-output.ts";

/** The hot paths, in the table's order, by the bench that measures each. */
export const HOT_PATHS: readonly { readonly bench: string; readonly path: string }[] = [
  { bench: "gateway", path: "keyed request" },
  { bench: "crawl", path: "whole-site crawl" },
  { bench: "webhooks", path: "webhook delivery" },
];

const num = (n: number | null | undefined, digits = 2) => (n === null || n === undefined || !Number.isFinite(n) ? "-" : n.toFixed(digits));

/** The Markdown rows of a bench's paths: its hot path, then any more it measured (one row saying so when there is none). */
export function summaryRows(path: string, bench: string, out: BenchOutput | null): string[] {
  if (!out?.hotPath) return [summaryRow(path, bench, out)];
  return [summaryRow(path, bench, out), ...(out.moreHotPaths ?? []).map((hp) => summaryRow(hp.path, bench, { ...out, hotPath: hp }))];
}

/** One Markdown row for a path from its bench's output (a row saying so when there is none). */
export function summaryRow(path: string, bench: string, out: BenchOutput | null): string {
  const hp = out?.hotPath;
  if (!out || !hp) return `| ${path} | - | - | - | - | - | no output of bench:${bench} with hot-path figures |`;
  const spread = hp.ratioRounds.length > 0 ? `${num(Math.min(...hp.ratioRounds))}–${num(Math.max(...hp.ratioRounds))} (${hp.ratioRounds.length} rounds)` : "-";
  const rss = hp.rssBytes === null ? "-" : `${Math.round(hp.rssBytes / 1024 / 1024)} MB`;
  const met = hp.ratio !== null && hp.ratio >= hp.target ? "met" : "not met";
  return `| ${path} | ${hp.ceiling} | **${num(hp.ratio)}** ${spread} | ≥ ${num(hp.target)} (${met}) | ${rss} | ${out.mode}, ${out.at.slice(0, 16).replace("T", " ")} UTC | ${out.commit?.slice(0, 10) ?? "?"} |`;
}

export const SUMMARY_HEADER = [
  "| path | ceiling (same run) | ratio (median, rounds' spread) | target | RSS | run | commit |",
  "|---|---|---|---|---|---|---|",
];

function main(): void {
  const read = process.argv.includes("--read");
  const smoke = process.argv.includes("--smoke");
  if (!read) {
    for (const { bench } of HOT_PATHS) {
      process.stdout.write(`bench:summary: running bench:${bench}${smoke ? " (smoke)" : ""}…\n`);
      const run = spawnSync("npm", ["run", `bench:${bench}`, ...(smoke ? ["--", "--smoke"] : [])], { stdio: ["ignore", "inherit", "inherit"] });
      if (run.status !== 0) process.stdout.write(`bench:summary: bench:${bench} exited ${run.status ?? run.signal}; its line shows its last output, if any\n`);
    }
  }
  process.stdout.write(`\n${SUMMARY_HEADER.join("\n")}\n`);
  for (const { bench, path } of HOT_PATHS) for (const line of summaryRows(path, bench, readBenchOutput(bench))) process.stdout.write(`${line}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
