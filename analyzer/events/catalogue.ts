// The event catalogue: one descriptor per kind of event Svc writes to its log. A descriptor holds
// everything about its kind in one place: the spec's webhook type, the level, the idempotency key,
// the sentence a person reads, the facts in `data`, and when it happens. Producers hand a
// descriptor their facts (`newEvent`); the event feed's table in docs/monitoring.md is printed from
// the catalogue (`eventCatalogueTable`), and a test holds both against the spec's event types.

import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../webhook-events.ts";

export type EventLevel = "good" | "warn" | "bad" | "info";

/** An event to append, as a descriptor built it: appending it again is harmless (its key is deterministic). */
export interface NewEvent {
  readonly eventKey: string;
  readonly accountId: number | null;
  readonly host: string | null;
  readonly type: WebhookEventType;
  /** What happened, within the type: one of the catalogue's kinds. */
  readonly kind: string;
  readonly level: EventLevel;
  /** The event said to a person. */
  readonly text: string;
  readonly payload: unknown;
}

/** One kind of event. `F` are the facts its producer knows. */
export interface EventDescriptor<F> {
  readonly kind: string;
  /** The spec's webhook type; `types` lists them when the facts choose (a check's type follows its job). */
  readonly type: WebhookEventType | ((facts: F) => WebhookEventType);
  readonly types?: readonly WebhookEventType[];
  /** The level; `levels` lists them when the facts choose. */
  readonly level: EventLevel | ((facts: F) => EventLevel);
  readonly levels?: readonly EventLevel[];
  /** The idempotency key within an account: the same facts give the same key. */
  readonly key: (facts: F) => string;
  readonly text: (facts: F) => string;
  readonly data: (facts: F) => Record<string, unknown>;
  /** When it happens, and its `data` fields (docs/monitoring.md). */
  readonly when: string;
  readonly fields: readonly string[];
}

function describe<F>(d: EventDescriptor<F>): EventDescriptor<F> {
  return d;
}

/** Who receives an event: the account (null: no account) and the site it is about (null: none). */
export interface EventAddress {
  readonly accountId: number | null;
  readonly host: string | null;
  /** Added to the key when one occurrence is written once per account that monitors the host. */
  readonly perAccount?: boolean;
}

/** An event of kind `d` from its facts. */
export function newEvent<F>(d: EventDescriptor<F>, facts: F, to: EventAddress): NewEvent {
  const key = d.key(facts);
  return {
    eventKey: to.perAccount ? `${key}:account:${to.accountId}` : key,
    accountId: to.accountId,
    host: to.host,
    type: typeof d.type === "function" ? d.type(facts) : d.type,
    kind: d.kind,
    level: typeof d.level === "function" ? d.level(facts) : d.level,
    text: d.text(facts),
    payload: d.data(facts),
  };
}

// ---- jobs that ended -------------------------------------------------------------------------------

/** A job that ended, as its event needs it. */
export interface JobEndFacts {
  readonly job: { readonly id: number; readonly kind: string; readonly host: string };
  /** What the ending adds to `data`: run, rank, unanswered (done); error, detail (error). */
  readonly extra: Record<string, unknown>;
}

const JOB_WHAT: Readonly<Record<string, string>> = { analyze: "Analysis", crawl: "Crawl", page: "Page check" };
const jobWhat = (f: JobEndFacts) => JOB_WHAT[f.job.kind] ?? `Check (${f.job.kind})`;
const unansweredOf = (f: JobEndFacts) => (typeof f.extra.unanswered === "string" ? f.extra.unanswered : null);
const rankWords = (f: JobEndFacts) => (typeof f.extra.rank === "number" ? `rank ${f.extra.rank}` : "");

function jobDone(kind: string, type: WebhookEventType | ((f: JobEndFacts) => WebhookEventType), when: string, types?: readonly WebhookEventType[]): EventDescriptor<JobEndFacts> {
  return describe<JobEndFacts>({
    kind,
    type,
    ...(types ? { types } : {}),
    level: (f) => (unansweredOf(f) === null ? "good" : "bad"),
    levels: ["good", "bad"],
    key: (f) => `job:${f.job.id}:done`,
    text: (f) => {
      const unanswered = unansweredOf(f);
      const rank = rankWords(f);
      const detail = unanswered !== null ? `: the site did not answer (${unanswered})${rank ? `; ${rank}` : ""}` : rank ? `: ${rank}` : "";
      return `${jobWhat(f)} of ${f.job.host} done${detail}`;
    },
    data: (f) => ({ job: f.job.id, kind: f.job.kind, state: "done", ...f.extra }),
    when,
    fields: ["job", "kind", "state", "run", "rank", "unanswered"],
  });
}

