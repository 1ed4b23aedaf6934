import { bandOf, diffRuns, isExclusionFamily, memberChecks, performanceRegressions, profiledIssues, projectionBlindness, type ReportItem } from "../../analyzer/index.ts";
import type { Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { renderReport, storedReport } from "./report-view.ts";

/**
 * not_found unless the host was analysed (runs are shared) or the caller monitors it or started a
 * check of it; then the caller may wait for a run. A host only other accounts monitor looks like
 * any unknown host.
 */
async function requireKnown(repos: Pick<Repositories, "runs">, accountId: number, host: string): Promise<void> {
  if (!(await repos.runs.knownTo(accountId, host))) throw new ApiError("not_found", `no check of ${host} is known to your account`);
}

export async function latestRun(repos: Pick<Repositories, "runs">, accountId: number, host: string) {
  const run = await repos.runs.latest(host);
  if (run) return run;
  await requireKnown(repos, accountId, host);
  throw new ApiError("not_ready", `${host} has no finished check yet`, { retryAfter: 30 });
}

export const getReport = implement(contracts.getReport, { repos: ["runs"] }, async ({ auth, repos, params }) => {
  const run = await latestRun(repos, auth!.accountId, params.host);
  return { body: renderReport(run, await repos.runs.checkInFlight(params.host)) };
});

export const getHistory = implement(contracts.getHistory, { repos: ["runs"] }, async ({ auth, repos, params, query }) => {
  await requireKnown(repos, auth!.accountId, params.host);
  const { rows, total } = await repos.runs.history(params.host, query.limit, query.offset);
  return {
    body: {
      host: params.host,
      runs: rows.map((r) => ({ id: r.id, checked_at: r.checked_at, rank: r.rank, label: r.label, color: r.color })),
      page: page(query.limit, query.offset, total),
    },
  };
});

export const getChanges = implement(contracts.getChanges, { repos: ["runs"] }, async ({ auth, repos, params, query }) => {
  const host = params.host;
  await requireKnown(repos, auth!.accountId, host);
  const newer = query.to !== undefined ? await repos.runs.get(host, query.to) : await repos.runs.latest(host);
  if (query.to !== undefined && !newer) throw new ApiError("not_found", `${host} has no check ${query.to}`);
  if (!newer) throw new ApiError("not_ready", `${host} has no finished check yet`, { retryAfter: 30 });
  const older = query.from !== undefined ? await repos.runs.get(host, query.from) : await repos.runs.previous(host, newer.id);
  if (query.from !== undefined && !older) throw new ApiError("not_found", `${host} has no check ${query.from}`);
  if (!older) throw new ApiError("not_ready", `${host} needs two finished checks to compare`, { retryAfter: 30 });
  if (older.id >= newer.id) throw new ApiError("bad_param", "from must be an older check than to", { param: "from" });
  const seen = new Set<string>();
  for (const rep of await repos.runs.reportsBefore(host, older.id, 50)) {
    for (const item of (rep as { items: ReportItem[] }).items) if (item.status === "fail" || item.status === "warn") seen.add(item.code);
  }
  const o = storedReport(older);
  const n = storedReport(newer);
  const diff = diffRuns({ items: o.items, tech: o.tech }, { items: n.items, tech: n.tech }, seen);
  // Reports stored before the browser pool have no browser section: nothing to compare.
  const performance = o.browser && n.browser ? performanceRegressions(o.browser.pages, n.browser.pages).flatMap((r) => r.metrics.map((m) => ({ url: r.url, device: r.device, metric: m.metric, from: m.from, to: m.to }))) : [];
  const strip = (cs: typeof diff.new) => cs.map((c) => ({ code: c.code, title: c.title, group: c.group, from: c.from, to: c.to, value: c.value }));
  return {
    body: {
      host,
      from: { id: older.id, checked_at: older.checked_at, rank: older.rank },
      to: { id: newer.id, checked_at: newer.checked_at, rank: newer.rank },
      rank_delta: newer.rank - older.rank,
      new: strip(diff.new),
      fixed: strip(diff.fixed),
      returned: strip(diff.returned),
      worse: strip(diff.worse),
      improved: strip(diff.improved),
      tech_added: diff.tech_added,
      tech_removed: diff.tech_removed,
      performance,
      changed: diff.changed || performance.length > 0,
      returned_known: diff.returned.length > 0,
    },
  };
});

const VERDICTS: Record<string, string> = {
  bad: "Severe problems hold the site back; fix the first issue now.",
  poor: "Important problems; the top issues are worth fixing this week.",
  fair: "A fair state with clear gains available.",
  good: "Good; a few improvements remain.",
  excellent: "Excellent; keep it that way.",
};

export const getTopIssues = implement(contracts.getTopIssues, { repos: ["profiles", "runs", "tasks"] }, async ({ auth, repos, params, query }) => {
  const run = await latestRun(repos, auth!.accountId, params.host);
  const r = storedReport(run);
  const stored = await repos.profiles.get(auth!.accountId, params.host);
  const apply = query.apply_profile === 1;
  const exclude = apply ? (stored?.exclude ?? []).filter(isExclusionFamily) : [];
  // The standard answer is the stored report's; a profile that excludes a check re-prices the run's tasks.
  const view =
    memberChecks(exclude).length === 0
      ? { rank: run.rank, label: run.label, after: r.after, tasks: r.tasks }
      : (() => {
          const p = profiledIssues(exclude, { items: r.items, caps: r.caps, tasks: r.tasks });
          const byCode = new Map(r.tasks.map((t) => [t.code, t]));
          const tasks = p.tasks.map((t) => ({ ...(byCode.get(t.code) as (typeof r.tasks)[number]), impact: t.impact, lifts_cap: t.lifts_cap }));
          return { rank: p.rank, label: bandOf(p.rank).label, after: p.after, tasks };
        })();
  const blind = projectionBlindness(r.items);
  const mine = new Map((await repos.tasks.forHost(auth!.accountId, params.host)).map((t) => [t.code, t.status]));
  const problems = view.tasks.slice(0, 5).map((t) => ({
    code: t.code,
    name: t.title,
    level: t.level,
    status: mine.get(t.code) ?? ("open" as const),
    gain: t.impact,
    lifts_cap: t.lifts_cap,
    effort: t.effort,
    how: t.hint,
  }));
  return {
    body: {
      host: params.host,
      checked_at: run.checked_at,
      profile: stored?.profile ?? (apply ? "general" : null),
      rank: view.rank,
      label: view.label,
      verdict: VERDICTS[view.label] ?? "",
      total_issues: view.tasks.length,
      problems,
      after: blind === null ? view.after : null,
      gain_all: blind === null ? view.after - view.rank : null,
      after_note: blind,
      more: Math.max(0, view.tasks.length - 5),
    },
  };
});

export const reportsHandlers = [getReport, getHistory, getChanges, getTopIssues];
