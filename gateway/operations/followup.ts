import { setTimeout as sleep } from "node:timers/promises";
import { judgeNarrow, narrowArm, recheckModeOf, recheckScopeOf, recheckTarget, VERDICTS_LEGEND, type CheckOutcome, type CrawlContext, type NarrowContext, type NarrowLook, type NarrowResult, type NarrowTask, type RecheckScope, type ReportItem } from "../../analyzer/index.ts";
import { SiteFacts } from "../../proto/index.ts";
import type { RunRow, TaskRow, Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement, type HandlerDeps } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { EFFECT_SOURCES, fixEffects } from "./fix-effects.ts";

/** Spec, Limits: a report younger than this answers a re-check instead of a new run. */
export const RECHECK_REUSE_S = 120;
/** How often a re-check looks whether its run is done while it waits (real time, not the clock: it paces a wait). */
const POLL_MS = 100;
const DAY_S = 86400;

async function ownSite(repos: Pick<Repositories, "sites">, accountId: number, host: string): Promise<void> {
  if (!(await repos.sites.get(accountId, host))) throw new ApiError("not_found", `you do not monitor ${host}`);
}

/** Counts one re-check against the plan's daily re-checks, or answers 429 limit until the next UTC day. */
async function chargeRecheck(repos: Pick<Repositories, "accounts" | "auth">, accountId: number, now: number): Promise<void> {
  const plan = await repos.accounts.planOfAccount(accountId);
  const perDay = plan?.rechecks_per_day ?? 0;
  const day = Math.floor(now / DAY_S);
  if ((await repos.auth.charge(`d:rechecks:${accountId}`, day, 1, perDay)) === null) {
    throw new ApiError("limit", `your plan allows ${perDay} task re-checks a day`, { retryAfter: (day + 1) * DAY_S - now, details: { policy: "rechecks_per_day" } });
  }
}

/** Starts a fresh analysis (uncharged: the re-check was) and waits for its run within the synchronous wait. */
async function freshRun(deps: HandlerDeps, repos: Pick<Repositories, "jobs" | "runs">, accountId: number, host: string): Promise<RunRow> {
  const { jobId } = await deps.scheduler.startAnalysis(accountId, host, true, false);
  const deadline = performance.now() + deps.config.syncWaitMs;
  for (;;) {
    const job = await repos.jobs.getOwned(accountId, jobId);
    if (job?.state === "done" && job.run_id !== null) {
      const run = await repos.runs.byId(job.run_id);
      if (run) return run;
    }
    if (job?.state === "error") throw new ApiError("not_ready", `the re-check's run failed: ${job.error ?? "failed"}`, { retryAfter: 30, details: { job: jobId, reason: job.error } });
    if (performance.now() >= deadline) throw new ApiError("not_ready", "the re-check's run is still going; poll the job, then re-check again (its report will be reused)", { retryAfter: 3, details: { job: jobId, self: `/api/v1/jobs/${jobId}` } });
    await sleep(POLL_MS);
  }
}

function itemOf(run: RunRow, code: string): ReportItem | undefined {
  return run.report.items.find((i) => i.code === code);
}

/** A check's result in its own terms: status and what it measured. */
function inOwnTerms(item: Pick<ReportItem, "status" | "detail" | "value"> | undefined): string {
  if (!item) return "not measured in this check";
  const said = item.detail || (item.value === null ? "" : String(item.value));
  return said ? `${item.status}: ${said.length > 300 ? `${said.slice(0, 299)}…` : said}` : item.status;
}

/**
 * The tasks the re-check's report opened for the account: its run's task.new events. A check that
 * was merely unmeasured before (na, e.g. while the site was down) and fails now is no new task when
 * its task already exists; and a reused first report opened nothing the re-check could add.
 */
async function tasksOpened(repos: Pick<Repositories, "events">, accountId: number, before: RunRow, after: RunRow): Promise<number> {
  if (before.id === after.id) return 0;
  return repos.events.tasksOpenedByRun(accountId, after.host, after.id);
}

/** The label of an outcome in words. */
function labelOf(fixed: boolean, status: string | undefined): string {
  if (fixed) return "Fixed: the check passes now";
  return status !== undefined && status !== "na"
    ? "Still failing: the check does not pass yet"
    : "Not confirmed: the check could not be measured this time; the task stays as it was";
}

/**
 * The narrow look of a re-check (docs/followup.md): one live dns, tls or page check, or a `recheck`
 * look (robots.txt and sitemaps, a few pages), in the synchronous lane, not charged against
 * checks_per_day (the re-check was charged against rechecks_per_day), and the facts its family's
 * checks read.
 */
