// The recommended order of actions: what fixes the root cause first, then the open tasks by rank
// points per unit of effort.
import type { TaskEvidence } from "./evidence.ts";
import type { Cause } from "./rule.ts";

/** Working time an effort level stands for, in minutes (1: a setting, 2: a template change, 3: a project). */
export const EFFORT_MINUTES: Readonly<Record<number, number>> = Object.freeze({ 1: 30, 2: 120, 3: 480 });

export interface Action {
  readonly order: number;
  /** The task it completes; null for an action a cause asks for that no task covers (e.g. a site that is down). */
  readonly task_id: number | null;
  readonly code: string | null;
  readonly title: string;
  readonly level: "bad" | "warn" | "info";
  /** Estimated rank points gained (the task's impact); null when not a rank matter. */
  readonly gain: number | null;
  readonly effort: number | null;
  /** Estimated working time, minutes. */
  readonly time_min: number | null;
  /** The cause it answers, if any. */
  readonly cause: string | null;
}

/** Open tasks by gain per effort (then gain, level, id). */
export function byValue(a: TaskEvidence, b: TaskEvidence): number {
  const lv = { bad: 0, warn: 1, info: 2 } as const;
  return b.impact / Math.max(1, b.effort) - a.impact / Math.max(1, a.effort) || b.impact - a.impact || lv[a.level] - lv[b.level] || a.id - b.id;
}

/** The first `limit` actions: causes' own actions and their fixing tasks (causes in order), then the rest. */
export function recommendedActions(tasks: readonly TaskEvidence[], causes: readonly Cause[], limit: number): Action[] {
  const open = tasks.filter((t) => t.status === "open").sort(byValue);
  const used = new Set<number>();
  const out: Omit<Action, "order">[] = [];
  for (const cause of causes) {
    const fixing = open.filter((t) => cause.fixedBy.includes(t.code));
    // A cause no open task fixes brings its own action (an earlier cause may already list its tasks).
    if (fixing.length === 0) {
      out.push({ task_id: null, code: null, title: cause.action, level: cause.severity === "warn" ? "warn" : "bad", gain: null, effort: null, time_min: null, cause: cause.code });
    }
    for (const t of fixing.filter((f) => !used.has(f.id))) {
      used.add(t.id);
      out.push(taskAction(t, cause.code));
    }
  }
  for (const t of open) if (!used.has(t.id)) out.push(taskAction(t, null));
  return out.slice(0, limit).map((a, i) => ({ order: i + 1, ...a }));
}

function taskAction(t: TaskEvidence, cause: string | null): Omit<Action, "order"> {
  return { task_id: t.id, code: t.code, title: t.title, level: t.level, gain: t.impact, effort: t.effort, time_min: EFFORT_MINUTES[t.effort] ?? null, cause };
}

/** Task actions by gain per effort (then gain, level, task id): byValue for actions of several sites. */
export function byActionValue(a: Action, b: Action): number {
  const lv = { bad: 0, warn: 1, info: 2 } as const;
  const ga = a.gain ?? 0;
  const gb = b.gain ?? 0;
  return gb / Math.max(1, b.effort ?? 1) - ga / Math.max(1, a.effort ?? 1) || gb - ga || lv[a.level] - lv[b.level] || (a.task_id ?? 0) - (b.task_id ?? 0);
}
