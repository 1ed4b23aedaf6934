// What changed on a site since a moment: checks that moved the rank, tasks first seen, tasks done.
import type { SiteEvidence } from "./evidence.ts";

export interface SiteChange {
  readonly kind: "rank" | "task_new" | "task_fixed";
  readonly title: string;
  /** The rank before and after (kind rank), else null. */
  readonly from: number | null;
  readonly to: number | null;
  readonly at: number;
}

export function changesSince(ev: SiteEvidence, since: number): SiteChange[] {
  const out: SiteChange[] = [];
  ev.runs.forEach((r, i) => {
    const before = ev.runs[i - 1];
    if (r.checkedAt > since && before && before.rank !== r.rank) out.push({ kind: "rank", title: `Rank ${before.rank} → ${r.rank}`, from: before.rank, to: r.rank, at: r.checkedAt });
  });
  for (const t of ev.tasks) {
    if (t.firstSeen > since) out.push({ kind: "task_new", title: t.title, from: null, to: null, at: t.firstSeen });
    if (t.status === "done" && t.updated > since) out.push({ kind: "task_fixed", title: t.title, from: null, to: null, at: t.updated });
  }
  return out;
}
