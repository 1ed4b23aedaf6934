import { afterAll, analyzeSite, type Analysis } from "../analyzer/index.ts";
import { CrawlFindings, type CrawlResult, type SiteFacts } from "../proto/index.ts";
import { type NewEvent, type JobRow, type Queryable, type Store, type TaskDraftRow } from "../storage/index.ts";

/** Version of the report's shape and of the analyzer's catalogue, stored with every run. */
export const REPORT_VERSION = 1;

export interface StoredReport {
  readonly version: number;
  readonly items: Analysis["items"];
  readonly groups: Analysis["groups"];
  readonly caps: Analysis["caps"];
  /** Caps seen once but not confirmed by the second look (absent in reports stored before it). */
  readonly unconfirmed: Analysis["unconfirmed"];
  readonly tech: Analysis["tech"];
  readonly tasks: Analysis["tasks"];
  readonly origin: string;
  /** The rank if every task's check passed. */
  readonly after: number;
}

/**
 * Turns a job's facts into a run, the tasks of every account that monitors the host, and the
 * events of what changed — all in the job's completion transaction, with deterministic event keys.
 */
export async function settleAnalysis(store: Store, q: Queryable, job: JobRow, given: SiteFacts, now: number, crawlFindingsDays = 30): Promise<number> {
  // The latest whole-site crawl decides the crawl checks of analyses for a while after it.
  let facts = given;
  if (!facts.crawl?.present) {
    const findings = await store.crawls.findingsSince(job.host, now - crawlFindingsDays * 86400, q);
    if (findings !== null) facts = { ...facts, crawl: CrawlFindings.fromJSON(findings) };
  }
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
  };
  const checkedAt = facts.checkedAt > 0 ? facts.checkedAt : now;
  const previous = await store.runs.latest(job.host, q);
  const runId = await store.runs.insert(q, { host: job.host, jobId: job.id, checkedAt, rank: analysis.rank, label: analysis.label, color: analysis.color, report });
  // A repeated completion of the same job returns the same run: the sites' ranks move once.
  if (!previous || previous.id !== runId) await store.sites.recordRun(q, job.host, analysis.rank, analysis.label, checkedAt);

  const failing: TaskDraftRow[] = analysis.tasks.map((t) => ({
    code: t.code,
    title: t.title,
    level: t.level,
    group: t.group,
    impact: t.impact,
    hint: t.hint,
    detail: t.detail,
    source: t.source,
    recheck: t.recheck,
    effort: t.effort,
  }));
  const passing = new Set(analysis.items.filter((i) => i.status === "pass").map((i) => i.code));
  const monitors = await q.query<{ account_id: number }>("SELECT account_id FROM sites WHERE host = $1", [job.host]);
  const events: NewEvent[] = [];
  for (const { account_id: accountId } of monitors) {
    const transitions = await store.tasks.applyRun(q, accountId, job.host, now, failing, passing);
    for (const t of transitions) {
      events.push({
        eventKey: `task:${t.taskId}:run:${runId}:${t.kind}`,
        accountId,
        host: job.host,
        type: "task",
        level: t.kind === "fixed" ? "good" : t.kind === "returned" ? "warn" : "info",
        payload: { task: t.taskId, code: t.code, title: t.title, change: t.kind, run: runId },
      });
    }
    if (previous && previous.id !== runId && previous.rank !== analysis.rank) {
      events.push({
        eventKey: `rank:${job.host}:run:${runId}:account:${accountId}`,
        accountId,
        host: job.host,
        type: "rank",
        level: analysis.rank > previous.rank ? "good" : "bad",
        payload: { from: previous.rank, to: analysis.rank, run: runId },
      });
    }
  }
  events.push(jobEvent(job, "done", { run: runId, rank: analysis.rank }));
  await store.events.append(q, events, now);
  return runId;
}

export function jobEvent(job: JobRow, state: "done" | "error", extra: Record<string, unknown>): NewEvent {
  return {
    eventKey: `job:${job.id}:${state}`,
    accountId: job.account_id,
    host: job.host,
    type: "job",
    level: state === "done" ? "good" : "bad",
    payload: { job: job.id, kind: job.kind, state, ...extra },
  };
}

/**
 * A finished crawl: the per-page link figures, then its run (rank with the crawl checks decided by
 * its findings, tasks, events, as any analysis) and its report, all in the job's completion
 * transaction `q` — except where the crawl pages live outside the account database (ClickHouse):
 * there the figures are written at once, before `q` commits. Writing them is idempotent, so a
 * completion that fails after them and is retried only writes them again; until `q` commits, no
 * crawls row points GET /crawl at the job.
 */
export async function settleCrawl(store: Store, q: Queryable, job: JobRow, crawl: CrawlResult, now: number): Promise<number> {
  const facts = crawl.facts;
  if (!facts) throw new Error("a crawl result without facts");
  await store.crawlPages.setLinkStats(job.id, crawl.pageStats, q);
  const runId = await settleAnalysis(store, q, job, facts, now);
  let report: unknown;
  try {
    report = JSON.parse(crawl.reportJson);
  } catch {
    report = {};
  }
  await store.crawls.settle(q, {
    job_id: job.id,
    host: job.host,
    run_id: runId,
    checked_at: facts.crawl?.crawledAt || now,
    findings: CrawlFindings.toJSON(facts.crawl ?? CrawlFindings.fromPartial({})),
    report,
  });
  return runId;
}
