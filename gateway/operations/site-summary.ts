import { clicksTrend, sectionFreshness } from "../../analyzer/index.ts";
import type { Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { storedReport } from "./report-view.ts";
import { taskView } from "./tasks.ts";
import { eventView, uptimeSummary } from "./monitoring.ts";

export const getSite = implement(contracts.getSite, { repos: ["crawls", "events", "incidents", "runs", "search", "sites", "tasks", "uptime", "watchdog"] }, async ({ auth, repos, params, now }) => {
  const host = params.host;
  const run = await repos.runs.latest(host);
  if (!run) {
    if (await repos.runs.knownTo(auth!.accountId, host)) throw new ApiError("not_ready", `${host} has no finished check yet`, { retryAfter: 30 });
    throw new ApiError("not_found", `no check of ${host} is known to your account`);
  }
  const report = storedReport(run);
  const history = await repos.runs.historySpan(host);
  const tasks = (await repos.tasks.forHost(auth!.accountId, host)).filter((t) => t.status === "open");
  const events = await repos.events.recentForHost(auth!.accountId, host, 10);
  const crawl = await repos.crawls.latest(host);
  const monitored = (await repos.sites.get(auth!.accountId, host)) !== null;
  const pages = new Set(report.items.flatMap((i) => i.pages));
  return {
    body: {
      host,
      checked_at: run.checked_at,
      rank: { value: run.rank, label: run.label, groups: report.groups },
      search: await searchSummary(repos, auth!.accountId, host, now),
      baseline: null,
      master_index: null,
      stats: {
        runs: history.runs,
        first_checked: history.firstCheckedAt ?? run.checked_at,
        checks: report.items.filter((i) => i.status !== "na").length,
        failing: report.items.filter((i) => i.status === "fail" || i.status === "warn").length,
        pages_checked: pages.size,
      },
      tasks_open: tasks.length,
      tasks_potential_gain: Math.round(tasks.reduce((t, x) => t + x.impact, 0) * 10) / 10,
      top_tasks: tasks.slice(0, 5).map(taskView),
      crawl: crawl ? { checked_at: crawl.checked_at, job: crawl.job_id, run: crawl.run_id, summary: crawl.report.summary ?? {} } : null,
      uptime: monitored ? { ...uptimeOf(await uptimeSummary(repos, host, now)), open_incidents: (await repos.incidents.latest(host, 50)).filter((i) => i.status === "open").length } : null,
      watchdog_changes: monitored ? await repos.watchdog.changes(host, now - WATCHDOG_WINDOW_S, 20) : null,
      watched_pages: monitored ? (await repos.watchdog.watched(host)).map(watchedView) : null,
      events: events.map(eventView),
    },
  };
});

export const siteHandlers = [getSite];

const DAY = 86_400;

/**
 * The caller's search data of the host at a glance (GET /traffic has the rest): the daily clicks of
 * the engine with more days, their last 28 days × 30/28, the verdict, and how old they are, by the
 * rule GET /providers uses; null when the caller imported none.
 */
async function searchSummary(repos: Pick<Repositories, "search">, accountId: number, host: string, now: number) {
  const [totals, batches] = await Promise.all([repos.search.dailyTotals(accountId, host), repos.search.liveBatches(accountId, host)]);
  if (batches.length === 0) return null;
  const google = totals.filter((t) => t.engine === "google");
  const yandex = totals.filter((t) => t.engine === "yandex");
  const series = google.length >= yandex.length ? google : yandex;
  const engine = series === google ? "google" : "yandex";
  const last = series.at(-1)?.day ?? null;
  const y = last === null ? [] : contiguous(series, last);
  const fresh = sectionFreshness(last === null ? [] : [{ provider: engine === "google" ? "gsc" : "yandex_webmaster", until: last, importedAt: now }], now);
  const trend = clicksTrend(y);
  return {
    imports: batches.length,
    source: last === null ? null : engine === "google" ? "gsc" : "yandex",
    data_state: last === null ? "missing" : fresh.state,
    data_until: last,
    real_monthly_organic: last === null ? null : Math.round((y.slice(-28).reduce((a, b) => a + b, 0) * 30) / 28),
    verdict: trend?.verdict ?? "insufficient_data",
  };
}

/** Daily clicks without gaps up to the last day; a day missing from the export is 0. */
function contiguous(points: readonly { day: string; clicks: number }[], last: string): number[] {
  const start = Date.parse(`${points[0]!.day}T00:00:00Z`) / 1000;
  const y = new Array<number>(Math.round((Date.parse(`${last}T00:00:00Z`) / 1000 - start) / DAY) + 1).fill(0);
  for (const p of points) y[Math.round((Date.parse(`${p.day}T00:00:00Z`) / 1000 - start) / DAY)] = p.clicks;
  return y;
}

/** GET /site lists the watchdog's changes of this many days. */
const WATCHDOG_WINDOW_S = 30 * 86_400;

function watchedView(w: { url: string; snapshot: Record<string, unknown> | null; checked_at: number | null; changed_at: number | null }) {
  const status = w.snapshot?.status;
  const title = w.snapshot?.title;
  return {
    url: w.url,
    status: typeof status === "number" ? status : null,
    title: typeof title === "string" ? title : null,
    checked_at: w.checked_at,
    changed_at: w.changed_at,
  };
}

/** The uptime summary without what GET /site already says (the host) or leaves to GET /uptime. */
function uptimeOf(u: Awaited<ReturnType<typeof uptimeSummary>>) {
  const { host: _host, last_status: _status, ...rest } = u;
  return rest;
}
