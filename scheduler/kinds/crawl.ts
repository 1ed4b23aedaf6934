import { CrawlFindings, CrawlTask, type CrawlResult } from "../../proto/index.ts";
import type { JobRow, Repositories, StoredCrawlReport } from "../../storage/index.ts";
import { chooseFromCrawl, watchedUrls } from "../watchdog.ts";
import { ANALYSIS_REPOS, settleAnalysis } from "./analyze.ts";
import { defineKind, type KindContext } from "./kind.ts";

/** A whole-site crawl counts as three checks against the plan's daily limit (spec, Limits). */
export const CRAWL_COST = 3;

/** A whole-site crawl with its analysis; a crawl younger than SVC_REPORT_FRESH_S answers instead. */
export const crawlKind = defineKind({
  name: "crawl",
  uses: [...ANALYSIS_REPOS, "accounts", "crawlPages"],
  cost: CRAWL_COST,
  async reuse(ctx, repos, host) {
    const crawl = await repos.crawls.latest(host);
    return crawl?.run_id && crawl.checked_at >= ctx.now() - ctx.config.reportFreshSeconds ? crawl.run_id : null;
  },
  async task(ctx, repos, job) {
    // The limits of the owner's plan, else the configured defaults.
    const plan = await repos.accounts.planOfAccount(job.account_id);
    return CrawlTask.fromPartial({
      pageSample: ctx.config.crawl.pageSample,
      maxPages: plan?.crawl_pages ?? ctx.config.plan.crawlPages,
      maxDepth: plan?.crawl_depth ?? ctx.config.plan.crawlDepth,
      watch: await watchedUrls(repos, job.host, ctx.config.watchPages),
    });
  },
  settle: async (ctx, t, job, result) => ({ runId: await settleCrawl(ctx, t, job, result) }),
});

/**
 * A finished crawl: the per-page link figures, then its run (rank with the crawl checks decided by
 * its findings, tasks, events, as any analysis) and its report, all through `t`, the job's
 * completion's unit of work — except where the crawl pages live outside the account database
 * (ClickHouse): there the figures are written at once, before `t` commits. Writing them is
 * idempotent, so a completion that fails after them and is retried only writes them again; until
 * `t` commits, no crawls row points GET /crawl at the job.
 */
async function settleCrawl(ctx: KindContext, t: Pick<Repositories, (typeof ANALYSIS_REPOS)[number] | "crawlPages">, job: JobRow, crawl: CrawlResult): Promise<number> {
  const facts = crawl.facts;
  if (!facts) throw new Error("a crawl result without facts");
  await t.crawlPages.setLinkStats(job, crawl.pageStats);
  // The crawl knows the site's link rank: its most important pages become the watched ones.
  if ((await t.sites.monitors(job.host)).length > 0) await chooseFromCrawl(t, job.host, facts, crawl.pageStats, ctx.config.watchPages);
  const runId = await settleAnalysis(ctx, t, job, facts);
  // The crawler's whole-crawl analysis wrote it from a CrawlReport; it is stored as it came.
  const report = JSON.parse(crawl.reportJson) as StoredCrawlReport;
  await t.crawls.settle({
    job_id: job.id,
    host: job.host,
    run_id: runId,
    checked_at: facts.crawl?.crawledAt || ctx.now(),
    findings: CrawlFindings.toJSON(facts.crawl ?? CrawlFindings.fromPartial({})),
    report,
  });
  return runId;
}
