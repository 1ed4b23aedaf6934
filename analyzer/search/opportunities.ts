import type { CtrCurve } from "./ctr-curve.ts";
import type { Engine } from "./facts.ts";

// Search opportunities (search-data-anchors §6.3–6.5): near (striking distance), ctr (snippet
// under-performs its position) and cannibalization (several URLs split one query).

export type OpportunityKind = "near" | "ctr" | "cannibalization";

/** A query's sums over the window. */
export interface QuerySums {
  readonly engine: Engine;
  readonly query: string;
  readonly clicks: number;
  readonly impressions: number;
  readonly posXImpr: number;
}

/** A query×page's sums over the window. */
export interface QueryPageSums extends QuerySums {
  readonly page: string;
}

export interface Opportunity {
  readonly kind: OpportunityKind;
  readonly engine: Engine;
  readonly query: string;
  readonly impressions: number;
  readonly clicks: number;
  /** Impression-weighted position, 1 decimal. */
  readonly position: number;
  readonly expected_gain_clicks: number;
  /** The competing URLs (cannibalization only), largest share first. */
  readonly pages?: readonly { url: string; share: number; position: number }[];
}

/** Position = Σ(pos·impr)/Σimpr; null without impressions. */
export function positionOf(s: { impressions: number; posXImpr: number }): number | null {
  return s.impressions > 0 && s.posXImpr > 0 ? s.posXImpr / s.impressions : null;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** near: position 4–15 (Yandex 4–20), ≥100 impressions; gain = impr × max(0, CTR_exp(3) − CTR). */
export function nearOpportunities(rows: readonly QuerySums[], curve: CtrCurve): Opportunity[] {
  const out: Opportunity[] = [];
  for (const r of rows) {
    const pos = positionOf(r);
    const upper = r.engine === "yandex" ? 20 : 15;
    if (pos === null || pos < 4 || pos > upper || r.impressions < 100) continue;
    const gain = Math.round(r.impressions * Math.max(0, curve.at(3) - r.clicks / r.impressions));
    out.push({ kind: "near", engine: r.engine, query: r.query, impressions: r.impressions, clicks: r.clicks, position: round1(pos), expected_gain_clicks: gain });
  }
  return out;
}

/** ctr: position ≤10, ≥500 impressions, expected − actual CTR > 1 pp; gain = impr × gap. */
export function ctrOpportunities(rows: readonly QuerySums[], curve: CtrCurve): Opportunity[] {
  const out: Opportunity[] = [];
  for (const r of rows) {
    const pos = positionOf(r);
    if (pos === null || pos > 10 || r.impressions < 500) continue;
    const gap = curve.at(pos, { clicks: r.clicks, impressions: r.impressions, position: pos }) - r.clicks / r.impressions;
    if (gap <= 0.01) continue;
    out.push({ kind: "ctr", engine: r.engine, query: r.query, impressions: r.impressions, clicks: r.clicks, position: round1(pos), expected_gain_clicks: Math.round(r.impressions * gap) });
  }
  return out;
}

/**
 * cannibalization: ≥2 URLs each holding ≥10 % of the query's impressions, best position ≤20, total
 * impressions ≥50; gain = impr_total × max(0, CTR_exp(best position) − CTR_total).
 */
export function cannibalization(rows: readonly QueryPageSums[], curve: CtrCurve): Opportunity[] {
  const byQuery = new Map<string, QueryPageSums[]>();
  for (const r of rows) {
    const k = `${r.engine}\u0000${r.query}`;
    const list = byQuery.get(k) ?? [];
    list.push(r);
    byQuery.set(k, list);
  }
  const out: Opportunity[] = [];
  for (const list of byQuery.values()) {
    const impressions = list.reduce((a, r) => a + r.impressions, 0);
    const clicks = list.reduce((a, r) => a + r.clicks, 0);
    if (impressions < 50) continue;
    const strong = list.filter((r) => r.impressions / impressions >= 0.1).sort((a, b) => b.impressions - a.impressions);
    if (strong.length < 2) continue;
    const positions = strong.map(positionOf).filter((p): p is number => p !== null);
    const best = Math.min(...positions);
    if (!Number.isFinite(best) || best > 20) continue;
    const first = list[0] as QueryPageSums;
    const posX = list.reduce((a, r) => a + r.posXImpr, 0);
    out.push({
      kind: "cannibalization",
      engine: first.engine,
      query: first.query,
      impressions,
      clicks,
      position: round1(posX / impressions),
      expected_gain_clicks: Math.round(impressions * Math.max(0, curve.at(best, { clicks, impressions, position: posX / impressions }) - clicks / impressions)),
      pages: strong.map((r) => ({ url: r.page, share: Math.round((r.impressions / impressions) * 1000) / 1000, position: round1(positionOf(r) ?? 0) })),
    });
  }
  return out;
}
