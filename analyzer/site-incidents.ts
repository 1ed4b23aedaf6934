// Incidents an analysis can find besides uptime: a certificate that expired or expires within 30,
// 14 or 7 days, the home page closed by noindex, robots.txt closing the whole site. Pure: the
// scheduler gives each analysis's facts, compares with the host's open incidents and stores what
// changed (docs/monitoring.md, "Incidents from analyses").
import type { SiteFacts } from "../proto/index.ts";
import { isNoindex } from "./checks/noindex.ts";
import { robotsBlocksAll } from "./checks/robots-blocks-all.ts";
import { httpsServed } from "./checks/tls-state.ts";

export type SiteIncidentKind = "certificate" | "noindex" | "robots";
export const SITE_INCIDENT_KINDS: readonly SiteIncidentKind[] = ["certificate", "noindex", "robots"];

/** What one analysis says of one kind: a problem to have open, or none. */
export interface SiteIncidentFinding {
  readonly kind: SiteIncidentKind;
  readonly title: string;
  /**
   * Machine-readable and stable while nothing changes: a certificate's stage (30d, 14d, 7d, or
   * expired, name_mismatch, untrusted), which moves when it gets worse; the rule found otherwise.
   */
  readonly cause: string;
  readonly level: "warn" | "bad";
}

/** Per kind: the finding (open it), null (resolved: close it) or absent (this analysis cannot tell). */
export type SiteIncidentVerdicts = Partial<Record<SiteIncidentKind, SiteIncidentFinding | null>>;

const DAY_S = 86_400;
/** The certificate warnings, from the first to the last: each is an event when it is reached. */
export const CERTIFICATE_STAGES_DAYS = [30, 14, 7] as const;

function isoDay(unixS: number): string {
  return new Date(unixS * 1000).toISOString().slice(0, 10);
}

/**
 * What the certificate itself says: a certificate browsers refuse (expired, not trusted, not
 * covering the host) is an incident at once; a valid one only when it expires within 30 days.
 */
function certificate(facts: SiteFacts): SiteIncidentFinding | null | undefined {
  const tls = facts.tls;
  if (!tls?.attempted || !httpsServed(tls)) return undefined;
  if (tls.validTo > 0 && tls.validTo - facts.checkedAt <= 0) {
    return { kind: "certificate", title: `Certificate of ${facts.host} expired on ${isoDay(tls.validTo)}`, cause: "expired", level: "bad" };
  }
  if (!tls.nameMatches) {
    return { kind: "certificate", title: `Certificate of ${facts.host} does not cover the host name`, cause: "name_mismatch", level: "bad" };
  }
  if (!tls.authorized) {
    const why = tls.authorizationError || tls.error || "not signed by a trusted authority";
    return { kind: "certificate", title: `Certificate of ${facts.host} is not trusted by browsers (${why})`, cause: "untrusted", level: "bad" };
  }
  if (tls.validTo <= 0) return undefined;
  const leftS = tls.validTo - facts.checkedAt;
  const stage = [...CERTIFICATE_STAGES_DAYS].reverse().find((d) => leftS <= d * DAY_S);
  if (stage === undefined) return null;
  const days = Math.floor(leftS / DAY_S);
  return {
    kind: "certificate",
    title: `Certificate of ${facts.host} expires in ${days} day(s), on ${isoDay(tls.validTo)}`,
    cause: `${stage}d`,
    level: stage <= 7 ? "bad" : "warn",
  };
}

/** Certificate causes browsers refuse outright (the diagnosis calls them critical). */
export const CERTIFICATE_REFUSED_CAUSES: readonly string[] = ["expired", "name_mismatch", "untrusted"];

function homeNoindex(facts: SiteFacts, unconfirmed: ReadonlySet<string>): SiteIncidentFinding | null | undefined {
  const home = facts.home;
  const status = home?.response?.status ?? 0;
  if (!home || !home.isHtml || status < 200 || status >= 300) return undefined;
  if (!isNoindex(home, facts.checkedAt)) return null;
  // A noindex the second look did not see again is not an incident (seo-anchors §3.4).
  if (unconfirmed.has("noindex")) return undefined;
  const where = home.metaRobots && /noindex|none/.test(home.metaRobots) ? "robots meta tag" : "X-Robots-Tag header";
  return { kind: "noindex", title: `The home page of ${facts.host} is closed by noindex`, cause: `home page: ${where}`, level: "bad" };
}

function robotsBlock(facts: SiteFacts, unconfirmed: ReadonlySet<string>): SiteIncidentFinding | null | undefined {
  const outcome = robotsBlocksAll.run(facts);
  // No robots.txt (a 4xx) has no rules; a 5xx or no answer says nothing either way.
  const status = facts.robots?.response?.status ?? 0;
  if (outcome.status === "pass" || (outcome.status === "na" && status >= 400 && status < 500)) return null;
  if (outcome.status !== "fail") return undefined;
  if (unconfirmed.has(robotsBlocksAll.code)) return undefined;
  return { kind: "robots", title: `robots.txt of ${facts.host} closes the whole site to search engines`, cause: `Disallow: / for ${String(outcome.value)}`, level: "bad" };
}

/**
 * What an analysis says of each incident kind. `unconfirmed` are the check codes whose failure the
 * analysis saw once but not on its second look: they neither open nor close.
 */
export function siteIncidentVerdicts(facts: SiteFacts, unconfirmed: Iterable<string> = []): SiteIncidentVerdicts {
  const seen = new Set(unconfirmed);
  const verdicts: SiteIncidentVerdicts = {};
  const found = { certificate: certificate(facts), noindex: homeNoindex(facts, seen), robots: robotsBlock(facts, seen) };
  for (const kind of SITE_INCIDENT_KINDS) if (found[kind] !== undefined) verdicts[kind] = found[kind];
  return verdicts;
}

/** An open incident of an analysis kind, as the store holds it. */
export interface OpenSiteIncident {
  readonly kind: SiteIncidentKind;
  readonly cause: string;
}

export interface SiteIncidentChanges {
  /** New incidents to open. */
  readonly open: SiteIncidentFinding[];
  /** Open incidents whose finding got worse (a later certificate stage): retitle, and say so. */
  readonly worse: SiteIncidentFinding[];
  /** Kinds whose open incident is resolved. */
  readonly close: SiteIncidentKind[];
}

/** Compares a host's open incidents with an analysis's verdicts. */
export function siteIncidentChanges(open: readonly OpenSiteIncident[], verdicts: SiteIncidentVerdicts): SiteIncidentChanges {
  const byKind = new Map(open.map((i) => [i.kind, i]));
  const changes: SiteIncidentChanges = { open: [], worse: [], close: [] };
  for (const kind of SITE_INCIDENT_KINDS) {
    const verdict = verdicts[kind];
    const current = byKind.get(kind);
    if (verdict === undefined) continue;
    if (verdict === null) {
      if (current) changes.close.push(kind);
    } else if (!current) {
      changes.open.push(verdict);
    } else if (current.cause !== verdict.cause && stageRank(verdict.cause) > stageRank(current.cause)) {
      changes.worse.push(verdict);
    }
  }
  return changes;
}

// Certificate stages order by urgency (a certificate browsers refuse is the worst, whatever the
// reason); other causes have no order (a change of wording is not news).
function stageRank(cause: string): number {
  if (CERTIFICATE_REFUSED_CAUSES.includes(cause)) return CERTIFICATE_STAGES_DAYS.length + 1;
  const i = CERTIFICATE_STAGES_DAYS.findIndex((d) => cause === `${d}d`);
  return i < 0 ? 0 : i + 1;
}
