import { DEFAULT_UPTIME_RULES, EVENTS, newEvent, nextUptimeState, type UptimeTransition } from "../../analyzer/index.ts";
import { ProbeTarget, StreamItem, TOPICS } from "../../proto/index.ts";
import type { Config } from "../../runtime/index.ts";
import type { DueProbe, IncidentKind, NewEvent, OutboxMessage, ProbeRow, Repositories, Store, TargetState, UptimeTargetRow } from "../../storage/index.ts";
import { domainKey } from "../messages.ts";
import type { SchedulerStreamKind } from "./stream-kind.ts";

/** The bus messages of due probes: one StreamItem per registrable domain (its crawler node runs them together). */
export function probeMessages(due: readonly DueProbe[], config: Config, nowMs: number): OutboxMessage[] {
  const byDomain = new Map<string, DueProbe[]>();
  for (const d of due) {
    const key = domainKey(d.host);
    const list = byDomain.get(key) ?? [];
    list.push(d);
    byDomain.set(key, list);
  }
  return [...byDomain].map(([domain, list]) => probeMessage(domain, list, false, config, nowMs));
}

function probeMessage(key: string, due: readonly DueProbe[], confirm: boolean, config: Config, nowMs: number, avoidNode = ""): OutboxMessage {
  const item = StreamItem.fromPartial({
    plannedMs: nowMs,
    avoidNode,
    task: {
      $case: "probe",
      value: {
        targets: due.map((d) => ProbeTarget.fromPartial({ host: d.host, url: d.url, slot: d.slot, confirm, timeoutMs: config.uptimeTimeoutMs, keyword: d.keyword, schemeUnknown: d.schemeUnknown })),
      },
    },
  });
  return { topic: TOPICS.stream, key, payload: StreamItem.encode(item).finish() };
}

const INCIDENT_OF: Readonly<Record<UptimeTransition, { kind: "down" | "degraded"; opens: boolean }>> = {
  down: { kind: "down", opens: true },
  up: { kind: "down", opens: false },
  degraded: { kind: "degraded", opens: true },
  recovered: { kind: "degraded", opens: false },
};

/** Uptime probe results: stored, and each host's state moved by the state machine (analyzer/uptime-state.ts). */
export const probeStreamKind: SchedulerStreamKind<"probe"> = {
  name: "probe",
  async settle(ctx, store: Pick<Store, "tx" | "uptimeSeries">, result, node) {
    const rows: ProbeRow[] = result.outcomes.map((o) => ({
      host: o.host,
      slot: o.slot,
      confirm: o.confirm,
      at: Math.floor(o.atMs / 1000),
      ok: o.ok,
      status: o.status,
      cause: o.ok ? "" : [o.cause, o.detail].filter(Boolean).join(": "),
      dnsMs: o.dnsMs,
      connectMs: o.connectMs,
      tlsMs: o.tlsMs,
      ttfbMs: o.ttfbMs,
      totalMs: o.totalMs,
      lateMs: Math.max(0, o.atMs - o.slot * 1000),
      node,
      // A node that suspects itself reports failures that say nothing about the sites.
      held: !o.ok && result.nodeSuspect,
      url: o.url,
    }));
    // The series first: a crash before the state's transaction commits redelivers the result,
    // and the series counts a probe stored twice once.
    await store.uptimeSeries.add(rows);
    const rules = { ...DEFAULT_UPTIME_RULES, slowMs: ctx.config.uptimeSlowMs };
    const now = ctx.now();
    await store.tx((t) => settleProbes(t, rows, now, (target, probe) => decide(target, probe, rules, ctx.config, ctx.clock.nowMs())));
  },
};

/** What the state machine decided for one probe result: the target's new state and what follows. */
interface ProbeSettlement {
  readonly target: TargetState;
  /** A new probe URL: the scheme a probe found the site answering on, while no analysis resolved it. */
  readonly url?: string;
  /** A confirmation probe to plan now. */
  readonly confirm?: OutboxMessage;
  readonly open?: { readonly kind: IncidentKind; readonly title: string; readonly cause: string; readonly firstSeen: number };
  readonly close?: { readonly kind: IncidentKind; readonly at: number };
  /** Events, given the incident opened or closed (its id) and the accounts that monitor the host. */
  readonly events?: (incidentId: number | null, accounts: readonly number[]) => NewEvent[];
}

