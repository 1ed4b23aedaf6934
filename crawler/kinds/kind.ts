import type { CrawledPage, ResultOf, TaskOf, WorkKind } from "../../proto/index.ts";
import type { CrawlerNode } from "../node.ts";

/** A job's pages as the scheduler stores them: a crawl's checkpoint. */
export interface PageStore {
  /** Stores a batch of pages (and reports progress); the attempt is abandoned if the lease was lost. */
  put(pages: CrawledPage[], progress: { done: number; known: number }): Promise<void>;
  /** What earlier attempts stored: the checkpoint a resumed crawl starts from (empty on a first attempt). */
  stored(): Promise<CrawledPage[]>;
}

/** What one attempt of one job gives its kind. */
export interface WorkContext {
  readonly jobId: number;
  readonly host: string;
  readonly attempt: number;
  /** The job came through the synchronous lane: a caller waits for it. */
  readonly sync: boolean;
  /** Aborted when the lease is lost or the node closes: stop, the result is not wanted. */
  readonly signal: AbortSignal;
  /** Progress 0-100 with a short step name (sent with the next heartbeat, at most once a second). */
  progress(progress: number, step: string): void;
  /** Records progress at once and confirms the lease (before a long final step). */
  checkpoint(progress: number, step: string): Promise<void>;
  readonly pages: PageStore;
  /** What every kind on this node shares: egress, parse threads, browser, settings, clock. */
  readonly node: CrawlerNode;
}

/**
 * A kind of work as a crawler node does it: its name (the proto arm of its task and result) and
 * how to run a task. Throw the errors of work-errors.ts to say what a failure is worth.
 */
export interface CrawlerKind<K extends WorkKind> {
  readonly name: K;
  /**
   * Its job-lane jobs run on a pool of slots of their own instead of the job lane's: "webhook",
   * the delivery slots (SVC_WORKER_WEBHOOK_CONCURRENCY), for work that mostly waits on somebody
   * else's server and must neither hold nor wait for the slots analyses and crawls need.
   */
  readonly slots?: "webhook";
  run(task: TaskOf<K>, ctx: WorkContext): Promise<ResultOf<K>>;
}
