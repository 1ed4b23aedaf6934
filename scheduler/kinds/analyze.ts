import { afterAll, analyzeSite, browserSection, carryBrowserRun, EVENTS, homeNoAnswer, newEvent, performanceRegressions, robotsLines } from "../../analyzer/index.ts";
import { AnalyzeResult, AnalyzeTask, CrawlFindings, type SiteFacts } from "../../proto/index.ts";
import { REPORT_VERSION, type JobRow, type NewEvent, type Repositories, type StoredReport, type TaskDraftRow } from "../../storage/index.ts";
import { jobEvent } from "../job-events.ts";
import { settleSiteIncidents } from "../site-incidents.ts";
import { settleWatchdog, watchedUrls } from "../watchdog.ts";
import { defineKind, type KindContext } from "./kind.ts";

/** The repositories an analysis's settlement writes through (settleAnalysis). */
export const ANALYSIS_REPOS = ["crawls", "runs", "sites", "robots", "tasks", "incidents", "watchdog", "events"] as const;

/** A site analysis: charged one check; a report younger than SVC_REPORT_FRESH_S answers instead. */
export const analyzeKind = defineKind({
  name: "analyze",
  uses: ANALYSIS_REPOS,
  cost: 1,
  async reuse(ctx, repos, host) {
    const run = await repos.runs.latest(host);
    return run && run.checked_at >= ctx.now() - ctx.config.reportFreshSeconds ? run.id : null;
  },
  // A synchronous analysis answers with its run (the answer's run_id): the facts are in its report.
  answer: () => AnalyzeResult.fromPartial({}),
  task: async (ctx, repos, job) => AnalyzeTask.fromPartial({ pageSample: ctx.config.crawl.pageSample, watch: await watchedUrls(repos, job.host, ctx.config.watchPages) }),
  async settle(ctx, t, job, result) {
    if (!result.facts) throw new Error("an analysis result without facts");
    return { runId: await settleAnalysis(ctx, t, job, result.facts) };
  },
});

const TASK_CHANGE = { new: EVENTS.TASK_NEW, fixed: EVENTS.TASK_FIXED, returned: EVENTS.TASK_RETURNED } as const;

/**
 * Turns a job's facts into a run, the tasks of every account that monitors the host, and the
 * events of what changed — all through `t`, the job's completion's unit of work, with deterministic
 * event keys.
 */
export async function settleAnalysis(ctx: KindContext, t: Pick<Repositories, (typeof ANALYSIS_REPOS)[number]>, job: JobRow, given: SiteFacts): Promise<number> {
  const now = ctx.now();
  // The latest whole-site crawl decides the crawl checks of analyses for a while after it.
  let facts = given;
  if (!facts.crawl?.present) {
    const findings = await t.crawls.findingsSince(job.host, now - ctx.config.crawl.crawlFindingsDays * 86400);
    if (findings !== null) facts = { ...facts, crawl: CrawlFindings.fromJSON(findings) };
  }
  // The rank's stability rule for browser metrics: a check without a home-page run carries the last one forward.
  const previous = await t.runs.latest(job.host);
  if (previous) facts = carryBrowserRun(facts, previous.report.browser, previous.checked_at, now);
  const analysis = analyzeSite(facts);
  const report: StoredReport = {
    version: REPORT_VERSION,
    items: analysis.items,
    groups: analysis.groups,
    caps: analysis.caps,
    unconfirmed: analysis.unconfirmed,
    tech: analysis.tech,
    tasks: analysis.tasks,
    origin: facts.origin,
    after: afterAll(analysis),
    browser: browserSection(facts),
  };
  const checkedAt = facts.checkedAt > 0 ? facts.checkedAt : now;
  const runId = await t.runs.insert({ host: job.host, jobId: job.id, checkedAt, rank: analysis.rank, label: analysis.label, color: analysis.color, report });
  // A repeated completion of the same job returns the same run: the sites' ranks move once.
  if (!previous || previous.id !== runId) await t.sites.recordRun(job.host, analysis.rank, analysis.label, checkedAt);
  // robots.txt as this analysis read it, kept when it changed (the diagnosis names the rule that
  // changed). A robots.txt that did not answer (status 0) says nothing about the rules.
  const robotsStatus = facts.robots?.response?.status ?? 0;
  if (facts.robots && robotsStatus > 0) await t.robots.record({ host: job.host, runId, seenAt: checkedAt, status: robotsStatus, lines: robotsStatus === 200 ? robotsLines(facts.robots) : [] });

  const failing: TaskDraftRow[] = analysis.tasks.map((task) => ({
    code: task.code,
    title: task.title,
    level: task.level,
    group: task.group,
    impact: task.impact,
    impactUncapped: task.impact_uncapped,
    hint: task.hint,
    detail: task.detail,
    source: task.source,
    recheck: task.recheck,
    effort: task.effort,
  }));
  const passing = new Set(analysis.items.filter((i) => i.status === "pass").map((i) => i.code));
  const events: NewEvent[] = [];
  // A page measured in the same profile in both checks that got slower.
  const regressions = previous && previous.id !== runId && previous.report.browser && report.browser ? performanceRegressions(previous.report.browser.pages, report.browser.pages) : [];
  const accounts = await t.sites.monitors(job.host);
  for (const accountId of accounts) {
    regressions.forEach((r, i) =>
      events.push(
        newEvent(
          EVENTS.PERFORMANCE_REGRESSED,
          { host: job.host, run: runId, previousRun: previous!.id, index: i, url: r.url, device: r.device, scoreFrom: r.score_from, scoreTo: r.score_to, changes: r.changes, metrics: r.metrics },
          { accountId, host: job.host, perAccount: true },
        ),
      ),
    );
    const transitions = await t.tasks.applyRun(accountId, job.host, now, failing, passing);
    for (const change of transitions) {
      events.push(newEvent(TASK_CHANGE[change.kind], { taskId: change.taskId, code: change.code, title: change.title, host: job.host, run: runId }, { accountId, host: job.host }));
    }
    if (previous && previous.id !== runId && previous.rank !== analysis.rank) {
      events.push(newEvent(EVENTS.RANK_CHANGED, { host: job.host, run: runId, from: previous.rank, to: analysis.rank }, { accountId, host: job.host, perAccount: true }));
    }
  }
  // Incidents are kept for monitored hosts only; a repeated completion finds them settled already.
  if (accounts.length > 0) {
    events.push(...(await settleSiteIncidents(t, { host: job.host, runId, checkedAt, facts, analysis, accounts })));
    events.push(...(await settleWatchdog(t, { host: job.host, runId, checkedAt, facts, accounts, count: ctx.config.watchPages })));
  }
  const unanswered = homeNoAnswer(facts);
  events.push(jobEvent(job, "done", { run: runId, rank: analysis.rank, ...(unanswered !== null ? { unanswered } : {}) }));
  // Last in the unit of work: appends serialise from here to the commit.
  await t.events.add(events, now);
  return runId;
}
