import { JobTask, type LeaseTask, type TaskOf, type WorkKind } from "../../proto/index.ts";
import type { JobRow } from "../../storage/index.ts";

/** A task as its job row keeps it (jobs.task). */
export function encodeTask(task: LeaseTask): Uint8Array {
  return JobTask.encode(JobTask.fromPartial({ task })).finish();
}

/**
 * The task of kind K that a job row keeps. A row without one keeps its task in `target`, in the
 * kind's older text form (rows written before the task column): `older` reads that. A row whose
 * task is of another kind is refused.
 */
export function taskOfRow<K extends WorkKind>(job: JobRow, kind: K, older: (target: string | null) => TaskOf<K>): TaskOf<K> {
  if (!job.task || job.task.length === 0) return older(job.target);
  const { task } = JobTask.decode(job.task);
  if (task?.$case !== kind) throw new Error(`job ${job.id} keeps ${task ? `a ${task.$case}` : "no"} task, not a ${kind} one`);
  return task.value as TaskOf<K>;
}
