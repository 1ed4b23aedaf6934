// Site histories for the diagnosis tests: runs, probes, tasks and imported series by day.
import type { RunEvidence, SiteEvidence, TaskEvidence } from "../../../analyzer/index.ts";

/** 2026-11-22 10:00 UTC, the tests' "now". */
export const NOW = Date.UTC(2026, 10, 22, 10) / 1000;
export const DAY = 86_400;

export function site(over: Partial<SiteEvidence> = {}): SiteEvidence {
  return { host: "a.example", runs: [], uptime: null, tasks: [], clicks: [], indexed: [], backlinks: [], positions: [], ...over };
}

type Failing = RunEvidence["failing"][number];

export const fail = (code: string, title: string, level: Failing["level"] = "bad"): Failing => ({ code, title, level });

/** A run `daysAgo` days before NOW. */
export function run(id: number, daysAgo: number, rank: number, failing: Failing[] = [], browser: RunEvidence["browser"] = null, groups: RunEvidence["groups"] = []): RunEvidence {
  return { id, checkedAt: NOW - daysAgo * DAY, rank, groups, failing, browser };
}

/** Consecutive daily values from `first` (YYYY-MM-DD). */
export function daily(first: string, values: readonly number[]): { day: string; value: number }[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return values.map((value, i) => ({ day: new Date(start + i * DAY * 1000).toISOString().slice(0, 10), value }));
}

export const repeat = (value: number, n: number): number[] => Array.from({ length: n }, () => value);

export function task(id: number, code: string, over: Partial<TaskEvidence> = {}): TaskEvidence {
  return { id, code, title: `Fix ${code}`, level: "warn", status: "open", impact: 1, effort: 1, firstSeen: NOW - 3 * DAY, updated: NOW - 3 * DAY, ...over };
}
