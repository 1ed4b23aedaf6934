// Tracked queries fell in the results over the last week.
import { daysBefore } from "../evidence.ts";
import { confidence, type Cause, type DiagnosisRule } from "../rule.ts";

/** Places a query must lose (or fall out of the results) to count as dropped. */
export const POSITION_DROP_PLACES = 3;
/** Share of the tracked queries that must drop. */
export const POSITION_DROP_SHARE = 0.3;

export const positionDrop: DiagnosisRule = {
  code: "position_drop",
  title: "Tracked queries lost positions",
  needs: ["positions"],
  kind: "internal",
  evaluate({ ev }): Cause | null {
    const lastDay = ev.positions.reduce((m, p) => (p.day > m ? p.day : m), "");
    const weekAgo = daysBefore(lastDay, 7);
    const byKeyword = new Map<string, { now?: number | null; then?: number | null; thenDay?: string }>();
    for (const p of ev.positions) {
      const k = byKeyword.get(p.keyword) ?? {};
      if (p.day === lastDay) k.now = p.position;
      // The newest check at least a week before the last one.
      if (p.day <= weekAgo && (k.thenDay === undefined || p.day > k.thenDay)) {
        k.then = p.position;
        k.thenDay = p.day;
      }
      byKeyword.set(p.keyword, k);
    }
    const compared = [...byKeyword.values()].filter((k) => k.now !== undefined && k.then !== undefined && k.then !== null);
    const dropped = compared.filter((k) => k.now === null || (k.now as number) - (k.then as number) >= POSITION_DROP_PLACES);
    if (dropped.length < 2 || dropped.length < POSITION_DROP_SHARE * compared.length) return null;
    return {
      code: this.code,
      title: this.title,
      text: `${dropped.length} of ${compared.length} tracked queries lost ${POSITION_DROP_PLACES}+ places or fell out of the results in the week to ${lastDay}.`,
      severity: "warn",
      confidence: confidence(0.6),
      since: null,
      evidence: [{ source: "positions", fact: `${dropped.length} of ${compared.length} queries dropped since ${weekAgo}` }],
      fixedBy: [],
      action: "Look at the pages of the dropped queries: what changed on them, and who took their places.",
    };
  },
};
