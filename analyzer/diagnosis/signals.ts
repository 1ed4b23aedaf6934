// The measurements several rules and zones share, each a pure function of the evidence at `now`.
import { DAY_S, daysBefore, type DayValue, type IncidentEvidence, type RunEvidence, type SiteEvidence } from "./evidence.ts";

/** A fall of at least this share (traffic, indexed pages) counts as a drop. */
export const DROP_SHARE = 0.2;

const round1 = (x: number): number => Math.round(x * 10) / 10;

export interface SeriesChange {
  /** Mean per day over the last 7 days of data. */
  readonly recent: number;
  /** Mean per day over the 21 days before them. */
  readonly before: number;
  /** (recent − before) ÷ before × 100, one decimal. */
  readonly changePct: number;
  /** The last day with data. */
  readonly lastDay: string;
}

/**
 * Daily clicks of the last 7 days with data against the 21 days before (whole weeks, so the
 * weekday pattern cancels). Null with fewer than 14 days or nothing before.
 */
export function trafficChange(clicks: readonly DayValue[]): SeriesChange | null {
  const last = clicks.at(-1);
  if (!last || clicks.length < 14) return null;
  const recentFrom = daysBefore(last.day, 6);
  const beforeFrom = daysBefore(last.day, 27);
  const mean = (xs: readonly DayValue[]) => xs.reduce((a, d) => a + d.value, 0) / xs.length;
  const recent = clicks.filter((d) => d.day >= recentFrom);
  const before = clicks.filter((d) => d.day >= beforeFrom && d.day < recentFrom);
  if (recent.length === 0 || before.length === 0) return null;
  const b = mean(before);
  if (b === 0) return null;
  const r = mean(recent);
  return { recent: round1(r), before: round1(b), changePct: round1(((r - b) / b) * 100), lastDay: last.day };
}

export interface IndexChange {
  readonly from: number;
  readonly to: number;
  readonly fromDay: string;
  readonly toDay: string;
  readonly changePct: number;
}

/** Indexed pages now against the highest count of the 30 days before the last point (null with fewer than 2 points). */
export function indexChange(indexed: readonly DayValue[]): IndexChange | null {
  const last = indexed.at(-1);
  if (!last || indexed.length < 2) return null;
  const from = daysBefore(last.day, 30);
  let peak: DayValue | null = null;
  for (const d of indexed.slice(0, -1)) if (d.day >= from && (!peak || d.value > peak.value)) peak = d;
  if (!peak || peak.value === 0) return null;
  return { from: peak.value, to: last.value, fromDay: peak.day, toDay: last.day, changePct: round1(((last.value - peak.value) / peak.value) * 100) };
}

/** Seconds the site was down (down incidents) within [from, to). */
export function downSeconds(incidents: readonly IncidentEvidence[], from: number, to: number): number {
  let s = 0;
  for (const i of incidents) {
    if (i.kind !== "down") continue;
    const end = Math.min(i.resolvedAt ?? to, to);
    s += Math.max(0, end - Math.max(i.firstSeen, from));
  }
  return s;
}

/** Uptime % over the 7 days before now (from the first probe when later), null without probes. */
export function uptime7d(ev: SiteEvidence, now: number): number | null {
  if (!ev.uptime) return null;
  const from = Math.max(now - 7 * DAY_S, ev.uptime.firstProbe);
  const open = ev.uptime.incidents.some((i) => i.kind === "down" && i.resolvedAt === null);
  if (now <= from) return open ? 0 : 100;
  return round1(100 * (1 - downSeconds(ev.uptime.incidents, from, now) / (now - from)));
}

/** The open incident of a kind, if any. */
export function openIncident(ev: SiteEvidence, kind: string): IncidentEvidence | null {
  return ev.uptime?.incidents.find((i) => i.kind === kind && i.resolvedAt === null) ?? null;
}

/** The latest run and the one before it. */
export function lastTwoRuns(ev: SiteEvidence): { latest: RunEvidence | null; previous: RunEvidence | null } {
  return { latest: ev.runs.at(-1) ?? null, previous: ev.runs.at(-2) ?? null };
}

/**
 * The run from which a check has failed without a break up to the latest run (null when the latest
 * run does not fail it).
 */
export function failingSince(runs: readonly RunEvidence[], code: string): RunEvidence | null {
  let since: RunEvidence | null = null;
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as RunEvidence;
    if (!run.failing.some((f) => f.code === code)) break;
    since = run;
  }
  return since;
}
