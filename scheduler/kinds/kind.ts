import type { ResultOf, TaskOf, WorkKind } from "../../proto/index.ts";
import type { Clock, Config, Logger } from "../../runtime/index.ts";
import type { AttemptFailure, JobRow, Repositories, Settled } from "../../storage/index.ts";

export type { Lane } from "../../proto/index.ts";

/** The name of one repository of the store. */
export type RepoName = keyof Repositories;

/** What the scheduler gives every kind besides its repositories. */
export interface KindContext {
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Unix seconds now. */
  now(): number;
}

/**
 * A kind of work as the scheduler plans, costs and settles it. Its name is the proto arm of its
 * task and result; the crawler's table has the same names. `R` names the repositories it uses: it
 * declares them in `uses` and is handed those and no others (reposOf), the store's own for reuse
 * and task, the ones bound to the job's unit of work for settle and failed.
 */
export interface SchedulerKind<K extends WorkKind, R extends RepoName = RepoName> {
  readonly name: K;
  /** The repositories the kind reads and writes. */
  readonly uses: readonly R[];
  /** Checks charged against the plan's daily limit when a job of this kind starts. */
  readonly cost: number;
  /**
   * The host of a caller's task (the sync lane's RunCheck): where its politeness and bus key come
   * from. The row keeps the task itself (jobs.task), which the lease's task is made from. Throws
   * when the task names no usable target (refused as a bad parameter). Without it, the job's host
   * is the request's site.
   */
  hostOf?(task: TaskOf<K>, site: string): string;
  /**
   * The bus key of a job: jobs of one key run one at a time, in order. The registrable domain of
   * its host unless the kind says otherwise (a webhook delivery is keyed by its webhook, so that a
   * slow receiver holds up only its own deliveries, not those of others on its domain).
   */
  busKey?(job: JobRow): string;
  /**
   * The bus topic of its job-lane jobs when not the shared work topic (TOPICS.work): webhook
   * attempts travel on one of their own, which crawler nodes take on slots of their own.
   */
  readonly jobTopic?: string;
  /** A fresh earlier result that answers a start without running (its run's id), or null. */
  reuse?(ctx: KindContext, repos: Pick<Repositories, R>, host: string): Promise<number | null>;
  /**
   * The result arm a synchronous caller is answered with, from the document settle left on the job
   * row ({} when it left none). Every kind of the sync lane has one.
   */
  answer?(doc: unknown): ResultOf<K>;
  /** true: the answer is handed to the caller once and cleared from the row (a utility's output is kept nowhere). */
  readonly answerOnce?: boolean;
  /** The lease's task for a job of this kind: the one its row keeps (scheduler/kinds/stored-task.ts), refreshed where the kind fills in state as of the lease. */
  task(ctx: KindContext, repos: Pick<Repositories, R>, job: JobRow): Promise<TaskOf<K>>;
  /** Writes what the job found through `t`, its completion's unit of work, and returns what the job row keeps. */
  settle(ctx: KindContext, t: Pick<Repositories, R>, job: JobRow, result: ResultOf<K>): Promise<Settled>;
  /** The kind's own follow-up to a final failure, through `t`, its unit of work (e.g. recording a webhook attempt's failure). */
  failed?(ctx: KindContext, t: Pick<Repositories, R>, job: JobRow, failure: AttemptFailure): Promise<void>;
}

/** A kind as written, its repositories `R` taken from its `uses` list. */
export function defineKind<K extends WorkKind, R extends RepoName = never>(kind: SchedulerKind<K, R>): SchedulerKind<K, R> {
  return kind;
}

/**
 * The repositories a kind declared in `uses`, taken from `repos` (the store's, or those of a unit
 * of work), and no others: a kind that reaches for another finds nothing there.
 */
export function reposOf<R extends RepoName>(kind: { readonly uses: readonly R[] }, repos: Repositories): Pick<Repositories, R> {
  return Object.fromEntries(kind.uses.map((name) => [name, repos[name]])) as Pick<Repositories, R>;
}
