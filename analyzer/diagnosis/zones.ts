// Health zones and the health score. A zone is a part of the site's health with its own source:
// the rank groups of the latest report, availability (uptime), speed (the browser's home page),
// index coverage (imported index status) and traffic (imported clicks).
import { EVIDENCE_SOURCES, presentSources, type EvidenceSource, type SiteEvidence } from "./evidence.ts";
import { indexChange, openIncident, trafficChange, uptime7d } from "./signals.ts";

export type ZoneState = "ok" | "warn" | "bad" | "nodata";

export interface Zone {
  readonly zone: string;
  readonly source: EvidenceSource;
  /** 0–100, null without data. */
  readonly score: number | null;
  readonly state: ZoneState;
  readonly note: string;
}

/** Zone score thresholds: ≥ 70 ok, ≥ 50 warn, below bad (the rank bands' good/fair edges). */
export function zoneState(score: number | null): ZoneState {
  if (score === null) return "nodata";
  return score >= 70 ? "ok" : score >= 50 ? "warn" : "bad";
}

/**
 * The health score's parts and weights: the rank (which already weighs the rank groups and their
 * caps) 50, availability 20, speed, index coverage and traffic 10 each; parts without data drop
 * out and the rest renormalise (as the rank does with groups that do not apply).
 */
export const HEALTH_WEIGHTS: Readonly<Record<"rank" | "availability" | "speed" | "index_coverage" | "traffic", number>> = Object.freeze({
  rank: 50,
  availability: 20,
  speed: 10,
  index_coverage: 10,
  traffic: 10,
});

/** Source of each health part. */
export const HEALTH_SOURCES: Readonly<Record<keyof typeof HEALTH_WEIGHTS, EvidenceSource>> = Object.freeze({
  rank: "report",
  availability: "uptime",
  speed: "browser",
  index_coverage: "indexing",
  traffic: "search",
});

const clamp = (x: number): number => Math.round(Math.min(100, Math.max(0, x)));

/** Availability score from 7-day uptime: each 0.1 % lost costs 2 points (99 % → 80, 95 % → 0); an open outage is 0. */
export function availabilityScore(ev: SiteEvidence, now: number): number | null {
  const pct = uptime7d(ev, now);
  if (pct === null) return null;
  if (openIncident(ev, "down")) return 0;
  return clamp(100 - (100 - pct) * 20);
}

/** The site's zones at `now`. */
export function healthZones(ev: SiteEvidence, now: number): Zone[] {
  const latest = ev.runs.at(-1);
  const zones: Zone[] = (latest?.groups ?? []).map((g) => ({
    zone: g.id,
    source: "report" as const,
    score: g.score === null ? null : Math.round(g.score),
    state: zoneState(g.score === null ? null : Math.round(g.score)),
    note: g.score === null ? "no check of this group applies" : `rank group of the check of ${new Date(latest!.checkedAt * 1000).toISOString().slice(0, 10)}`,
  }));
  if (!latest) zones.push({ zone: "report", source: "report", score: null, state: "nodata", note: "the site was never checked" });
  const avail = availabilityScore(ev, now);
  const pct = uptime7d(ev, now);
  zones.push({
    zone: "availability",
    source: "uptime",
    score: avail,
    state: zoneState(avail),
    note: avail === null ? "no uptime probe yet" : openIncident(ev, "down") ? "down now" : `uptime ${pct}% over 7 days`,
  });
  const speed = [...ev.runs].reverse().find((r) => r.browser?.score != null)?.browser?.score ?? null;
  zones.push({ zone: "speed", source: "browser", score: speed, state: zoneState(speed), note: speed === null ? "no browser measurement" : "home page performance score (browser)" });
  const index = indexChange(ev.indexed);
  const indexScore = index ? clamp((index.to / index.from) * 100) : ev.indexed.length > 0 ? 100 : null;
  zones.push({
    zone: "index_coverage",
    source: "indexing",
    score: indexScore,
    state: zoneState(indexScore),
    note: index ? `indexed pages ${index.from} → ${index.to} (${index.changePct}%)` : ev.indexed.length > 0 ? "one index status point" : "no index status imported",
  });
  const traffic = trafficChange(ev.clicks);
  const trafficScore = traffic ? clamp(100 + traffic.changePct) : null;
  zones.push({
    zone: "traffic",
    source: "search",
    score: trafficScore,
    state: zoneState(trafficScore),
    note: traffic ? `clicks per day ${traffic.before} → ${traffic.recent} (${traffic.changePct}%)` : ev.clicks.length > 0 ? "fewer than 14 days of clicks" : "no search data imported",
  });
  return zones;
}

/** The health score 0–100 (null without any part), from the weights above. */
export function healthScore(ev: SiteEvidence, zones: readonly Zone[]): number | null {
  const latest = ev.runs.at(-1);
  const part = (zone: string) => zones.find((z) => z.zone === zone)?.score ?? null;
  const parts: [number, number | null][] = [
    [HEALTH_WEIGHTS.rank, latest ? latest.rank : null],
    [HEALTH_WEIGHTS.availability, part("availability")],
    [HEALTH_WEIGHTS.speed, part("speed")],
    [HEALTH_WEIGHTS.index_coverage, part("index_coverage")],
    [HEALTH_WEIGHTS.traffic, part("traffic")],
  ];
  const present = parts.filter((p): p is [number, number] => p[1] !== null);
  const w = present.reduce((a, [weight]) => a + weight, 0);
  if (w === 0) return null;
  return clamp(present.reduce((a, [weight, s]) => a + weight * s, 0) / w);
}

export interface Completeness {
  /** Weighted share (%) of the health parts whose source has data. */
  readonly score: number;
  readonly sources: readonly { readonly source: EvidenceSource; readonly present: boolean }[];
  readonly missing: readonly EvidenceSource[];
}

export function completeness(ev: SiteEvidence): Completeness {
  const present = presentSources(ev);
  const total = Object.values(HEALTH_WEIGHTS).reduce((a, b) => a + b, 0);
  const have = (Object.keys(HEALTH_WEIGHTS) as (keyof typeof HEALTH_WEIGHTS)[]).filter((k) => present.has(HEALTH_SOURCES[k])).reduce((a, k) => a + HEALTH_WEIGHTS[k], 0);
  const all = EVIDENCE_SOURCES;
  return {
    score: Math.round((have / total) * 100),
    sources: all.map((source) => ({ source, present: present.has(source) })),
    missing: all.filter((s) => !present.has(s)),
  };
}
