import { byActionValue, changesSince, type FixEffect } from "../../analyzer/index.ts";
import * as contracts from "../contracts/index.ts";
import { implement } from "../registry/operation.ts";
import { causeBrief, diagnoseAccount, SUMMARY_SITES_MAX } from "./diagnosis.ts";
import { EVIDENCE_SOURCES } from "./diagnosis-evidence.ts";
import { EFFECT_SOURCES, fixEffects } from "./fix-effects.ts";
import { eventView, incidentView } from "./monitoring.ts";

const DAY_S = 86_400;
/** Actions, results and tasks to verify shown at most. */
const ACTIONS_SHOWN = 10;
const EFFECTS_SHOWN = 20;
const EVENTS_SHOWN = 50;
/** "Recently done" for results and verify. */
const RECENT_DAYS = 30;
/** Done tasks whose effects are read at most (newest done first). */
const DONE_READ = 200;

const round1 = (x: number): number => Math.round(x * 10) / 10;

function effectRow(e: FixEffect) {
  return { host: e.host, task_id: e.taskId, task: e.task, done_at: e.doneAt, metric: e.metric, verdict: e.verdict, before: e.before, after: e.after, change_pct: e.changePct, note: e.note };
}

export const getToday = implement(contracts.getToday, { repos: [...EVIDENCE_SOURCES, ...EFFECT_SOURCES, "sites", "events"] }, async ({ auth, repos, now }) => {
  const accountId = auth!.accountId;
  const yesterday = now - DAY_S;
  const [sites, siteRows, open, down, events, done] = await Promise.all([
    diagnoseAccount(repos, accountId, now),
    repos.sites.list(accountId, SUMMARY_SITES_MAX, 0),
    repos.incidents.ofAccount(accountId, { since: 0, status: "open", limit: 200, offset: 0 }),
    repos.uptime.downHosts(accountId),
    repos.events.list({ accountId, since: yesterday, limit: EVENTS_SHOWN, offset: 0 }),
    fixEffects(repos, accountId, { limit: DONE_READ, offset: 0 }, now),
  ]);
  const rowOf = new Map(siteRows.rows.map((r) => [r.host, r]));
  const online = await repos.uptime.online(siteRows.rows.map((r) => r.host));

  // Causes' actions first (sites most severe first), then every other open task by value.
  const all = sites.flatMap((s) => s.diagnosis.actions.map((a) => ({ host: s.host, ...a })));
  const actions = [...all.filter((a) => a.cause !== null), ...all.filter((a) => a.cause === null).sort(byActionValue)].map((a, i) => ({ ...a, order: i + 1 }));

  const changes = sites.flatMap((s) => changesSince(s.evidence, yesterday).map((c) => ({ host: s.host, ...c }))).sort((a, b) => b.at - a.at || a.host.localeCompare(b.host) || a.title.localeCompare(b.title));
  const recent = done.rows.filter((e) => e.doneAt >= now - RECENT_DAYS * DAY_S);
  const results = recent.filter((e) => e.verdict !== "wait");
  const waiting = recent.filter((e) => e.verdict === "wait");
  const healths = sites.map((s) => s.diagnosis.health).filter((h): h is number => h !== null);
  const tasks = sites.flatMap((s) => s.evidence.tasks);
  const openTasks = tasks.filter((t) => t.status === "open");
  const levelCount = (level: string) => sites.filter((s) => s.diagnosis.level === level).length;

  return {
    body: {
      kpi: {
        sites: sites.length,
        checked: sites.filter((s) => s.checkedAt !== null).length,
        avg_health: healths.length === 0 ? null : round1(healths.reduce((a, b) => a + b, 0) / healths.length),
        critical: levelCount("critical"),
        bad: levelCount("bad"),
        warn: levelCount("warn"),
        ok: levelCount("ok"),
        unknown: levelCount("unknown"),
        down: down.length,
        incidents_open: open.total,
        open_tasks: openTasks.length,
        crit_tasks: openTasks.filter((t) => t.level === "bad").length,
        potential_gain: round1(openTasks.reduce((a, t) => a + t.impact, 0)),
        tasks_new_24h: tasks.filter((t) => t.firstSeen >= yesterday).length,
        tasks_fixed_24h: tasks.filter((t) => t.status === "done" && t.updated >= yesterday).length,
        improved_30d: results.filter((e) => e.verdict === "improved").length,
        worse_30d: results.filter((e) => e.verdict === "worse").length,
      },
      sites: sites.map((s) => {
        const row = rowOf.get(s.host);
        const own = s.evidence.tasks.filter((t) => t.status === "open");
        return {
          host: s.host,
          level: s.diagnosis.level,
          health: s.diagnosis.health,
          rank: row?.rank ?? null,
          rank_delta: row?.rank != null && row.prev_rank != null ? row.rank - row.prev_rank : null,
          online: online.get(s.host) ?? null,
          open_tasks: own.length,
          crit_tasks: own.filter((t) => t.level === "bad").length,
          root_cause: s.diagnosis.root_cause?.code ?? null,
        };
      }),
      actions: actions.slice(0, ACTIONS_SHOWN),
      actions_total: actions.length,
      incidents: open.rows.map((i) => incidentView(i, now)),
      diagnosis: sites
        .filter((s) => s.diagnosis.level === "critical" || s.diagnosis.level === "bad" || s.diagnosis.level === "warn")
        .map((s) => ({ host: s.host, level: s.diagnosis.level, health: s.diagnosis.health, root_cause: causeBrief(s.diagnosis.root_cause) })),
      changes,
      causes: sites.flatMap((s) => (s.diagnosis.root_cause ? [{ host: s.host, ...causeBrief(s.diagnosis.root_cause)! }] : [])),
      results: results.slice(0, EFFECTS_SHOWN).map(effectRow),
      verify: { total: waiting.length, tasks: waiting.slice(0, EFFECTS_SHOWN).map((e) => ({ host: e.host, task_id: e.taskId, task: e.task, metric: e.metric, done_at: e.doneAt, note: e.note })) },
      events_24h: events.rows.map(eventView),
    },
  };
});

export const todayHandlers = [getToday];
