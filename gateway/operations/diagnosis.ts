import { diagnose, historyDays, historyPoints, LEVEL_ORDER, stability, utcDayOf, weekSummary, type Cause, type Diagnosis, type DiagnosisLevel, type HistoryPoint, type SiteEvidence } from "../../analyzer/index.ts";
import type { Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { EVIDENCE_SOURCES, loadEvidence, type EvidenceSources } from "./diagnosis-evidence.ts";

/** Sites a summary reads at most (more than any plan's site limit). */
export const SUMMARY_SITES_MAX = 1000;

/** Actions kept per site for the account's summaries (every open task, in practice). */
const ACCOUNT_ACTIONS = 10_000;

/** Days of history the current diagnosis reads (rank deltas look 30 days back). */
const CURRENT_DAYS = 1;

export function causeView(c: Cause) {
  return { code: c.code, title: c.title, text: c.text, severity: c.severity, confidence: c.confidence, since: c.since, evidence: c.evidence, fixed_by: c.fixedBy, action: c.action };
}

export function causeBrief(c: Cause | null) {
  return c ? { code: c.code, title: c.title, text: c.text, severity: c.severity, confidence: c.confidence } : null;
}

export interface SiteDiagnosis {
  readonly host: string;
  readonly checkedAt: number | null;
  readonly diagnosis: Diagnosis;
  readonly evidence: SiteEvidence;
}

/** The diagnosis of every site of the account, most severe first (level, then health, then host). */
export async function diagnoseAccount(repos: EvidenceSources & Pick<Repositories, "sites">, accountId: number, now: number): Promise<SiteDiagnosis[]> {
  const { rows } = await repos.sites.list(accountId, SUMMARY_SITES_MAX, 0);
  const out: SiteDiagnosis[] = [];
  for (const site of rows) {
    const ev = await loadEvidence(repos, accountId, site.host, now, CURRENT_DAYS);
    out.push({ host: site.host, checkedAt: ev.runs.at(-1)?.checkedAt ?? null, diagnosis: diagnose(ev, now, ACCOUNT_ACTIONS), evidence: ev });
  }
  return out.sort(
    (a, b) =>
      LEVEL_ORDER[a.diagnosis.level] - LEVEL_ORDER[b.diagnosis.level] ||
      (a.diagnosis.health ?? 101) - (b.diagnosis.health ?? 101) ||
      a.host.localeCompare(b.host),
  );
}

async function ownedSite(repos: Pick<Repositories, "sites">, accountId: number, host: string): Promise<void> {
  if (!(await repos.sites.get(accountId, host))) throw new ApiError("not_found", `you do not monitor ${host}`);
}

export const getDiagnosisAll = implement(contracts.getDiagnosisAll, { repos: [...EVIDENCE_SOURCES, "sites"] }, async ({ auth, repos, now }) => {
  const sites = await diagnoseAccount(repos, auth!.accountId, now);
  return {
    body: {
      sites: sites.map((s) => ({
        host: s.host,
        level: s.diagnosis.level,
        health: s.diagnosis.health,
        root_cause: causeBrief(s.diagnosis.root_cause),
        rank: s.diagnosis.dynamics.rank?.value ?? null,
        checked_at: s.checkedAt,
        completeness: s.diagnosis.completeness.score,
      })),
    },
  };
});

export const getDiagnosis = implement(contracts.getDiagnosis, { repos: [...EVIDENCE_SOURCES, "sites"] }, async ({ auth, repos, params, now }) => {
  await ownedSite(repos, auth!.accountId, params.host);
  const ev = await loadEvidence(repos, auth!.accountId, params.host, now, CURRENT_DAYS);
  const d = diagnose(ev, now);
  return {
    body: {
      diagnosis: {
        host: params.host,
        checked_at: ev.runs.at(-1)?.checkedAt ?? null,
        level: d.level,
        health: d.health,
        root_cause: d.root_cause ? causeView(d.root_cause) : null,
        causes: d.causes.map(causeView),
        zones: d.zones,
        dynamics: d.dynamics,
        completeness: d.completeness,
        actions: d.actions,
      },
    },
  };
});

/** Days the week summary reads (7 days and the end of the day before them). */
const WEEK_DAYS = 8;

/**
 * The stamp finished days' points are stored under: what can rewrite a past day (imports of search
 * data for the site, the checks the profile excludes). Runs, probes and task changes only add to
 * the present: they leave finished days as they were.
 */
async function historyStamp(repos: Pick<Repositories, "diagnosisDays" | "profiles">, accountId: number, host: string): Promise<string> {
  const [imports, profile] = await Promise.all([repos.diagnosisDays.importStamp(accountId, host), repos.profiles.get(accountId, host)]);
  return `${imports}|x${[...(profile?.exclude ?? [])].sort().join(",")}`;
}

/**
 * The history's daily points (docs/diagnosis.md, "materialised"): finished days come from
 * diagnosis_days when stored under the current stamp; the missing ones are computed once on the
 * evidence as it stood at each day's end and stored; today's point (as of now) is always computed.
 * When every finished day is stored, only the week's evidence is loaded.
 */
export async function materialisedHistory(repos: EvidenceSources & Pick<Repositories, "diagnosisDays">, accountId: number, host: string, now: number, days: number): Promise<{ points: HistoryPoint[]; ev: SiteEvidence; computed: number }> {
  const today = utcDayOf(now);
  const wanted = historyDays(now, days);
  const finished = wanted.filter((d) => d < today);
  const stamp = await historyStamp(repos, accountId, host);
  const stored = finished.length > 0 ? await repos.diagnosisDays.range(accountId, host, finished[0]!, finished.at(-1)!, stamp) : [];
  const byDay = new Map(stored.map((r) => [r.day, { day: r.day, health: r.health, level: r.level as DiagnosisLevel, rank: r.rank, root_cause: r.root_cause }]));
  const missing = finished.filter((d) => !byDay.has(d));
  if (missing.length === 0) {
    const ev = await loadEvidence(repos, accountId, host, now, WEEK_DAYS);
    const [todayPoint] = historyPoints(ev, now, 1);
    return { points: [...finished.map((d) => byDay.get(d)!), todayPoint!], ev, computed: 1 };
  }
  const ev = await loadEvidence(repos, accountId, host, now, Math.max(days, WEEK_DAYS));
  const fresh = historyPoints(ev, now, days, new Set([...missing, today]));
  const computed = new Map(fresh.map((p) => [p.day, p]));
  await repos.diagnosisDays.put(accountId, host, stamp, missing.map((d) => computed.get(d)!), now);
  return { points: wanted.map((d) => byDay.get(d) ?? computed.get(d)!), ev, computed: fresh.length };
}

export const getDiagnosisHistory = implement(contracts.getDiagnosisHistory, { repos: [...EVIDENCE_SOURCES, "diagnosisDays", "sites"] }, async ({ auth, repos, params, query, now }) => {
  await ownedSite(repos, auth!.accountId, params.host);
  const { points, ev } = await materialisedHistory(repos, auth!.accountId, params.host, now, query.days);
  return { body: { host: params.host, days: query.days, stability: stability(points), points, week: weekSummary(ev, now) } };
});

export const diagnosisHandlers = [getDiagnosisAll, getDiagnosis, getDiagnosisHistory];