function jobError(kind: string, type: WebhookEventType | ((f: JobEndFacts) => WebhookEventType), when: string, types?: readonly WebhookEventType[]): EventDescriptor<JobEndFacts> {
  return describe<JobEndFacts>({
    kind,
    type,
    ...(types ? { types } : {}),
    level: "bad",
    key: (f) => `job:${f.job.id}:error`,
    text: (f) => `${jobWhat(f)} of ${f.job.host} failed: ${typeof f.extra.detail === "string" ? f.extra.detail : typeof f.extra.error === "string" ? f.extra.error : "failed"}`,
    data: (f) => ({ job: f.job.id, kind: f.job.kind, state: "error", ...f.extra }),
    when,
    fields: ["job", "kind", "state", "error", "detail"],
  });
}

/** A page check is a page event; the other live checks (TLS, DNS, webhook attempts) are events no webhook receives. */
const checkType = (f: JobEndFacts): WebhookEventType => (f.job.kind === "page" ? "page" : "events");

export const ANALYSIS_DONE = jobDone(
  "analysis.done",
  "events",
  'an analysis ended; level bad, its text "the site did not answer (<why>)", when the home page gave no HTTP answer',
);
export const ANALYSIS_ERROR = jobError("analysis.error", "events", "an analysis failed (its attempts ran out, or the worker gave up)");
export const CRAWL_DONE = jobDone("crawl.done", "crawl", "a whole-site crawl ended (its run, as an analysis's)");
export const CRAWL_ERROR = jobError(
  "crawl.error",
  "crawl",
  'a whole-site crawl failed; a site whose home page gave no HTTP answer ends it with "<host> did not answer (<why>): nothing to crawl", which GET /crawl\'s not_found repeats while no crawl has finished',
);
export const CHECK_DONE = jobDone("check.done", checkType, "a single check ended: a page check is a page event; the ends of live TLS and DNS checks and of webhook attempts are kept in the log, but no webhook receives them", ["page", "events"]);
export const CHECK_ERROR = jobError("check.error", checkType, "a single check failed (as check.done for its type)", ["page", "events"]);

// ---- tasks -----------------------------------------------------------------------------------------

export interface TaskChangeFacts {
  readonly taskId: number;
  readonly code: string;
  readonly title: string;
  readonly host: string;
  readonly run: number;
}

function taskChange(change: "new" | "fixed" | "returned", words: string, level: EventLevel, when: string): EventDescriptor<TaskChangeFacts> {
  return describe<TaskChangeFacts>({
    kind: `task.${change}`,
    type: "events",
    level,
    key: (f) => `task:${f.taskId}:run:${f.run}:${change}`,
    text: (f) => `${words} on ${f.host}: ${f.title}`,
    data: (f) => ({ task: f.taskId, code: f.code, title: f.title, change, run: f.run }),
    when,
    fields: ["task", "code", "title", "change", "run"],
  });
}

export const TASK_NEW = taskChange("new", "New task", "info", "an analysis found a problem no open task had");
export const TASK_FIXED = taskChange("fixed", "Task fixed", "good", "an analysis found an open task's check passing");
export const TASK_RETURNED = taskChange("returned", "Task came back", "warn", "an analysis found a done task's problem again");

export interface TaskSetFacts {
  readonly taskId: number;
  readonly code: string;
  readonly title: string;
  readonly host: string;
  readonly at: number;
}

function taskSet(status: "open" | "done" | "ignored"): EventDescriptor<TaskSetFacts> {
  return describe<TaskSetFacts>({
    kind: `task.${status}`,
    type: "events",
    level: "info",
    key: (f) => `task:${f.taskId}:set:${status}:${f.at}`,
    text: (f) => `Task "${f.title}" on ${f.host} marked ${status}`,
    data: (f) => ({ task: f.taskId, code: f.code, status, by: "user" }),
    when: `the user set a task's status to ${status}`,
    fields: ["task", "code", "status", "by"],
  });
}

export const TASK_SET: Readonly<Record<"open" | "done" | "ignored", EventDescriptor<TaskSetFacts>>> = { open: taskSet("open"), done: taskSet("done"), ignored: taskSet("ignored") };