/**
 * Applies a batch of probe results in order, in one unit of work: for each result newer than the
 * last its host applied (a duplicate or an older one changes nothing), the state `decideOne` gives
 * the host, with the incident, the confirmation and the events it asks for. Returns the results
 * applied.
 */
export async function settleProbes(
  t: Pick<Repositories, "uptime" | "incidents" | "sites" | "outbox" | "events">,
  probes: readonly ProbeRow[],
  now: number,
  decideOne: (target: UptimeTargetRow, probe: ProbeRow) => ProbeSettlement,
): Promise<number> {
  const events: NewEvent[] = [];
  let settled = 0;
  for (const p of probes) {
    const target = await t.uptime.lockForProbe(p);
    if (!target) continue;
    const s = decideOne(target, p);
    await t.uptime.recordProbe(p, s.target, s.url);
    if (s.confirm) await t.outbox.enqueue(s.confirm, now);
    let incident: number | null = null;
    if (s.open) incident = await t.incidents.open({ host: p.host, kind: s.open.kind, title: s.open.title, cause: s.open.cause, at: s.open.firstSeen });
    if (s.close) incident = await t.incidents.close(p.host, s.close.kind, s.close.at);
    if (s.events) events.push(...s.events(incident, await t.sites.monitors(p.host)));
    settled += 1;
  }
  // Last in the unit: appends serialise from here to the commit.
  await t.events.add(events, now);
  return settled;
}

function decide(target: UptimeTargetRow, probe: ProbeRow, rules: typeof DEFAULT_UPTIME_RULES, config: Config, nowMs: number): ProbeSettlement {
  const d = nextUptimeState(
    {
      state: target.state,
      since: target.since,
      suspectAt: target.suspect_at,
      fails: target.fails,
      successes: target.successes,
      slow: target.slow,
      recoveringAt: target.recovering_at === null ? null : Number(target.recovering_at),
    },
    { ok: probe.ok, at: probe.at, totalMs: probe.totalMs, confirm: probe.confirm, held: probe.held, cause: probe.cause },
    rules,
  );
  const t = d.target;
  const settlement: ProbeSettlement = {
    target: { state: t.state, since: t.since, suspect_at: t.suspectAt, fails: t.fails, successes: t.successes, slow: t.slow, recovering_at: t.recoveringAt },
    // A site whose scheme no analysis resolved keeps the one its probe found it answering on.
    ...(!target.url_known && probe.ok && probe.url && probe.url !== target.url ? { url: probe.url } : {}),
    // The confirmation goes under another key than the domain's and names the node whose probe
    // failed: that node passes it on (crawler/worker.ts), so with several crawler nodes another
    // one confirms, as a second location would.
    ...(d.confirm ? { confirm: probeMessage(`${domainKey(target.host)}#confirm`, [{ host: target.host, url: target.url, slot: probe.slot, keyword: target.keyword, schemeUnknown: !target.url_known }], true, config, nowMs, probe.node) } : {}),
  };
  if (!d.transition) return settlement;
  const incident = INCIDENT_OF[d.transition];
  const host = target.host;
  const title = incident.kind === "down" ? `${host} is down` : `${host} answers slowly`;
  return {
    ...settlement,
    ...(incident.opens
      ? { open: { kind: incident.kind, title, cause: incident.kind === "down" ? probe.cause : `answers over ${rules.slowMs} ms (${Math.round(probe.totalMs)} ms)`, firstSeen: d.at } }
      : { close: { kind: incident.kind, at: d.at } }),
    events: (incidentId, accounts) => accounts.map((accountId) => uptimeEvent(d.transition!, host, accountId, incidentId, d.at, probe, target)),
  };
}

function uptimeEvent(transition: UptimeTransition, host: string, accountId: number, incidentId: number | null, at: number, probe: ProbeRow, target: UptimeTargetRow): NewEvent {
  const downForS = transition === "up" && target.since !== null ? at - target.since : null;
  return newEvent(EVENTS.UPTIME_EVENTS[transition], { host, at, incident: incidentId, status: probe.status, cause: probe.cause, totalMs: probe.totalMs, downForS }, { accountId, host, perAccount: true });
}
