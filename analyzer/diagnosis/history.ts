// The diagnosis's daily history: the same health and level, computed on the evidence as it stood
// at the end of each day (asOf), so a point never uses what was learnt later.
import { asOf, DAY_S, dayOf, dayStart, daysBefore, type SiteEvidence } from "./evidence.ts";
import { healthAt, type DiagnosisLevel } from "./diagnose.ts";
import { downSeconds } from "./signals.ts";

export interface HistoryPoint {
  readonly day: string;
  readonly health: number | null;
  readonly level: DiagnosisLevel;
  /** The rank of the latest check by the end of the day. */
  readonly rank: number | null;
  readonly root_cause: string | null;
}

export interface DiagnosisWeek {
  readonly from: string;
  readonly to: string;
  readonly health_from: number | null;
  readonly health_to: number | null;
  readonly delta: number | null;
  readonly checks: number;
  readonly incidents: number;
  readonly down_min: number;
  readonly tasks_new: number;
  readonly tasks_fixed: number;
}

/** A day-to-day change of the health below this many points counts as stable. */
export const STABLE_POINTS = 5;

/** The days of the last `days` days, oldest first (today last). */
export function historyDays(now: number, days: number): string[] {
  const today = dayOf(now);
  return Array.from({ length: days }, (_, i) => daysBefore(today, days - 1 - i));
}

/**
 * Daily points of the last `days` days (today last; today's point is as of now). `only`: compute
 * just these days (the others are stored: the gateway's materialised history).
 */
export function historyPoints(ev: SiteEvidence, now: number, days: number, only?: ReadonlySet<string>): HistoryPoint[] {
  const out: HistoryPoint[] = [];
  for (const day of historyDays(now, days)) {
    if (only && !only.has(day)) continue;
    const t = Math.min(now, dayStart(day) + DAY_S - 1);
    const at = asOf(ev, t);
    const h = healthAt(at, t);
    out.push({ day, health: h.health, level: h.level, rank: at.runs.at(-1)?.rank ?? null, root_cause: h.root_cause?.code ?? null });
  }
  return out;
}

/** Share (%) of consecutive days, both with a health, whose health moved less than STABLE_POINTS; null without such a pair. */
export function stability(points: readonly HistoryPoint[]): number | null {
  let pairs = 0;
  let stable = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!.health;
    const b = points[i]!.health;
    if (a === null || b === null) continue;
    pairs += 1;
    if (Math.abs(b - a) < STABLE_POINTS) stable += 1;
  }
  return pairs === 0 ? null : Math.round((stable / pairs) * 100);
}

/** The last 7 days (today included) in figures. */
export function weekSummary(ev: SiteEvidence, now: number): DiagnosisWeek {
  const points = historyPoints(ev, now, 8);
  const from = now - 7 * DAY_S;
  const incidents = (ev.uptime?.incidents ?? []).filter((i) => i.firstSeen > from && i.firstSeen <= now);
  const first = points[0]!.health;
  const last = points.at(-1)!.health;
  return {
    from: points[1]!.day,
    to: points.at(-1)!.day,
    health_from: first,
    health_to: last,
    delta: first !== null && last !== null ? last - first : null,
    checks: ev.runs.filter((r) => r.checkedAt > from && r.checkedAt <= now).length,
    incidents: incidents.length,
    down_min: Math.round(downSeconds(ev.uptime?.incidents ?? [], from, now) / 60),
    tasks_new: ev.tasks.filter((t) => t.firstSeen > from && t.firstSeen <= now).length,
    tasks_fixed: ev.tasks.filter((t) => t.status === "done" && t.updated > from && t.updated <= now).length,
  };
}
