import { studyCtr } from "./ctr-curve.ts";

// Market and keyword-gap analytics over a market source's keyword rows (search-data-anchors §5.3):
// the Semrush gap vocabulary mapped to the spec's filters. "Ranks" means position ≤ 50 (the
// Keys.so depth).

export const RANKS_DEPTH = 50;
export const MARKET_FILTERS = ["all", "missing", "behind", "strong", "shared", "unique", "theirs"] as const;
export type MarketFilter = (typeof MARKET_FILTERS)[number];

export interface DomainKeyword {
  readonly domain: string;
  readonly keyword: string;
  readonly position: number;
  readonly url: string;
  readonly volume: number | null;
}

/** One keyword of the universe: the site's position and the rivals'. */
export interface GapKeyword {
  readonly keyword: string;
  readonly volume: number;
  readonly myPos: number | null;
  readonly myUrl: string | null;
  /** Rival positions (≤ depth), best first. */
  readonly rivals: readonly { domain: string; position: number; url: string }[];
  readonly filters: readonly MarketFilter[];
  /** Clicks a month the site would gain at the best rival's position: volume × (CTR(best) − CTR(mine)). */
  readonly gain: number;
}

/** Classifies every keyword ranked (≤ 50) by the site or a rival into the spec's filters. */
export function gapKeywords(rows: readonly DomainKeyword[], self: string, rivals: readonly string[]): GapKeyword[] {
  const rivalSet = new Set(rivals);
  const by = new Map<string, DomainKeyword[]>();
  for (const r of rows) {
    if (r.position > RANKS_DEPTH || (r.domain !== self && !rivalSet.has(r.domain))) continue;
    const list = by.get(r.keyword) ?? [];
    list.push(r);
    by.set(r.keyword, list);
  }
  const out: GapKeyword[] = [];
  for (const [keyword, list] of by) {
    const mine = list.filter((r) => r.domain === self).sort((a, b) => a.position - b.position)[0] ?? null;
    const theirs = [...new Map(list.filter((r) => r.domain !== self).sort((a, b) => a.position - b.position).map((r) => [r.domain, r] as const)).values()];
    const volume = Math.max(0, ...list.map((r) => r.volume ?? 0));
    const filters: MarketFilter[] = ["all"];
    const all = rivals.length > 0 && theirs.length === rivals.length;
    const best = theirs[0] ?? null;
    if (mine === null) {
      if (theirs.length > 0) filters.push("theirs");
      if (all) filters.push("missing");
    } else {
      if (theirs.length === 0) filters.push("unique");
      if (all) filters.push("shared");
      if (theirs.length > 0 && theirs.every((r) => r.position < mine.position)) filters.push("behind");
      if (all && theirs.every((r) => r.position > mine.position)) filters.push("strong");
    }
    const gain = best !== null ? Math.round(volume * Math.max(0, studyCtr(best.position) - (mine ? studyCtr(mine.position) : 0))) : 0;
    out.push({ keyword, volume, myPos: mine?.position ?? null, myUrl: mine?.url ?? null, rivals: theirs.map((r) => ({ domain: r.domain, position: r.position, url: r.url })), filters, gain });
  }
  return out.sort((a, b) => b.gain - a.gain || b.volume - a.volume || (a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0));
}

/** How many keywords fall in each filter. */
export function filterCounts(keywords: readonly GapKeyword[]): Record<MarketFilter, number> {
  const counts = Object.fromEntries(MARKET_FILTERS.map((f) => [f, 0])) as Record<MarketFilter, number>;
  for (const k of keywords) for (const f of k.filters) counts[f]++;
  return counts;
}

/**
 * The /keyword-gap kinds: missing = at least one rival ranks and the site does not (Untapped),
 * ordered by volume × the share of rivals ranking; behind = the site ranks, and a rival is ahead by
 * at least 3 places (or every rival is ahead), ordered by gain.
 */
export function keywordGap(keywords: readonly GapKeyword[], kind: "missing" | "behind", rivalCount: number): GapKeyword[] {
  if (kind === "missing") {
    const score = (k: GapKeyword) => k.volume * (k.rivals.length / Math.max(1, rivalCount));
    return keywords.filter((k) => k.myPos === null && k.rivals.length > 0).sort((a, b) => score(b) - score(a) || a.keyword.localeCompare(b.keyword));
  }
  return keywords.filter((k) => k.myPos !== null && k.rivals.length > 0 && (k.filters.includes("behind") || (k.rivals[0] as { position: number }).position <= (k.myPos) - 3));
}
