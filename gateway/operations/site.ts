import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { storedReport } from "./report-view.ts";
import { taskView } from "./tasks.ts";

export const getSite = implement(contracts.getSite, async ({ auth, deps, params }) => {
  const host = params.host;
  const run = await deps.store.runs.latest(host);
  if (!run) {
    if (await deps.store.runs.knownTo(auth!.accountId, host)) throw new ApiError("not_ready", `${host} has no finished check yet`, { retryAfter: 30 });
    throw new ApiError("not_found", `no check of ${host} is known to your account`);
  }
  const report = storedReport(run);
  const history = await deps.store.runs.historySpan(host);
  const tasks = (await deps.store.tasks.forHost(auth!.accountId, host)).filter((t) => t.status === "open");
  const events = await deps.store.events.recentForHost(auth!.accountId, host, 10);
  const pages = new Set(report.items.flatMap((i) => i.pages));
  return {
    body: {
      host,
      checked_at: run.checked_at,
      rank: { value: run.rank, label: run.label, groups: report.groups },
      search: null,
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
      crawl: null,
      uptime: null,
      watchdog_changes: null,
      watched_pages: null,
      events: events.map((e) => ({ id: e.id, type: e.type, level: e.level, created: e.created, data: e.payload })),
    },
  };
});

export const siteHandlers = [getSite];
