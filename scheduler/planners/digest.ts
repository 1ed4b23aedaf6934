import { EVENTS, newEvent } from "../../analyzer/index.ts";
import { unixSeconds } from "../../runtime/index.ts";
import type { EventLevel, NewEvent } from "../../storage/index.ts";
import type { Planner } from "./planner.ts";

const DAY_S = 86_400;
/** How often the planner looks whether yesterday's digests are written (once they are, a pass is one comparison). */
const DIGEST_EVERY_MS = 5 * 60_000;

/** What a digest counts, in the order its sentence says them: event kind → words for n of them. */
const PARTS: readonly (readonly [string, (n: number) => string])[] = [
  ["analysis.done", (n) => `${n} ${n === 1 ? "analysis" : "analyses"}`],
  ["crawl.done", (n) => `${n} ${n === 1 ? "crawl" : "crawls"}`],
  ["analysis.error", (n) => `${n} failed ${n === 1 ? "analysis" : "analyses"}`],
  ["crawl.error", (n) => `${n} failed ${n === 1 ? "crawl" : "crawls"}`],
  ["task.new", (n) => `${n} new ${n === 1 ? "task" : "tasks"}`],
  ["task.fixed", (n) => `${n} ${n === 1 ? "task" : "tasks"} fixed`],
  ["task.returned", (n) => `${n} ${n === 1 ? "task" : "tasks"} back`],
  ["site.down", (n) => `${n} ${n === 1 ? "outage" : "outages"}`],
  ["site.up", (n) => `${n} ${n === 1 ? "recovery" : "recoveries"}`],
  ["certificate.expiring", (n) => `${n} certificate ${n === 1 ? "warning" : "warnings"}`],
  ["watchdog.change", (n) => `${n} watched-page ${n === 1 ? "change" : "changes"}`],
  ["performance.regressed", (n) => `${n} performance ${n === 1 ? "regression" : "regressions"}`],
];

/** One account's day: its events counted by kind and level. */
export interface DayCounts {
  readonly accountId: number;
  readonly rows: readonly { readonly kind: string; readonly level: EventLevel; readonly n: number }[];
}

/**
 * The digest event of one account's UTC day (`day` in days since the epoch): the day's events
 * counted by kind and level, a sentence of the notable counts, at the level of the day's worst
 * event (info when nothing was good or bad news). Keyed by account and day: written once.
 */
export function digestEvent(day: number, counts: DayCounts): NewEvent {
  const date = new Date(day * DAY_S * 1000).toISOString().slice(0, 10);
  const byKind = new Map<string, number>();
  const byLevel: Record<EventLevel, number> = { bad: 0, warn: 0, good: 0, info: 0 };
  let rankUp = 0;
  let rankDown = 0;
  for (const r of counts.rows) {
    byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + r.n);
    byLevel[r.level] += r.n;
    if (r.kind === "rank.changed" && r.level === "good") rankUp += r.n;
    else if (r.kind === "rank.changed") rankDown += r.n;
  }
  const said = PARTS.flatMap(([kind, words]) => ((byKind.get(kind) ?? 0) > 0 ? [words(byKind.get(kind)!)] : []));
  if (rankUp > 0) said.push(`${rankUp} rank ${rankUp === 1 ? "rise" : "rises"}`);
  if (rankDown > 0) said.push(`${rankDown} rank ${rankDown === 1 ? "fall" : "falls"}`);
  const total = byLevel.bad + byLevel.warn + byLevel.good + byLevel.info;
  const level: EventLevel = byLevel.bad > 0 ? "bad" : byLevel.warn > 0 ? "warn" : "info";
  const kinds = Object.fromEntries([...byKind].sort(([a], [b]) => a.localeCompare(b)));
  return newEvent(EVENTS.DIGEST_DAILY, { accountId: counts.accountId, date, level, said, total, levels: byLevel, kinds }, { accountId: counts.accountId, host: null });
}

/**
 * The daily digest (the spec's `digest` webhook event type): once a UTC day, for every account
 * that had events the day before, one event summarising them; the webhook planner delivers it to
 * the account's webhooks subscribed to `digest`. The key makes a second pass (or a second
 * scheduler after a takeover) write nothing; a day on which no scheduler planned is not written
 * later (a digest of last week would not be news).
 */
export function digestPlanner(): Planner {
  let written = -1;
  return {
    name: "digest",
    everyMs: () => DIGEST_EVERY_MS,
    async run(ctx) {
      const day = Math.floor(unixSeconds(ctx.clock) / DAY_S) - 1;
      if (day === written) return 0;
      const rows = await ctx.store.events.countsBetween(day * DAY_S, (day + 1) * DAY_S);
      const accounts = new Map<number, DayCounts["rows"][number][]>();
      for (const r of rows) accounts.set(r.account_id, [...(accounts.get(r.account_id) ?? []), r]);
      const events = [...accounts].map(([accountId, counted]) => digestEvent(day, { accountId, rows: counted }));
      await ctx.store.events.add(events, unixSeconds(ctx.clock));
      written = day;
      return events.length;
    },
  };
}
