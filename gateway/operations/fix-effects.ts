import { CHECKS, EFFECT_METRICS, measureEffect, metricsFor, type EffectInput, type EffectMetric, type EffectSource, type FixEffect, type SeriesPoint } from "../../analyzer/index.ts";
import type { ProbeSummary, Repositories, TaskRow } from "../../storage/index.ts";

const DAY_S = 86400;
/** Check points read per metric and host: a year of daily checks. */
const CHECK_POINTS = 400;

/** The rank group of each check code (a task's fallback metric). */
const RANK_GROUP_OF: ReadonlyMap<string, string> = new Map(CHECKS.map((c) => [c.code, c.rankGroup]));

/** The repositories the effects are read from: the done tasks, and the series their metrics come from. */
export const EFFECT_SOURCES = ["tasks", "runs", "checks", "search", "uptimeSeries"] as const;
export type EffectSources = Pick<Repositories, (typeof EFFECT_SOURCES)[number]>;

/** What a source loader is asked for: a host's series over [from, to) for one metric. */
interface SeriesQuery {
  readonly store: EffectSources;
  readonly accountId: number;
  readonly host: string;
  readonly metric: EffectMetric;
  /** The task's rank group (source rank_group). */
  readonly group: string;
  readonly from: number;
  readonly to: number;
  /** Uptime summaries of whole UTC days already read in this call, by host and day. */
  readonly days: Map<string, Promise<ProbeSummary>>;
}

interface SeriesLoader {
  /**
   * page: read once per host for the span of the whole page of tasks and cut per task in memory
   * (one query serves every task); task: read per task's windows (the uptime summaries, whose days
   * are cached instead).
   */
  readonly span: "page" | "task";
  load(q: SeriesQuery): Promise<SeriesPoint[]>;
}

const dayStart = (day: unknown) => Date.parse(`${String(day).slice(0, 10)}T00:00:00Z`) / 1000;

/** The engine with the most points (the same choice as GET /traffic). */
function richestEngine<T extends { engine: string }>(rows: readonly T[]): T[] {
  const by = new Map<string, T[]>();
  for (const r of rows) by.set(r.engine, [...(by.get(r.engine) ?? []), r]);
  return [...by.values()].sort((a, b) => b.length - a.length)[0] ?? [];
}

/** One value per UTC day of the window from the uptime probes; days without a probe have no point. */
async function uptimeDays(q: SeriesQuery, value: (s: ProbeSummary) => number | null): Promise<SeriesPoint[]> {
  const out: SeriesPoint[] = [];
  for (let day = Math.floor(q.from / DAY_S) * DAY_S; day < q.to; day += DAY_S) {
    // Only whole days are cached: today's summary still grows.
    const whole = day + DAY_S <= q.to;
    const key = `${q.host}|${day}`;
    let summary = whole ? q.days.get(key) : undefined;
    if (!summary) {
      summary = q.store.uptimeSeries.summary(q.host, day, Math.min(day + DAY_S, q.to));
      if (whole) q.days.set(key, summary);
    }
    const s = await summary;
    const v = s.probes > 0 ? value(s) : null;
    if (v !== null) out.push({ t: day, v });
  }
  return out;
}

/** How each source's series is read: one loader per source of the metric table. */
const LOADERS: Readonly<Record<EffectSource, SeriesLoader>> = {
  rank_group: {
    span: "page",
    async load(q) {
      const runs = await q.store.runs.groupScores(q.host, q.from, q.to);
      return runs.flatMap((r) => {
        const score = (r.groups ?? []).find((g) => g.id === q.group)?.score;
        return typeof score === "number" ? [{ t: r.checked_at, v: score }] : [];
      });
    },
  },
  check: {
    span: "page",
    async load(q) {
      const points = await q.store.checks.history(q.host, q.metric.check ?? "", CHECK_POINTS);
      return points
        .filter((p) => p.checkedAt >= q.from && p.checkedAt < q.to && p.value !== null && p.value !== "" && Number.isFinite(Number(p.value)))
        .map((p) => ({ t: p.checkedAt, v: Number(p.value) }))
        .reverse();
    },
  },
  uptime_response: { span: "task", load: (q) => uptimeDays(q, (s) => s.avgTotalMs) },
  uptime_pct: { span: "task", load: (q) => uptimeDays(q, (s) => (100 * (s.probes - s.failed)) / s.probes) },
  search_clicks: {
    span: "page",
    async load(q) {
      const rows = richestEngine(await q.store.search.dailyTotals(q.accountId, q.host));
      return rows.map((r) => ({ t: dayStart(r.day), v: Number(r.clicks) })).filter((p) => p.t >= q.from && p.t < q.to);
    },
  },
  search_position: {
    span: "page",
    async load(q) {
      const rows = richestEngine(await q.store.search.dailyPositions(q.accountId, q.host));
      return rows.map((r) => ({ t: dayStart(r.day), v: Number(r.position) })).filter((p) => p.t >= q.from && p.t < q.to);
    },
  },
  search_indexed: {
    span: "page",
    async load(q) {
      const rows = richestEngine((await q.store.search.indexPoints(q.accountId, q.host)).filter((r) => r.indexed !== null));
      return rows.map((r) => ({ t: dayStart(r.day), v: Number(r.indexed) })).filter((p) => p.t >= q.from && p.t < q.to);
    },
  },
};