async function narrowFacts(deps: HandlerDeps, accountId: number, scope: RecheckScope, look: NarrowLook, ctx: NarrowContext) {
  return scope.facts!(ctx, await runLook(deps, accountId, look, scope.target!(ctx)));
}

/** One look in the synchronous lane (uncharged); its result, or 409 not_ready. */
async function runLook(deps: HandlerDeps, accountId: number, look: NarrowLook, task: NarrowTask): Promise<NarrowResult> {
  const answer = await deps.scheduler.runSync(accountId, task, { waitMs: deps.config.syncWaitMs, charge: false });
  if (answer.state === "error") throw new ApiError("not_ready", `the re-check's ${look} look failed: ${answer.error}`, { retryAfter: 30, details: { job: answer.jobId, reason: answer.error } });
  if (answer.state === "running") throw new ApiError("not_ready", `the re-check's ${look} look is still going; poll the job, then re-check again`, { retryAfter: 3, details: { job: answer.jobId, self: `/api/v1/jobs/${answer.jobId}` } });
  // The result is the arm of the task's own kind.
  return { $case: task.$case, value: answer.result } as NarrowResult;
}

/** The site's latest crawl as a crawl-subset family reads it (null: never crawled). */
async function crawlContext(repos: Pick<Repositories, "crawls">, host: string): Promise<CrawlContext | undefined> {
  const crawl = await repos.crawls.latest(host);
  if (!crawl) return undefined;
  const { broken, canonicals } = crawl.report.links;
  const count = (crawl.report.summary as { broken_links?: number }).broken_links ?? broken.length;
  const canonicalCount = (crawl.findings as { canonicalBad?: number } | null)?.canonicalBad ?? canonicals.length;
  return {
    crawledAt: Number(crawl.checked_at),
    brokenCount: Number(count),
    broken: broken.map((b) => ({ url: b.url, status: b.status, error: b.error, sources: b.sources })),
    canonicalCount: Number(canonicalCount),
    canonicals: canonicals.map((c) => ({ url: c.url, target: c.target, problem: c.problem })),
  };
}

/** The outcome of a family that decides in several looks (a crawl subset), its looks taken as `pages` looks of the recheck kind. */
async function decideNarrow(deps: HandlerDeps, accountId: number, scope: RecheckScope, look: NarrowLook, ctx: NarrowContext): Promise<CheckOutcome> {
  return scope.decide!(ctx, async (urls) => {
    const result = await runLook(deps, accountId, look, recheckTarget(ctx, false, urls));
    return narrowArm(result, "recheck")?.facts ?? SiteFacts.fromPartial({});
  });
}

/** A narrow outcome in the report item's shape, for inOwnTerms. */
function asItem(outcome: CheckOutcome): Pick<ReportItem, "status" | "detail" | "value"> {
  return { status: outcome.status, detail: outcome.detail, value: outcome.value };
}

