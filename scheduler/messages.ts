import { getDomain } from "tldts";
import { TOPICS, WorkItem } from "../proto/index.ts";
import type { JobRow, OutboxMessage } from "../storage/index.ts";
import { schedulerKind } from "./kinds/index.ts";

/** The registrable domain a host's work is keyed by (one consumer per domain at a time). */
export function domainKey(host: string): string {
  const name = host.replace(/^\[|\](:\d+)?$|:\d+$/g, "");
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/** The bus message that carries a job to the crawler nodes. */
export function workMessage(job: JobRow, replyTo: string): OutboxMessage {
  const item = WorkItem.fromPartial({
    jobId: job.id,
    kind: job.kind,
    host: job.host,
    domain: domainKey(job.host),
    sync: job.sync,
    replyTo: job.sync ? replyTo : "",
    attempt: job.attempt,
  });
  const key = schedulerKind(job.kind)?.busKey?.(job) ?? item.domain;
  const topic = job.sync ? TOPICS.sync : (schedulerKind(job.kind)?.jobTopic ?? TOPICS.work);
  return { topic, key, payload: WorkItem.encode(item).finish() };
}
