// What changed between two runs of a site (GET /changes): checks that started or stopped failing,
// got worse or better, and technologies that appeared or disappeared.
import type { ReportItem } from "./analyze.ts";
import type { CheckStatus } from "./checks/index.ts";

export interface RunSummary {
  items: ReportItem[];
  tech: string[];
}

export interface Change {
  code: string;
  title: string;
  group: string;
  from: CheckStatus;
  to: CheckStatus;
  value: string | number | null;
}

export interface RunDiff {
  new: Change[];
  fixed: Change[];
  returned: Change[];
  worse: Change[];
  improved: Change[];
  tech_added: string[];
  tech_removed: string[];
  changed: boolean;
}

/** A score move of at least this much counts as worse/improved while a check keeps failing. */
const SCORE_STEP = 0.1;
// Scores are ratios; 0.9 − 0.8 is 0.09999999999999998 in binary.
const NOISE = 1e-9;

const isFailing = (status: CheckStatus | undefined): boolean => status === "warn" || status === "fail";

function change(item: ReportItem, from: CheckStatus): Change {
  return { code: item.code, title: item.title, group: item.group, from, to: item.status, value: item.value };
}

/** Both failing: "worse", "improved" or neither. */
function direction(before: ReportItem, now: ReportItem): "worse" | "improved" | undefined {
  if (before.status === "warn" && now.status === "fail") return "worse";
  if (before.status === "fail" && now.status === "warn") return "improved";
  const delta = (now.score ?? 0) - (before.score ?? 0);
  if (delta <= -SCORE_STEP + NOISE) return "worse";
  if (delta >= SCORE_STEP - NOISE) return "improved";
  return undefined;
}

/**
 * Compare two runs. `seenBefore` holds the codes that failed in some run before `older`: a check
 * that fails now but did not in `older` is "returned" when it is in the set, else "new".
 * A check that stops being applicable is neither fixed nor new: nothing was measured.
 */
export function diffRuns(older: RunSummary, newer: RunSummary, seenBefore: ReadonlySet<string>): RunDiff {
  const before = new Map(older.items.map((i) => [i.code, i]));
  const out: RunDiff = { new: [], fixed: [], returned: [], worse: [], improved: [], tech_added: [], tech_removed: [], changed: false };
  for (const now of newer.items) {
    const prev = before.get(now.code);
    const from: CheckStatus = prev?.status ?? "na";
    if (isFailing(now.status) && !isFailing(from)) (seenBefore.has(now.code) ? out.returned : out.new).push(change(now, from));
    else if (isFailing(from) && now.status === "pass") out.fixed.push(change(now, from));
    else if (prev && isFailing(from) && isFailing(now.status)) {
      const moved = direction(prev, now);
      if (moved) out[moved].push(change(now, from));
    }
  }
  const oldTech = new Set(older.tech);
  const newTech = new Set(newer.tech);
  out.tech_added = newer.tech.filter((t) => !oldTech.has(t));
  out.tech_removed = older.tech.filter((t) => !newTech.has(t));
  out.changed = [out.new, out.fixed, out.returned, out.worse, out.improved, out.tech_added, out.tech_removed].some((l) => l.length > 0);
  return out;
}