export const TASK_RECHECKED = describe<TaskSetFacts>({
  kind: "task.done",
  type: "events",
  level: "good",
  key: (f) => `task:${f.taskId}:recheck:done:${f.at}`,
  text: (f) => `Task "${f.title}" on ${f.host} re-checked: fixed`,
  data: (f) => ({ task: f.taskId, code: f.code, status: "done", by: "recheck" }),
  when: "a re-check the user asked for found the task's check passing",
  fields: ["task", "code", "status", "by"],
});

// ---- rank and performance --------------------------------------------------------------------------

export interface RankChangeFacts {
  readonly host: string;
  readonly run: number;
  readonly from: number;
  readonly to: number;
}

export const RANK_CHANGED = describe<RankChangeFacts>({
  kind: "rank.changed",
  type: "rank",
  level: (f) => (f.to > f.from ? "good" : "bad"),
  levels: ["good", "bad"],
  key: (f) => `rank:${f.host}:run:${f.run}`,
  text: (f) => `Rank of ${f.host} ${f.to > f.from ? "rose" : "fell"} from ${f.from} to ${f.to} (${f.to > f.from ? "+" : ""}${f.to - f.from})`,
  data: (f) => ({ from: f.from, to: f.to, delta: f.to - f.from, run: f.run }),
  when: "a run's rank differs from the previous run's",
  fields: ["from", "to", "delta", "run"],
});

export interface PerformanceRegressionFacts {
  readonly host: string;
  readonly run: number;
  readonly previousRun: number;
  /** Which regression of the run (a run can find several pages slower). */
  readonly index: number;
  readonly url: string;
  readonly device: string;
  readonly scoreFrom: number | null;
  readonly scoreTo: number | null;
  readonly changes: readonly string[];
  readonly metrics: unknown;
}

export const PERFORMANCE_REGRESSED = describe<PerformanceRegressionFacts>({
  kind: "performance.regressed",
  type: "page",
  level: "warn",
  key: (f) => `performance:${f.host}:run:${f.run}:${f.index}`,
  text: (f) => `Performance of ${f.url} (${f.device}) regressed on ${f.host}: ${f.changes.join(", ")}`,
  data: (f) => ({ url: f.url, device: f.device, score_from: f.scoreFrom, score_to: f.scoreTo, changes: f.changes, metrics: f.metrics, run: f.run, previous_run: f.previousRun }),
  when: "a page the browser measured in the same profile in both checks lost ≥ 10 score points, or its FCP, LCP, TBT, CLS or INP got worse beyond both a relative and an absolute threshold and past good (docs/analysis.md)",
  fields: ["url", "device", "score_from", "score_to", "changes", "metrics[]{metric, from, to}", "run", "previous_run"],
});

// ---- uptime ----------------------------------------------------------------------------------------

export interface UptimeChangeFacts {
  readonly host: string;
  readonly at: number;
  readonly incident: number | null;
  readonly status: number;
  readonly cause: string;
  readonly totalMs: number;
  /** How long the site was down, for site.up (null: not known). */
  readonly downForS: number | null;
}

function formatDuration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

function uptimeChange(transition: "down" | "up" | "degraded" | "recovered", level: EventLevel, words: (host: string) => string, when: string): EventDescriptor<UptimeChangeFacts> {
  return describe<UptimeChangeFacts>({
    kind: `site.${transition}`,
    type: "uptime",
    level,
    key: (f) => `uptime:${f.host}:${transition}:${f.at}`,
    text: (f) => {
      const detail = transition === "down" ? ` (${f.cause})` : transition === "up" && f.downForS !== null ? ` after ${formatDuration(f.downForS)}` : "";
      return `${words(f.host)}${detail}`;
    },
    data: (f) => ({ incident: f.incident, at: f.at, status: f.status, cause: f.cause || null, total_ms: f.totalMs }),
    when,
    fields: ["incident", "at", "status", "cause", "total_ms"],
  });
}

export const SITE_DOWN = uptimeChange("down", "bad", (h) => `${h} is down`, "probes confirmed the site down (a down incident opens)");
export const SITE_UP = uptimeChange("up", "good", (h) => `${h} is up again`, "the first success after a confirmed down (the down incident closes)");
export const SITE_DEGRADED = uptimeChange("degraded", "warn", (h) => `${h} answers slowly`, "probes confirmed the site answering over its slow threshold");
export const SITE_RECOVERED = uptimeChange("recovered", "good", (h) => `${h} answers at its usual speed again`, "a slow site answers within its threshold again");

