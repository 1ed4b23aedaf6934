import { CERTIFICATE_REFUSED_CAUSES, EVENTS, newEvent, siteIncidentChanges, siteIncidentVerdicts, SITE_INCIDENT_KINDS, type Analysis, type EventDescriptor, type SiteIncidentFinding, type SiteIncidentKind } from "../analyzer/index.ts";
import type { SiteFacts } from "../proto/index.ts";
import type { NewEvent, Repositories } from "../storage/index.ts";

/** The event kind of an incident that opened or got worse (analyzer/events/catalogue.ts). */
function openedKind(f: SiteIncidentFinding): EventDescriptor<EVENTS.IncidentFacts> {
  if (f.kind !== "certificate") return EVENTS.INCIDENT_OPENED;
  if (f.cause === "expired") return EVENTS.CERTIFICATE_EXPIRED;
  return CERTIFICATE_REFUSED_CAUSES.includes(f.cause) ? EVENTS.CERTIFICATE_INVALID : EVENTS.CERTIFICATE_EXPIRING;
}

/**
 * Opens, worsens and closes a host's incidents that analyses find (certificate, noindex, robots)
 * from one analysis, through the incidents repository of its unit of work; returns the events for
 * every account that monitors the host. An incident begins at the analysis that first saw it.
 */
export async function settleSiteIncidents(
  { incidents }: Pick<Repositories, "incidents">,
  run: { host: string; runId: number; checkedAt: number; facts: SiteFacts; analysis: Pick<Analysis, "unconfirmed">; accounts: readonly number[] },
): Promise<NewEvent[]> {
  const { host } = run;
  const verdicts = siteIncidentVerdicts(run.facts, run.analysis.unconfirmed.map((u) => u.code));
  const open = await incidents.openOf(host, SITE_INCIDENT_KINDS);
  const changes = siteIncidentChanges(
    open.map((i) => ({ kind: i.kind as SiteIncidentKind, cause: i.cause })),
    verdicts,
  );
  const made: ((accountId: number) => NewEvent)[] = [];
  const stage = (f: SiteIncidentFinding, incident: number, worse: boolean) => {
    const facts = { incident, incidentKind: f.kind, cause: f.cause, title: f.title, level: f.level, worse, run: run.runId };
    made.push((accountId) => newEvent(openedKind(f), facts, { accountId, host, perAccount: true }));
  };
  for (const f of changes.open) stage(f, await incidents.open({ host, kind: f.kind, title: f.title, cause: f.cause, at: run.checkedAt }), false);
  for (const f of changes.worse) {
    const id = await incidents.revise({ host, kind: f.kind, title: f.title, cause: f.cause });
    if (id !== null) stage(f, id, true);
  }
  for (const kind of changes.close) {
    const id = await incidents.close(host, kind, run.checkedAt);
    if (id === null) continue;
    const facts = { incident: id, incidentKind: kind, host, run: run.runId };
    made.push((accountId) => newEvent(EVENTS.INCIDENT_CLOSED, facts, { accountId, host, perAccount: true }));
  }
  return run.accounts.flatMap((accountId) => made.map((make) => make(accountId)));
}
