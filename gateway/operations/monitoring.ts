import { uptimePercent } from "../../analyzer/index.ts";
import type { EventRecord, IncidentRow, Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";

/** An event as the feed shows it. */
export function eventView(e: EventRecord) {
  return { id: e.id, type: e.type, kind: e.kind, level: e.level, host: e.host, text: e.text, created: e.created, data: (e.payload ?? {}) };
}

export const listEvents = implement(contracts.listEvents, { repos: ["events"] }, async ({ auth, repos, query, now }) => {
  const { rows, total } = await repos.events.list({
    accountId: auth!.accountId,
    ...(query.type !== undefined ? { type: query.type } : {}),
    ...(query.level !== undefined ? { level: query.level } : {}),
    ...(query.host !== undefined ? { host: query.host } : {}),
    ...(query.days !== undefined ? { since: now - query.days * 86400 } : {}),
    ...(query.after_id !== undefined ? { afterId: query.after_id } : {}),
    limit: query.limit,
    offset: query.offset,
  });
  return { body: { total, events: rows.map(eventView), page: page(query.limit, query.offset, total) } };
});

/** An incident as the API shows it. */
export function incidentView(i: IncidentRow, now: number) {
  return { ...i, duration: Math.max(0, (i.resolved_at ?? now) - i.first_seen) };
}

/** Uptime of a host over the last `seconds`, as a percentage of the time observed (null before the first probe). */
async function uptimeOver(incidents: Repositories["incidents"], host: string, firstProbe: number | null, down: boolean, seconds: number, now: number): Promise<number | null> {
  if (firstProbe === null) return null;
  const from = Math.max(now - seconds, firstProbe);
  // Observed for no time yet (the first probe is now): the state is all there is.
  if (now <= from) return down ? 0 : 100;
  return uptimePercent(await incidents.downSeconds(host, from, now), now - from);
}

/** The uptime summary of a host (GET /uptime and the uptime block of GET /site). */
export async function uptimeSummary(store: Pick<Repositories, "uptime" | "incidents">, host: string, now: number) {
  const t = await store.uptime.target(host);
  const firstProbe = t?.first_probe ?? null;
  const state = t?.state ?? "unknown";
  return {
    host,
    // A suspicion is not a confirmed down: up stays true until a second probe confirms the failure.
    up: state === "unknown" ? null : state !== "down",
    state,
    since: t?.since ?? null,
    interval_min: Math.max(1, Math.round((t?.interval_s ?? 300) / 60)),
    last_check: t?.last_check ?? null,
    last_status: t?.last_check ? (t.last_status ?? null) : null,
    uptime_24h: await uptimeOver(store.incidents, host, firstProbe, state === "down", 86_400, now),
    uptime_7d: await uptimeOver(store.incidents, host, firstProbe, state === "down", 7 * 86_400, now),
    uptime_30d: await uptimeOver(store.incidents, host, firstProbe, state === "down", 30 * 86_400, now),
  };
}

export const getUptime = implement(contracts.getUptime, { repos: ["incidents", "sites", "uptime", "uptimeSeries"] }, async ({ auth, repos, params, now }) => {
  if (!(await repos.sites.get(auth!.accountId, params.host))) throw new ApiError("not_found", `you do not monitor ${params.host}`);
  const summary = await uptimeSummary(repos, params.host, now);
  const incidents = await repos.incidents.latest(params.host, 20);
  const timings = await repos.uptimeSeries.lastTimings(params.host);
  const window = async (seconds: number) => {
    // To the end of the current second: a probe that ran this second counts.
    const s = await repos.uptimeSeries.summary(params.host, now - seconds, now + 1);
    return { probes: s.probes, failed: s.failed, avg_total_ms: s.avgTotalMs === null ? null : Math.round(s.avgTotalMs * 10) / 10 };
  };
  const probes = { last_24h: await window(86_400), last_7d: await window(7 * 86_400) };
  return { body: { ...summary, last_timings: timings, probes, incidents: incidents.map((i) => incidentView(i, now)) } };
});

export const listIncidents = implement(contracts.listIncidents, { repos: ["incidents"] }, async ({ auth, repos, query, now }) => {
  const { rows, total } = await repos.incidents.ofAccount(auth!.accountId, {
    ...(query.host !== undefined ? { host: query.host } : {}),
    since: now - query.days * 86400,
    status: query.status,
    limit: query.limit,
    offset: query.offset,
  });
  return { body: { days: query.days, host: query.host ?? null, incidents: rows.map((i) => incidentView(i, now)), page: page(query.limit, query.offset, total) } };
});

export const monitoringHandlers = [listEvents, getUptime, listIncidents];