export const UPTIME_EVENTS: Readonly<Record<"down" | "up" | "degraded" | "recovered", EventDescriptor<UptimeChangeFacts>>> = {
  down: SITE_DOWN,
  up: SITE_UP,
  degraded: SITE_DEGRADED,
  recovered: SITE_RECOVERED,
};

// ---- incidents an analysis finds (certificate, noindex, robots) ------------------------------------

export interface IncidentFacts {
  readonly incident: number;
  /** certificate, noindex or robots. */
  readonly incidentKind: string;
  readonly cause: string;
  readonly title: string;
  readonly level: "warn" | "bad";
  /** Whether an open incident got worse (a later stage, another cause) rather than opened. */
  readonly worse: boolean;
  readonly run: number;
}

function incidentStage(kind: string, type: WebhookEventType, levels: readonly EventLevel[], when: string): EventDescriptor<IncidentFacts> {
  return describe<IncidentFacts>({
    kind,
    type,
    level: (f) => f.level,
    levels,
    // Opening is written once per incident; each worse cause once more.
    key: (f) => `incident:${f.incident}:${f.worse ? f.cause : "opened"}`,
    text: (f) => f.title,
    data: (f) => ({ incident: f.incident, kind: f.incidentKind, cause: f.cause, run: f.run }),
    when,
    fields: ["incident", "kind", "cause", "run"],
  });
}

export const CERTIFICATE_EXPIRING = incidentStage(
  "certificate.expiring",
  "security",
  ["warn", "bad"],
  "a certificate incident opened, or reached a later stage, because the certificate expires within 30, 14 or 7 days (bad within 7)",
);
export const CERTIFICATE_EXPIRED = incidentStage("certificate.expired", "security", ["bad"], "a certificate incident opened or reached the stage of an expired certificate");
export const CERTIFICATE_INVALID = incidentStage("certificate.invalid", "security", ["bad"], "a certificate incident opened or changed because clients refuse the certificate (name, chain, self-signed)");
export const INCIDENT_OPENED = incidentStage("incident.opened", "watchdog", ["bad"], "a site-wide noindex or robots block incident opened or got worse");

export interface IncidentClosedFacts {
  readonly incident: number;
  readonly incidentKind: string;
  readonly host: string;
  readonly run: number;
}

const RESOLVED_TEXT: Readonly<Record<string, (host: string) => string>> = {
  certificate: (host) => `Certificate of ${host} is valid again, for more than 30 days`,
  noindex: (host) => `The home page of ${host} is open to indexing again`,
  robots: (host) => `robots.txt of ${host} no longer closes the whole site`,
};

export const INCIDENT_CLOSED = describe<IncidentClosedFacts>({
  kind: "incident.closed",
  type: (f) => (f.incidentKind === "certificate" ? "security" : "watchdog"),
  types: ["security", "watchdog"],
  level: "good",
  key: (f) => `incident:${f.incident}:closed`,
  text: (f) => (RESOLVED_TEXT[f.incidentKind] ?? ((h: string) => `An incident on ${h} is resolved`))(f.host),
  data: (f) => ({ incident: f.incident, kind: f.incidentKind, run: f.run }),
  when: "an analysis no longer finds a certificate (security), noindex or robots (watchdog) incident's problem",
  fields: ["incident", "kind", "run"],
});

// ---- watchdog, webhooks, digest --------------------------------------------------------------------

export interface WatchdogChangeFacts {
  readonly run: number;
  readonly url: string;
  readonly level: EventLevel;
  /** The sentence of the changes (the producer words each field). */
  readonly said: string;
  readonly host: string;
  readonly changes: readonly { readonly field: string; readonly before: unknown; readonly after: unknown; readonly level: string }[];
}

export const WATCHDOG_CHANGE = describe<WatchdogChangeFacts>({
  kind: "watchdog.change",
  type: "watchdog",
  level: (f) => f.level,
  levels: ["bad", "warn"],
  key: (f) => `watchdog:${f.run}:${f.url}`,
  text: (f) => `Watchdog on ${f.host}${new URL(f.url).pathname}: ${f.said}`,
  data: (f) => ({ url: f.url, run: f.run, changes: f.changes }),
  when: "an analysis found an SEO-critical element of a watched page changed",
  fields: ["url", "run", "changes[]{field, before, after, level}"],
});

