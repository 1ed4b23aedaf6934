// Expected CTR by position (search-data-anchors §6.2): the site's own curve where a rounded rank
// has at least 100 impressions, the Sistrix 2020 study curve elsewhere. A query is judged against
// the curve without its own row (leave-one-out): measured with it, a query alone at its rank would
// always meet its own expectation.

/** Sistrix 2020 CTR (fraction) at positions 1–10. */
export const STUDY_CTR = [0.285, 0.157, 0.11, 0.08, 0.072, 0.051, 0.04, 0.032, 0.028, 0.025] as const;

/** The study's CTR at a (rounded) position; below 10 it falls 0.2 pp a place to a 0.5 % floor. */
export function studyCtr(position: number): number {
  const p = Math.max(1, Math.round(position));
  return p <= 10 ? (STUDY_CTR[p - 1] as number) : Math.max(0.005, 0.025 - 0.002 * (p - 10));
}

export interface CtrCurve {
  /**
   * Expected CTR (fraction) at a position. With `own`, the row being judged is left out of its
   * rank's sums (leave-one-out): a query alone at its rank is compared with the study, not with itself.
   */
  at(position: number, own?: { clicks: number; impressions: number; position: number }): number;
  /** measured when at least one rank used the site's own numbers. */
  readonly source: "measured" | "study";
}

/** Minimum impressions at a rounded rank before the site's own CTR replaces the study's. */
export const MEASURED_MIN_IMPRESSIONS = 100;

const rankOf = (position: number) => Math.max(1, Math.round(position));

/** The curve of rows {clicks, impressions, position}: Σclicks/Σimpr per rounded rank with ≥100 impressions. */
export function ctrCurve(rows: readonly { clicks: number; impressions: number; position: number | null }[]): CtrCurve {
  const sums = new Map<number, { c: number; i: number }>();
  for (const r of rows) {
    if (r.position === null || r.impressions <= 0) continue;
    const p = rankOf(r.position);
    const s = sums.get(p) ?? { c: 0, i: 0 };
    s.c += r.clicks;
    s.i += r.impressions;
    sums.set(p, s);
  }
  const measuredAt = (p: number, leave?: { clicks: number; impressions: number }) => {
    const s = sums.get(p);
    if (!s) return null;
    const c = s.c - (leave?.clicks ?? 0);
    const i = s.i - (leave?.impressions ?? 0);
    return i >= MEASURED_MIN_IMPRESSIONS ? c / i : null;
  };
  return {
    source: [...sums.keys()].some((p) => measuredAt(p) !== null) ? "measured" : "study",
    at: (position, own) => {
      const p = rankOf(position);
      const leave = own !== undefined && own.impressions > 0 && rankOf(own.position) === p ? own : undefined;
      return measuredAt(p, leave) ?? studyCtr(position);
    },
  };
}
