// The diagnosis's one loader: a site's evidence from the stores (runs, uptime incidents, the
// account's tasks and imported search data), shaped for the pure analyzer/diagnosis.
import { FAMILY_CHECKS, utcDayOf as dayOf, type SiteEvidence } from "../../analyzer/index.ts";
import type { Repositories } from "../../storage/index.ts";

/** The repositories the evidence is read from (an operation that loads evidence declares these). */
export const EVIDENCE_SOURCES = ["runs", "uptime", "incidents", "tasks", "search", "profiles", "robots"] as const;
export type EvidenceSources = Pick<Repositories, (typeof EVIDENCE_SOURCES)[number]>;

const DAY_S = 86_400;
/** Runs read at most (a site checked hourly for a year would have more; the newest are kept). */
const MAX_RUNS = 1000;

/** The evidence of `host` for account `accountId`, covering `days` days before `now` (and the 30 days the first day's figures look back on). */
export async function loadEvidence(store: EvidenceSources, accountId: number, host: string, now: number, days: number): Promise<SiteEvidence> {
  const since = now - (days + 31) * DAY_S;
  const sinceDay = dayOf(since);
  const [runs, target, incidents, allTasks, daily, index, backlinks, ranks, profile, robots] = await Promise.all([
    store.runs.diagnosisRuns(host, since, MAX_RUNS),
    store.uptime.target(host),
    store.incidents.since(host, since),
    store.tasks.forHost(accountId, host),
    store.search.dailyTotals(accountId, host),
    store.search.indexPoints(accountId, host),
    store.search.backlinkDates(accountId, host),
    store.search.rankChecks(accountId, host, sinceDay),
    store.profiles.get(accountId, host),
    store.robots.since(host, since),
  ]);
  // As GET /plan: the checks the account's profile of the site excludes bring no task.
  const excluded = new Set((profile?.exclude ?? []).flatMap((family) => FAMILY_CHECKS[family as keyof typeof FAMILY_CHECKS] ?? []));
  const tasks = allTasks.filter((t) => !excluded.has(t.code));
  return {
    host,
    runs: runs.map((r) => ({
      id: Number(r.id),
      checkedAt: Number(r.checked_at),
      rank: Number(r.rank),
      groups: r.groups.map((g) => ({ id: g.id, score: g.score })),
      failing: r.failing,
      unmeasured: r.unmeasured,
      browser: r.browser && r.browser.score !== null ? { score: r.browser.score, lcpMs: r.browser.lcp_ms } : null,
      certificate: { problem: r.certificate.problem, daysLeft: r.certificate.days_left === null ? null : Number(r.certificate.days_left) },
    })),
    uptime:
      target && target.first_probe !== null
        ? {
            firstProbe: Number(target.first_probe),
            incidents: incidents.map((i) => ({ kind: i.kind, title: i.title, cause: i.cause, firstSeen: Number(i.first_seen), resolvedAt: i.resolved_at === null ? null : Number(i.resolved_at) })),
          }
        : null,
    tasks: tasks.map((t) => ({ id: Number(t.id), code: t.code, title: t.title, level: t.level, status: t.status, impact: Number(t.impact), effort: Number(t.effort), firstSeen: Number(t.first_seen), updated: Number(t.updated) })),
    clicks: primaryEngine(daily.map((d) => ({ engine: d.engine, day: d.day, value: Number(d.clicks) }))).filter((d) => d.day >= sinceDay),
    indexed: primaryEngine(index.filter((p) => p.indexed !== null).map((p) => ({ engine: p.engine, day: p.day, value: Number(p.indexed) }))),
    backlinks: backlinks.map((b) => ({ firstSeen: b.first_seen, lostAt: b.lost_at })),
    positions: ranks.map((r) => ({ keyword: `${r.engine}/${r.region}/${r.device}/${r.keyword}`, day: r.day, position: r.position === null ? null : Number(r.position) })),
    robots: robots.map((v) => ({ seenAt: v.seen_at, status: v.status, lines: v.lines })),
  };
}

/** One engine's series, oldest first: the engine with the largest total (two engines' sums would jump where their coverage differs). */
function primaryEngine(points: readonly { engine: string; day: string; value: number }[]): { day: string; value: number }[] {
  const totals = new Map<string, number>();
  for (const p of points) totals.set(p.engine, (totals.get(p.engine) ?? 0) + p.value);
  const engine = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  return points
    .filter((p) => p.engine === engine)
    .map((p) => ({ day: p.day, value: p.value }))
    .sort((a, b) => a.day.localeCompare(b.day));
}