export interface WebhookDisabledFacts {
  readonly webhook: number;
  readonly url: string;
  readonly lost: number;
  readonly dropped: number;
  readonly at: number;
}

export const WEBHOOK_DISABLED = describe<WebhookDisabledFacts>({
  kind: "webhook.disabled",
  type: "events",
  level: "bad",
  key: (f) => `webhook:${f.webhook}:disabled:${f.at}`,
  text: (f) => `Webhook ${f.webhook} (${f.url}) disabled after ${f.lost} lost deliveries in a row`,
  data: (f) => ({ webhook: f.webhook, url: f.url, state: "disabled", lost: f.lost, dropped_deliveries: f.dropped }),
  when: "a webhook lost its deliveries (every attempt failed) several times in a row; its pending deliveries are dropped",
  fields: ["webhook", "url", "state", "lost", "dropped_deliveries"],
});

export interface DigestFacts {
  readonly accountId: number;
  /** The UTC day, YYYY-MM-DD. */
  readonly date: string;
  readonly level: EventLevel;
  /** The sentence's notable counts ("1 analysis, 3 new tasks"); empty: only a total. */
  readonly said: readonly string[];
  readonly total: number;
  readonly levels: Record<EventLevel, number>;
  readonly kinds: Record<string, number>;
}

export const DIGEST_DAILY = describe<DigestFacts>({
  kind: "digest.daily",
  type: "digest",
  level: (f) => f.level,
  levels: ["bad", "warn", "info"],
  key: (f) => `digest:${f.accountId}:${f.date}`,
  text: (f) => `Your day, ${f.date} (UTC): ${f.said.length > 0 ? f.said.join(", ") : `${f.total} ${f.total === 1 ? "event" : "events"}`}.`,
  data: (f) => ({ day: f.date, events: f.total, levels: f.levels, kinds: f.kinds }),
  when: 'once a UTC day (the digest planner, every 5 min, writes the day before once), for each account that had events that day: their counts, a sentence of the notable ones ("Your day, 2026-11-22 (UTC): 1 analysis, 3 new tasks, 1 outage."), at the level of the day\'s worst event (info when none was bad or warn); no host. An account with an empty day gets none; a day on which no scheduler ran is not written later',
  fields: ["day", "events", "levels", "kinds"],
});

/** Every kind of event the log holds, in the order docs/monitoring.md lists them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of descriptors of different facts
export const EVENT_CATALOGUE: readonly EventDescriptor<any>[] = [
  ANALYSIS_DONE,
  ANALYSIS_ERROR,
  CHECK_DONE,
  CHECK_ERROR,
  TASK_NEW,
  TASK_FIXED,
  TASK_RETURNED,
  TASK_SET.open,
  TASK_SET.done,
  TASK_SET.ignored,
  TASK_RECHECKED,
  WEBHOOK_DISABLED,
  CRAWL_DONE,
  CRAWL_ERROR,
  RANK_CHANGED,
  PERFORMANCE_REGRESSED,
  SITE_DOWN,
  SITE_UP,
  SITE_DEGRADED,
  SITE_RECOVERED,
  CERTIFICATE_EXPIRING,
  CERTIFICATE_EXPIRED,
  CERTIFICATE_INVALID,
  INCIDENT_OPENED,
  INCIDENT_CLOSED,
  WATCHDOG_CHANGE,
  DIGEST_DAILY,
];

/** The event kinds, each once. */
export const EVENT_KINDS: readonly string[] = [...new Set(EVENT_CATALOGUE.map((d) => d.kind))];

/** The feed's table (docs/monitoring.md, "The event feed"), printed from the catalogue. */
export function eventCatalogueTable(): string {
  const rows = EVENT_CATALOGUE.map((d) => {
    const types = d.types ?? [d.type as WebhookEventType];
    const levels = d.levels ?? [d.level as EventLevel];
    return `| ${types.join(", ")} | ${d.kind} | ${levels.join(", ")} | ${d.when} | ${d.fields.join(", ")} |`;
  });
  return ["| type | kind | level | when | data |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** Every type the catalogue uses is one of the spec's webhook event types (a test holds it). */
export function catalogueTypes(): readonly WebhookEventType[] {
  const used = new Set<WebhookEventType>();
  for (const d of EVENT_CATALOGUE) for (const t of d.types ?? [d.type as WebhookEventType]) used.add(t);
  return WEBHOOK_EVENT_TYPES.filter((t) => used.has(t));
}