export const recheckTask = implement(contracts.recheckTask, { repos: ["accounts", "auth", "crawls", "events", "jobs", "runs", "tasks"] }, async ({ auth, repos, deps, params, now }) => {
  const accountId = auth!.accountId;
  const task = await repos.tasks.get(accountId, params.id);
  if (!task) throw new ApiError("not_found", `no task ${params.id} in your account`);
  const latest = await repos.runs.latest(task.host);
  const crawl = recheckScopeOf(task.code)?.needsCrawl ? await crawlContext(repos, task.host) : undefined;
  const ctx: NarrowContext = { host: task.host, origin: latest?.report.origin || `https://${task.host}`, code: task.code, item: latest ? itemOf(latest, task.code) : undefined, now, ...(crawl ? { crawl } : {}) };
  const { scope, mode } = recheckModeOf(task.code, ctx);
  // A crawl check (recheck false) is re-checked only through a crawl subset that decides it.
  if ((!task.recheck && scope?.decide === undefined) || mode === "crawl") {
    const reason = scope?.whyNot?.[task.code] ?? "it is judged over the whole crawled site";
    throw new ApiError("unsupported", `task ${task.id} (${task.code}) cannot be re-checked alone: ${reason}; re-check it with POST /crawl/${task.host}`, { details: { code: task.code, reason } });
  }
  await chargeRecheck(repos, accountId, now);

  const reused = latest !== null && now - latest.checked_at < RECHECK_REUSE_S;
  if (!reused && latest !== null && scope !== undefined && mode !== "analysis") {
    // Only what the check reads runs; no new report is stored: the task alone moves.
    const facts = scope.decide ? await decideNarrow(deps, accountId, scope, mode, ctx) : await narrowFacts(deps, accountId, scope, mode, ctx);
    const judged = judgeNarrow(scope, task.code, facts, latest.report);
    const fixed = judged.outcome.status === "pass";
    const row = fixed ? await repos.tasks.markFixed(accountId, task.id, now) : task;
    if (!row) throw new ApiError("not_found", `no task ${params.id} in your account`);
    return {
      body: {
        task: { id: row.id, status: row.status },
        outcome: fixed ? ("fixed" as const) : ("still" as const),
        outcome_label: labelOf(fixed, judged.outcome.status),
        before: inOwnTerms(ctx.item),
        after: inOwnTerms(asItem(judged.outcome)),
        reused_fresh_report: false,
        rank_from: latest.rank,
        rank_to: judged.rankTo,
        new_tasks: judged.newTasks,
        ran: mode,
      },
    };
  }

  const after = reused ? latest : await freshRun(deps, repos, accountId, task.host);
  const before = (reused ? await repos.runs.previous(task.host, after.id) : latest) ?? after;

  const item = itemOf(after, task.code);
  const fixed = item?.status === "pass";
  let row: TaskRow | null = task;
  if (fixed) row = await repos.tasks.markFixed(accountId, task.id, now);
  if (!row) throw new ApiError("not_found", `no task ${params.id} in your account`);
  return {
    body: {
      task: { id: row.id, status: row.status },
      outcome: fixed ? ("fixed" as const) : ("still" as const),
      outcome_label: labelOf(fixed, item?.status),
      before: inOwnTerms(itemOf(before, task.code)),
      after: inOwnTerms(item),
      reused_fresh_report: reused,
      rank_from: before.rank,
      rank_to: after.rank,
      new_tasks: await tasksOpened(repos, accountId, before, after),
      ran: reused ? ("report" as const) : ("analysis" as const),
    },
  };
});

export const getFixEffects = implement(contracts.getFixEffects, { repos: [...EFFECT_SOURCES, "sites"] }, async ({ auth, repos, params, query, now }) => {
  const accountId = auth!.accountId;
  await ownSite(repos, accountId, params.host);
  const { rows, total } = await fixEffects(repos, accountId, { host: params.host, limit: query.limit, offset: query.offset }, now);
  return {
    body: {
      host: params.host,
      effects: rows.map((e) => ({
        task: e.task,
        task_id: e.taskId,
        done_at: e.doneAt,
        metric: e.metric,
        verdict: e.verdict,
        before: e.before,
        after: e.after,
        change_pct: e.changePct,
        band: e.band,
        wait_until: e.waitUntil,
        note: e.note,
      })),
      page: page(query.limit, query.offset, total),
      verdicts: VERDICTS_LEGEND,
    },
  };
});

export const getWorkHistory = implement(contracts.getWorkHistory, { repos: ["incidents", "sites", "tasks", "workNotes"] }, async ({ auth, repos, params, query, now }) => {
  const accountId = auth!.accountId;
  await ownSite(repos, accountId, params.host);
  const since = now - query.days * DAY_S;
  const [fixed, incidents, notes] = await Promise.all([
    repos.tasks.done(accountId, { host: params.host, since }, contracts.WORK_LIST_MAX, 0),
    repos.incidents.ofAccount(accountId, { host: params.host, since, status: "all", limit: contracts.WORK_LIST_MAX, offset: 0 }),
    repos.workNotes.since(accountId, params.host, since, contracts.WORK_LIST_MAX),
  ]);
  return {
    body: {
      host: params.host,
      days: query.days,
      fixed: fixed.rows.map((t) => ({ title: t.title, closed_at: t.done_at ?? t.updated, task_id: t.id, code: t.code })),
      incidents: incidents.rows.map((i) => ({ title: i.title, first_seen: i.first_seen, status: i.status, kind: i.kind, resolved_at: i.resolved_at })),
      notes: notes.map((n) => ({ id: n.id, at: n.at, text: n.text })),
    },
  };
});

export const addWorkNote = implement(contracts.addWorkNote, { repos: ["sites", "workNotes"] }, async ({ auth, repos, params, body, now }) => {
  const accountId = auth!.accountId;
  await ownSite(repos, accountId, params.host);
  const text = body.text.trim();
  if (text === "") throw new ApiError("bad_param", "text must not be blank", { param: "text" });
  const note = await repos.workNotes.add(accountId, params.host, text, now);
  return { status: 201, body: { host: params.host, note: { id: note.id, at: note.at, text: note.text } } };
});

export const followupHandlers = [recheckTask, getFixEffects, getWorkHistory, addWorkNote];
