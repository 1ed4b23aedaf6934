// The rank fell between the last two checks and new critical problems appeared in the latest.
import { dayOf } from "../evidence.ts";
import { confidence, type Cause, type DiagnosisRule } from "../rule.ts";

/** Rank points the rank must lose for the rule to look. */
export const RANK_DROP_POINTS = 3;

export const newCriticalProblems: DiagnosisRule = {
  code: "new_critical_problems",
  title: "New critical problems lowered the rank",
  needs: ["report"],
  kind: "internal",
  evaluate({ ev }): Cause | null {
    const latest = ev.runs.at(-1)!;
    const previous = ev.runs.at(-2);
    if (!previous || previous.rank - latest.rank < RANK_DROP_POINTS) return null;
    // A check the previous run failed, or could not measure (na: it may have failed all along), is not new.
    const before = new Set([...previous.failing.map((f) => f.code), ...(previous.unmeasured ?? [])]);
    const fresh = latest.failing.filter((f) => f.level === "bad" && !before.has(f.code));
    if (fresh.length === 0) return null;
    return {
      code: this.code,
      title: this.title,
      text: `The rank fell from ${previous.rank} to ${latest.rank} on ${dayOf(latest.checkedAt)} with new critical problems: ${fresh.map((f) => f.title).join("; ")}.`,
      severity: "bad",
      confidence: confidence(0.85),
      since: latest.checkedAt,
      evidence: [
        { source: "report", fact: `rank ${previous.rank} → ${latest.rank}` },
        ...fresh.map((f) => ({ source: "report" as const, fact: `new: ${f.code} (${f.title})` })),
      ],
      fixedBy: fresh.map((f) => f.code),
      action: "Fix the new critical problems first: they appeared in the last check.",
    };
  },
};
