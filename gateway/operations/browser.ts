import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { latestRun } from "./reports.ts";
import { storedReport } from "./report-view.ts";

const BEFORE_BROWSER = "This check was stored before Svc recorded browser runs; the next check will have them.";

export const getPerformance = implement(contracts.getPerformance, { repos: ["runs"] }, async ({ auth, repos, params }) => {
  const run = await latestRun(repos, auth!.accountId, params.host);
  const report = storedReport(run);
  const checks = report.items
    .filter((i) => i.rank_group === "performance")
    .map((i) => ({ code: i.code, title: i.title, status: i.status, value: i.value, group: i.group }));
  const b = report.browser;
  return { body: { host: params.host, checked_at: run.checked_at, checks, browser: b?.pages ?? [], note: b?.note ?? BEFORE_BROWSER, browser_state: b?.state ?? "unknown" } };
});

export const getJsDependency = implement(contracts.getJsDependency, { repos: ["runs"] }, async ({ auth, repos, params }) => {
  const run = await latestRun(repos, auth!.accountId, params.host);
  const b = storedReport(run).browser;
  if (!b) throw new ApiError("not_ready", `${params.host}'s latest check predates browser rendering; run a new check`, { retryAfter: 30 });
  return { body: { host: params.host, checked_at: run.checked_at, summary: b.js.summary, verdict: b.js.verdict, pages: b.js.pages, note: b.note } };
});

export const getSocial = implement(contracts.getSocial, { repos: ["runs"] }, async ({ auth, repos, params }) => {
  const run = await latestRun(repos, auth!.accountId, params.host);
  const b = storedReport(run).browser;
  if (!b) throw new ApiError("not_ready", `${params.host}'s latest check predates social cards; run a new check`, { retryAfter: 30 });
  const s = b.social;
  return { body: { host: params.host, checked_at: run.checked_at, profiles: s.profiles, cards: s.cards, card_score: s.card_score, pages: s.pages, checks: s.checks } };
});

export const browserHandlers = [getPerformance, getJsDependency, getSocial];
