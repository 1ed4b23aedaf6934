import type { WorkKind } from "../../proto/index.ts";
import { analyzeKind } from "./analyze.ts";
import { crawlKind } from "./crawl.ts";
import { dnsKind } from "./dns.ts";
import type { RepoName, SchedulerKind } from "./kind.ts";
import { pageKind } from "./page.ts";
import { recheckKind } from "./recheck.ts";
import { tlsKind } from "./tls.ts";
import { utilityKind } from "./utility.ts";
import { webhookKind } from "./webhook.ts";

export { CRAWL_COST } from "./crawl.ts";
export { DELIVERY_TIMEOUT_MS } from "./webhook.ts";
export { encodeTask } from "./stored-task.ts";
export { UTILITY_JOB_HOST } from "./utility.ts";
export { reposOf } from "./kind.ts";
export type { KindContext, Lane, SchedulerKind } from "./kind.ts";

/**
 * Every kind of work the scheduler plans, costs and settles, by name: its service dispatches
 * through this table. Each entry keeps its own type (the repositories it declares).
 */
export const SCHEDULER_KINDS = {
  analyze: analyzeKind,
  crawl: crawlKind,
  page: pageKind,
  tls: tlsKind,
  dns: dnsKind,
  webhook: webhookKind,
  utility: utilityKind,
  recheck: recheckKind,
} as const satisfies { readonly [K in WorkKind]: SchedulerKind<K, RepoName> };

/**
 * The kind of a name, or null for a name no kind has, widened to SchedulerKind<WorkKind> (every
 * repository). The widening needs no cast: a kind written for fewer repositories accepts more.
 * Callers hand it reposOf(kind, …), the repositories it declared, so at run time it finds no others.
 */
export function schedulerKind(name: string): SchedulerKind<WorkKind> | null {
  return Object.hasOwn(SCHEDULER_KINDS, name) ? SCHEDULER_KINDS[name as WorkKind] : null;
}
