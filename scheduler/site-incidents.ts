import { CERTIFICATE_REFUSED_CAUSES, siteIncidentChanges, siteIncidentVerdicts, SITE_INCIDENT_KINDS, type Analysis, type SiteIncidentFinding, type SiteIncidentKind } from "../analyzer/index.ts";
import type { SiteFacts } from "../proto/index.ts";
import type { NewEvent, Queryable, Store } from "../storage/index.ts";

/** The event type of each analysis incident kind (docs/monitoring.md has the table). */
const EVENT_TYPE: Readonly<Record<SiteIncidentKind, NewEvent["type"]>> = { certificate: "security", noindex: "watchdog", robots: "watchdog" };

const RESOLVED_TEXT: Readonly<Record<SiteIncidentKind, (host: string) => string>> = {
  certificate: (host) => `Certificate of ${host} is valid again, for more than 30 days`,
  noindex: (host) => `The home page of ${host} is open to indexing again`,
  robots: (host) => `robots.txt of ${host} no longer closes the whole site`,
};

function openedKind(f: SiteIncidentFinding): string {
  if (f.kind !== "certificate") return "incident.opened";
  if (f.cause === "expired") return "certificate.expired";
  return CERTIFICATE_REFUSED_CAUSES.includes(f.cause) ? "certificate.invalid" : "certificate.expiring";
}

/**
 * Opens, worsens and closes a host's incidents that analyses find (certificate, noindex, robots)
 * from one analysis, in its completion transaction; returns the events for every account that
 * monitors the host. An incident begins at the analysis that first saw it.
 */
export async function settleSiteIncidents(
  store: Store,
  q: Queryable,
  run: { host: string; runId: number; checkedAt: number; facts: SiteFacts; analysis: Pick<Analysis, "unconfirmed">; accounts: readonly number[] },
): Promise<NewEvent[]> {
  const { host } = run;
  const verdicts = siteIncidentVerdicts(run.facts, run.analysis.unconfirmed.map((u) => u.code));
  const open = await store.uptime.openIncidents(q, host, SITE_INCIDENT_KINDS);
  const changes = siteIncidentChanges(
    open.map((i) => ({ kind: i.kind as SiteIncidentKind, cause: i.cause })),
    verdicts,
  );
  const facts: { key: string; kind: SiteIncidentKind; eventKind: string; level: NewEvent["level"]; text: string; payload: Record<string, unknown> }[] = [];
  for (const f of changes.open) {
    const id = await store.uptime.openIncident(q, { host, kind: f.kind, title: f.title, cause: f.cause, at: run.checkedAt });
    facts.push({ key: `incident:${id}:opened`, kind: f.kind, eventKind: openedKind(f), level: f.level, text: f.title, payload: { incident: id, kind: f.kind, cause: f.cause, run: run.runId } });
  }
  for (const f of changes.worse) {
    const id = await store.uptime.reviseIncident(q, { host, kind: f.kind, title: f.title, cause: f.cause });
    if (id === null) continue;
    facts.push({ key: `incident:${id}:${f.cause}`, kind: f.kind, eventKind: openedKind(f), level: f.level, text: f.title, payload: { incident: id, kind: f.kind, cause: f.cause, run: run.runId } });
  }
  for (const kind of changes.close) {
    const id = await store.uptime.closeIncident(q, host, kind, run.checkedAt);
    if (id === null) continue;
    facts.push({ key: `incident:${id}:closed`, kind, eventKind: "incident.closed", level: "good", text: RESOLVED_TEXT[kind](host), payload: { incident: id, kind, run: run.runId } });
  }
  return run.accounts.flatMap((accountId) =>
    facts.map((f) => ({
      eventKey: `${f.key}:account:${accountId}`,
      accountId,
      host,
      type: EVENT_TYPE[f.kind],
      kind: f.eventKind,
      level: f.level,
      text: f.text,
      payload: f.payload,
    })),
  );
}
