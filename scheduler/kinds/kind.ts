import type { ResultOf, TaskOf, WorkKind } from "../../proto/index.ts";
import type { Clock, Config, Logger } from "../../runtime/index.ts";
import type { AttemptFailure, JobRow, Queryable, Settled, Store } from "../../storage/index.ts";

export type { Lane } from "../../proto/index.ts";

/** What the scheduler gives a kind. */
export interface KindContext {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Unix seconds now. */
  now(): number;
}

/**
 * A kind of work as the scheduler plans, costs and settles it. Its name is the proto arm of its
 * task and result; the crawler's table has the same names.
 */
export interface SchedulerKind<K extends WorkKind> {
  readonly name: K;
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
  reuse?(ctx: KindContext, host: string): Promise<number | null>;
  /**
   * The result arm a synchronous caller is answered with, from the document settle left on the job
   * row ({} when it left none). Every kind of the sync lane has one.
   */
  answer?(doc: unknown): ResultOf<K>;
  /** true: the answer is handed to the caller once and cleared from the row (a utility's output is kept nowhere). */
  readonly answerOnce?: boolean;
  /** The lease's task for a job of this kind: the one its row keeps (scheduler/kinds/stored-task.ts), refreshed where the kind fills in state as of the lease. */
  task(ctx: KindContext, job: JobRow): Promise<TaskOf<K>>;
  /** Writes what the job found inside its completion's transaction, and what the job row keeps. */
  settle(ctx: KindContext, q: Queryable, job: JobRow, result: ResultOf<K>): Promise<Settled>;
  /** The kind's own follow-up to a final failure, in its transaction (e.g. disabling a gone address on a fatal one). */
  failed?(ctx: KindContext, q: Queryable, job: JobRow, failure: AttemptFailure): Promise<void>;
}
