// Expected CTR by position (search-data-anchors §6.2): the site's own curve where a rounded rank
// has at least 100 impressions, the Sistrix 2020 study curve elsewhere.

/** Sistrix 2020 CTR (fraction) at positions 1–10. */
export const STUDY_CTR = [0.285, 0.157, 0.11, 0.08, 0.072, 0.051, 0.04, 0.032, 0.028, 0.025] as const;

/** The study's CTR at a (rounded) position; below 10 it falls 0.2 pp a place to a 0.5 % floor. */
export function studyCtr(position: number): number {
  const p = Math.max(1, Math.round(position));
  return p <= 10 ? (STUDY_CTR[p - 1] as number) : Math.max(0.005, 0.025 - 0.002 * (p - 10));
}

export interface CtrCurve {
  /** Expected CTR (fraction) at a position. */
  at(position: number): number;
  /** measured when at least one rank used the site's own numbers. */
  readonly source: "measured" | "study";
}

/** Minimum impressions at a rounded rank before the site's own CTR replaces the study's. */
export const MEASURED_MIN_IMPRESSIONS = 100;

/** The curve of rows {clicks, impressions, position}: Σclicks/Σimpr per rounded rank with ≥100 impressions. */
export function ctrCurve(rows: readonly { clicks: number; impressions: number; position: number | null }[]): CtrCurve {
  const sums = new Map<number, { c: number; i: number }>();
  for (const r of rows) {
    if (r.position === null || r.impressions <= 0) continue;
    const p = Math.max(1, Math.round(r.position));
    const s = sums.get(p) ?? { c: 0, i: 0 };
    s.c += r.clicks;
    s.i += r.impressions;
    sums.set(p, s);
  }
  const measured = new Map<number, number>();
  for (const [p, s] of sums) if (s.i >= MEASURED_MIN_IMPRESSIONS) measured.set(p, s.c / s.i);
  return {
    source: measured.size > 0 ? "measured" : "study",
    at: (position) => measured.get(Math.max(1, Math.round(position))) ?? studyCtr(position),
  };
}
