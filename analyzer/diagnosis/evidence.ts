// A site's history as the diagnosis reads it: plain data, loaded once by the gateway's loader and
// cut to any moment with asOf (the daily history is the same diagnosis, cut at each day's end).

/** Where a piece of evidence comes from; a rule names the ones it needs. */
export type EvidenceSource = "report" | "uptime" | "browser" | "search" | "indexing" | "backlinks" | "positions";

export const EVIDENCE_SOURCES: readonly EvidenceSource[] = Object.freeze(["report", "uptime", "browser", "search", "indexing", "backlinks", "positions"]);

/** One finished check of the site (a run), reduced to what the diagnosis reads. */
export interface RunEvidence {
  readonly id: number;
  readonly checkedAt: number;
  readonly rank: number;
  /** The rank groups' scores 0–100 (null: no applicable check). */
  readonly groups: readonly { readonly id: string; readonly score: number | null }[];
  /** Checks that failed or warned in this run. */
  readonly failing: readonly { readonly code: string; readonly title: string; readonly level: "bad" | "warn" | "info" }[];
  /** Checks this run could not measure (na): their failing later is no news about them. */
  readonly unmeasured?: readonly string[];
  /** The home page's browser measurement (mobile when measured), null when the run has none. */
  readonly browser: { readonly score: number | null; readonly lcpMs: number | null } | null;
  /**
   * What the run read of the TLS certificate: tls_cert_valid's problem when it failed (e.g.
   * CERT_HAS_EXPIRED), tls_cert_expiry's days left whatever its status. Absent: not loaded.
   */
  readonly certificate?: { readonly problem: string | null; readonly daysLeft: number | null };
}

export interface IncidentEvidence {
  readonly kind: string;
  readonly title: string;
  readonly cause: string;
  readonly firstSeen: number;
  readonly resolvedAt: number | null;
}

export interface TaskEvidence {
  readonly id: number;
  readonly code: string;
  readonly title: string;
  readonly level: "bad" | "warn" | "info";
  readonly status: "open" | "done" | "ignored";
  /** Rank points the fix is worth. */
  readonly impact: number;
  /** 1 (minutes) … 3 (a day). */
  readonly effort: number;
  readonly firstSeen: number;
  /** When the status last changed. */
  readonly updated: number;
}

/** A daily value, day as YYYY-MM-DD (UTC). */
export interface DayValue {
  readonly day: string;
  readonly value: number;
}

export interface BacklinkEvidence {
  readonly firstSeen: string | null;
  readonly lostAt: string | null;
}

export interface PositionEvidence {
  readonly keyword: string;
  readonly day: string;
  /** null: out of the tracked results. */
  readonly position: number | null;
}

/** A version of the site's robots.txt as analyses read it (stored when it changed; robots-lines.ts). */
export interface RobotsVersionEvidence {
  /** When an analysis first read it (Unix seconds). */
  readonly seenAt: number;
  /** robots.txt's HTTP status (404: no file). */
  readonly status: number;
  /** The canonical rule lines (robotsLines). */
  readonly lines: readonly string[];
}

/** Everything known about one site of an account; absent sources are null (or empty). */
export interface SiteEvidence {
  readonly host: string;
  /** Oldest first. */
  readonly runs: readonly RunEvidence[];
  /** null: the site was never probed. */
  readonly uptime: { readonly firstProbe: number; readonly incidents: readonly IncidentEvidence[] } | null;
  readonly tasks: readonly TaskEvidence[];
  /** Daily search clicks over all engines, oldest first; empty: no search data imported. */
  readonly clicks: readonly DayValue[];
  /** Indexed pages per day (the engine with the most pages), oldest first. */
  readonly indexed: readonly DayValue[];
  readonly backlinks: readonly BacklinkEvidence[];
  readonly positions: readonly PositionEvidence[];
  /**
   * robots.txt's versions, oldest first: the one in force at the start of the evidence's window,
   * then each change (part of the report source: analyses read it). Absent: not loaded.
   */
  readonly robots?: readonly RobotsVersionEvidence[];
}

export const DAY_S = 86_400;

/** The UTC day (YYYY-MM-DD) of a Unix time. */
export function dayOf(t: number): string {
  return new Date(t * 1000).toISOString().slice(0, 10);
}

/** Unix seconds of the start of a UTC day. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/** The day `n` days before `day`. */
export function daysBefore(day: string, n: number): string {
  return dayOf(dayStart(day) - n * DAY_S);
}

/** The sources the evidence holds. */
export function presentSources(ev: SiteEvidence): Set<EvidenceSource> {
  const out = new Set<EvidenceSource>();
  if (ev.runs.length > 0) out.add("report");
  if (ev.uptime) out.add("uptime");
  if (ev.runs.some((r) => r.browser?.score != null)) out.add("browser");
  if (ev.clicks.length > 0) out.add("search");
  if (ev.indexed.length > 0) out.add("indexing");
  if (ev.backlinks.length > 0) out.add("backlinks");
  if (ev.positions.length > 0) out.add("positions");
  return out;
}

/**
 * The evidence as it stood at time t: later runs, probes, imports and task changes are cut; an
 * incident resolved after t is open at t. (Imported data is dated by its day, not by its import.)
 */
export function asOf(ev: SiteEvidence, t: number): SiteEvidence {
  const day = dayOf(t);
  return {
    host: ev.host,
    runs: ev.runs.filter((r) => r.checkedAt <= t),
    uptime:
      ev.uptime && ev.uptime.firstProbe <= t
        ? {
            firstProbe: ev.uptime.firstProbe,
            incidents: ev.uptime.incidents.filter((i) => i.firstSeen <= t).map((i) => (i.resolvedAt !== null && i.resolvedAt > t ? { ...i, resolvedAt: null } : i)),
          }
        : null,
    tasks: ev.tasks.filter((k) => k.firstSeen <= t).map((k) => (k.updated > t && k.status !== "open" ? { ...k, status: "open" as const } : k)),
    clicks: ev.clicks.filter((d) => d.day <= day),
    indexed: ev.indexed.filter((d) => d.day <= day),
    backlinks: ev.backlinks.filter((b) => b.firstSeen === null || b.firstSeen <= day).map((b) => (b.lostAt !== null && b.lostAt > day ? { ...b, lostAt: null } : b)),
    positions: ev.positions.filter((p) => p.day <= day),
    ...(ev.robots ? { robots: ev.robots.filter((v) => v.seenAt <= t) } : {}),
  };
}
