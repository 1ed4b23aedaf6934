// Many backlinks were lost in the last 30 days.
import { dayOf, daysBefore } from "../evidence.ts";
import { confidence, type Cause, type DiagnosisRule } from "../rule.ts";

/** At least this many links lost, and at least this share of the links the site had. */
export const LOST_MIN = 3;
export const LOST_SHARE = 0.1;

export const lostBacklinks: DiagnosisRule = {
  code: "lost_backlinks",
  title: "Backlinks were lost",
  needs: ["backlinks"],
  kind: "internal",
  evaluate({ ev, now }): Cause | null {
    const from = daysBefore(dayOf(now), 30);
    const lost = ev.backlinks.filter((b) => b.lostAt !== null && b.lostAt >= from).length;
    const live = ev.backlinks.filter((b) => b.lostAt === null).length;
    if (lost < LOST_MIN || lost < LOST_SHARE * (live + lost)) return null;
    const share = Math.round((lost / (live + lost)) * 1000) / 10;
    return {
      code: this.code,
      title: this.title,
      text: `${lost} backlinks were lost in the last 30 days (${share}% of the links the site had); ${live} remain.`,
      severity: "warn",
      confidence: confidence(0.5),
      since: null,
      evidence: [{ source: "backlinks", fact: `${lost} lost since ${from}, ${live} live` }],
      fixedBy: [],
      action: "Ask the linking sites to restore the links, or redirect the pages they pointed to.",
    };
  },
};
