import { applyProfile, bandOf, isExclusionFamily } from "../../analyzer/index.ts";
import type { SiteListRow, SiteRow, Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";

type RankInfo = { rank: number; prev: number | null; label: string; checked_at: number };

function rankOf(r: SiteListRow): RankInfo | undefined {
  return r.rank === null || r.label === null || r.last_run === null ? undefined : { rank: r.rank, prev: r.prev_rank, label: r.label, checked_at: r.last_run };
}

function siteItem(s: SiteRow, r: RankInfo | undefined) {
  // Until a site has a finished check its rank fields are null, never 0.
  return {
    host: s.host,
    added: s.added,
    interval_h: s.interval_h,
    rank: r?.rank ?? null,
    prev_rank: r?.prev ?? null,
    label: r?.label ?? null,
    last_run: r?.checked_at ?? null,
    importance: s.importance,
    project: s.project,
  };
}

export const listSites = implement(contracts.listSites, { repos: ["sites"] }, async ({ auth, repos, query }) => {
  const { rows, total } = await repos.sites.list(auth!.accountId, query.limit, query.offset);
  return {
    body: {
      sites: rows.map((r) => siteItem(r, rankOf(r))),
      page: page(query.limit, query.offset, total),
    },
  };
});

export const addSite = implement(contracts.addSite, { repos: ["sites"] }, async ({ auth, repos, body, now }) => {
  const outcome = await repos.sites.add(auth!.accountId, body.host, body.interval ?? 24, now, body.keyword);
  if (outcome.kind === "limit") {
    throw new ApiError("limit", `your plan allows ${outcome.max} sites; remove one first`, { retryAfter: 3600, details: { policy: "sites", max: outcome.max } });
  }
  const added = outcome.kind === "added";
  return { status: added ? 201 : 200, body: { host: outcome.site.host, added, interval_h: outcome.site.interval_h } };
});

export const removeSite = implement(contracts.removeSite, { repos: ["sites"] }, async ({ auth, repos, params }) => {
  const removed = await repos.sites.remove(auth!.accountId, params.host);
  return { body: { host: params.host, removed } };
});

export const updateSite = implement(contracts.updateSite, { repos: ["sites"] }, async ({ auth, repos, params, body }) => {
  const row = await repos.sites.update(auth!.accountId, params.host, {
    ...(body.interval !== undefined ? { intervalH: body.interval } : {}),
    ...(body.importance !== undefined ? { importance: body.importance } : {}),
    ...(body.project !== undefined ? { project: body.project } : {}),
  });
  if (!row) throw new ApiError("not_found", `you do not monitor ${params.host}`);
  return { body: { host: row.host, interval_h: row.interval_h, importance: row.importance, project: row.project, project_id: row.project_id } };
});

export const getOverview = implement(contracts.getOverview, { repos: ["crawls", "profiles", "runs", "sites", "tasks", "uptime"] }, async ({ auth, repos, query, now }) => {
  const { rows } = await repos.sites.candidates(auth!.accountId, {
    ...(query.q !== undefined ? { q: query.q } : {}),
    ...(query.project !== undefined ? { projectId: query.project } : {}),
    ...(query.importance !== undefined ? { importance: query.importance } : {}),
  });
  const tasks = await repos.tasks.openCounts(auth!.accountId);
  const profiled = await profiledRanks(repos, auth!.accountId, rows);
  const hosts = rows.map((s) => s.host);
  const [online, crawled] = await Promise.all([repos.uptime.online(hosts), repos.crawls.crawledHosts(hosts)]);
  const all = rows.map((s) => overviewRow(s, rankOf(s), tasks.get(s.host), now, profiled.get(s.host), online.get(s.host) ?? null, crawled.has(s.host)));
  const rated = all.filter((r) => r.rank !== null);
  const summary = {
    n: all.length,
    rated: rated.length,
    avg: rated.length > 0 ? Math.round((rated.reduce((t, r) => t + (r.rank ?? 0), 0) / rated.length) * 10) / 10 : null,
    best: rated.length > 0 ? Math.max(...rated.map((r) => r.rank ?? 0)) : null,
    worst: rated.length > 0 ? Math.min(...rated.map((r) => r.rank ?? 0)) : null,
    crit: all.filter((r) => r.critical_tasks > 0).length,
    open: all.reduce((t, r) => t + r.open_tasks, 0),
    falling: all.filter((r) => r.falling).length,
    down: all.filter((r) => r.online === false).length,
    stale: all.filter((r) => r.stale).length,
    never: all.filter((r) => r.never_checked).length,
  };
  const selected = all.filter((r) => matchesState(r, query.state) && (query.rmax === undefined || (r.rank !== null && r.rank <= query.rmax)));
  selected.sort(sorter(query.sort, query.dir));
  return { body: { summary, sites: selected.slice(query.offset, query.offset + query.limit), page: page(query.limit, query.offset, selected.length) } };
});

type Row = ReturnType<typeof overviewRow>;

/** A profiled site: its type, and the latest run's rank with (value) and without (base) the exclusions. */
type Profiled = { profile: string; value: number | null; base: number | null };

/**
 * The account's profiles in one query, then the latest reports of the profiled sites that have a
 * rank in one more; applyProfile over each. Sites without a profile cost nothing.
 */
async function profiledRanks(repos: Pick<Repositories, "profiles" | "runs">, accountId: number, rows: readonly SiteListRow[]): Promise<Map<string, Profiled>> {
  const listed = new Set(rows.map((r) => r.host));
  const profiles = (await repos.profiles.forAccount(accountId)).filter((p) => listed.has(p.host));
  const out = new Map<string, Profiled>(profiles.map((p) => [p.host, { profile: p.profile, value: null, base: null }]));
  const rated = new Set(rows.filter((r) => r.rank !== null).map((r) => r.host));
  const reports = await repos.runs.latestReports(profiles.filter((p) => rated.has(p.host)).map((p) => p.host));
  for (const p of profiles) {
    const report = reports.get(p.host)?.report;
    if (!report) continue;
    const applied = applyProfile(p.exclude.filter(isExclusionFamily), { items: report.items, caps: report.caps });
    out.set(p.host, { profile: p.profile, value: applied.value, base: applied.base });
  }
  return out;
}

/**
 * One overview row. stale: last check older than 2 × interval_h; falling: rank below the previous
 * run's; online: the uptime probes' confirmed state (null before the first probe); crawl: a
 * whole-site crawl of the host exists.
 */
function overviewRow(
  s: SiteRow,
  r: RankInfo | undefined,
  t: { open: number; crit: number; gain: number } | undefined,
  now: number,
  p: Profiled | undefined,
  online: boolean | null,
  crawled: boolean,
) {
  // With a profile and a run, rank (and its band) is the profile's; rank_delta and falling stay the standard ranks' movement.
  const rank = p && p.value !== null ? p.value : (r?.rank ?? null);
  return {
    host: s.host,
    project: s.project,
    project_id: s.project_id,
    importance: s.importance,
    rank,
    rank_delta: r && r.prev !== null ? r.rank - r.prev : null,
    rank_band: p && p.value !== null ? bandOf(p.value).label : (r?.label ?? null),
    critical_tasks: t?.crit ?? 0,
    open_tasks: t?.open ?? 0,
    potential_gain: Math.round((t?.gain ?? 0) * 10) / 10,
    online,
    last_check: r?.checked_at ?? null,
    never_checked: r === undefined,
    stale: r !== undefined && r.checked_at < now - 2 * s.interval_h * 3600,
    falling: r !== undefined && r.prev !== null && r.rank < r.prev,
    interval_h: s.interval_h,
    crawl: crawled,
    profile: p?.profile ?? null,
    rank_without_exclusions: p?.base ?? null,
  };
}

function matchesState(r: Row, state: string): boolean {
  switch (state) {
    case "crit":
      return r.critical_tasks > 0;
    case "down":
      return r.online === false;
    case "falling":
      return r.falling;
    case "stale":
      return r.stale;
    case "never":
      return r.never_checked;
    case "ok":
      return !r.never_checked && !r.stale && !r.falling && r.critical_tasks === 0;
    default:
      return true;
  }
}

/** Sorts by the chosen key; sites without the value (never checked) go last; the host breaks ties. */
function sorter(sort: string, dir: "asc" | "desc") {
  const key = (r: Row): number | string | null => {
    switch (sort) {
      case "rank":
        return r.rank;
      case "delta":
        return r.rank_delta;
      case "crit":
        return r.critical_tasks;
      case "tasks":
        return r.open_tasks;
      case "checked":
        return r.last_check;
      default:
        return r.host;
    }
  };
  const sign = dir === "desc" ? -1 : 1;
  return (a: Row, b: Row): number => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null && kb !== null) return 1;
    if (kb === null && ka !== null) return -1;
    if (ka !== null && kb !== null && ka !== kb) return (ka < kb ? -1 : 1) * sign;
    return a.host < b.host ? -1 : a.host > b.host ? 1 : 0;
  };
}

export const sitesHandlers = [listSites, addSite, removeSite, updateSite, getOverview];