/** What the tasks of one page share: their series, read once. */
interface PageContext {
  readonly store: EffectSources;
  readonly accountId: number;
  readonly now: number;
  readonly cache: Map<string, Promise<SeriesPoint[]>>;
  readonly days: SeriesQuery["days"];
  /** From the earliest before-window of the page's tasks to now. */
  readonly span: { readonly from: number; readonly to: number };
}

const LONGEST_WINDOW_S = Math.max(...EFFECT_METRICS.map((m) => m.windowDays)) * DAY_S;

/** When a task became done: done_at, or its last change for tasks done before it was kept. */
export function doneAtOf(t: TaskRow): number {
  return t.done_at ?? t.updated;
}

/**
 * Picks a done task's metric — the first of its check's metrics with measurements around the fix,
 * else the first one (nodata) — and its series. Series are cached per host, metric and group.
 */
async function effectInput(page: PageContext, t: TaskRow): Promise<EffectInput> {
  const { store, accountId, now, cache, days } = page;
  const doneAt = doneAtOf(t);
  const group = RANK_GROUP_OF.get(t.code) ?? t.grp;
  const candidates = metricsFor(t.code);
  for (const metric of candidates) {
    const from = doneAt - metric.windowDays * DAY_S;
    const to = Math.min(now + 1, doneAt + (metric.waitDays + metric.windowDays) * DAY_S);
    const loader = LOADERS[metric.source];
    const span = loader.span === "page" ? page.span : { from, to };
    const key = `${t.host}|${metric.id}|${group}|${span.from}|${span.to}`;
    let series = cache.get(key);
    if (!series) {
      series = loader.load({ store, accountId, host: t.host, metric, group, from: span.from, to: span.to, days });
      cache.set(key, series);
    }
    const points = (await series).filter((p) => p.t >= from && p.t < to);
    if (points.length > 0) return { taskId: t.id, host: t.host, title: t.title, doneAt, metric, metricName: nameOf(metric, group), series: points };
  }
  const first = candidates[0] as EffectMetric;
  return { taskId: t.id, host: t.host, title: t.title, doneAt, metric: first, metricName: nameOf(first, group), series: null };
}

const nameOf = (m: EffectMetric, group: string) => (m.source === "rank_group" ? `${m.id}.${group}` : m.id);

/**
 * The fix effects of an account's done tasks, newest done first: of one site (host) or of all its
 * sites. GET /effects/{host} serves them; GET /today lists them too (its `verify`: the rows whose
 * verdict is still `wait`).
 */
export async function fixEffects(store: EffectSources, accountId: number, o: { host?: string; limit: number; offset: number }, now: number): Promise<{ rows: FixEffect[]; total: number }> {
  const { rows, total } = await store.tasks.done(accountId, o.host === undefined ? {} : { host: o.host }, o.limit, o.offset);
  const earliest = Math.min(...rows.map(doneAtOf));
  const page: PageContext = { store, accountId, now, cache: new Map(), days: new Map(), span: { from: earliest - LONGEST_WINDOW_S, to: now + 1 } };
  const inputs: EffectInput[] = [];
  for (const t of rows) inputs.push(await effectInput(page, t));
  return { rows: inputs.map((i) => measureEffect(i, now)), total };
}
