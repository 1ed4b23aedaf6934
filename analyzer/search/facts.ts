// The unified model of imported search data (search-data-anchors §8): facts as sums with their
// engine and period, never averages, so CTR and position are always recomputed from sums.

export type Engine = "google" | "yandex";

/** Who an import's data comes from; /providers lists these with their freshness. */
export const PROVIDERS = ["gsc", "gsc_indexing", "yandex_webmaster", "topvisor", "keysso", "ahrefs", "semrush"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const IMPORT_KINDS = ["performance", "indexing", "positions", "backlinks", "market"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export type PeriodDim = "query" | "page" | "country" | "device" | "appearance" | "query_page";

/** One aggregate of a UI export over its period (Queries.csv, Pages.csv, …). */
export interface PeriodFact {
  readonly engine: Engine;
  readonly dim: PeriodDim;
  readonly key: string;
  readonly key2: string;
  readonly clicks: number;
  readonly impressions: number;
  /** position × impressions: sums of these give the impression-weighted position. */
  readonly posXImpr: number;
  /** The Compare-mode previous period, null when the export has none. */
  readonly prevClicks: number | null;
  readonly prevImpressions: number | null;
  readonly prevPosXImpr: number | null;
}

/** One dated row; query, page, country and device are '' for the total over that dimension. */
export interface DailyFact {
  readonly engine: Engine;
  readonly date: string;
  readonly query: string;
  readonly page: string;
  readonly country: string;
  readonly device: string;
  readonly clicks: number;
  readonly impressions: number;
  readonly posXImpr: number;
}

export interface IndexStatusFact {
  readonly engine: Engine;
  readonly date: string;
  readonly indexed: number | null;
  readonly notIndexed: number | null;
}

export interface IndexIssueFact {
  readonly engine: Engine;
  readonly reason: string;
  readonly source: string;
  readonly validation: string;
  readonly pages: number;
}

export interface IndexUrlFact {
  readonly engine: Engine;
  readonly url: string;
  /** searchable | excluded | not_indexed (the engine's own word is kept in reason). */
  readonly status: "searchable" | "excluded" | "not_indexed";
  readonly reason: string;
  readonly httpCode: number | null;
  readonly lastCrawled: string | null;
  readonly event: string | null;
  readonly eventDate: string | null;
  readonly target: string | null;
}

export interface BacklinkFact {
  readonly sourceUrl: string;
  readonly targetUrl: string;
  readonly anchor: string;
  readonly sourceDomain: string;
  readonly nofollow: boolean;
  readonly sourceRating: number | null;
  readonly ratingScale: string | null;
  readonly firstSeen: string | null;
  readonly lastSeen: string | null;
  readonly lostAt: string | null;
}

export interface RankFact {
  readonly engine: Engine;
  readonly region: number;
  readonly device: "desktop" | "mobile";
  readonly keyword: string;
  readonly date: string;
  /** 1–100; null when not found within the tracked depth. */
  readonly position: number | null;
  readonly url: string | null;
  readonly group: string;
  readonly volume: number | null;
}

/** A domain of a market source's competitor report (Keys.so concurents), in its regional base. */
export interface MarketDomainFact {
  readonly base: string;
  readonly domain: string;
  /** Keywords shared with the site (Keys.so cnt). */
  readonly commonKeywords: number | null;
  /** Share of the site's keywords the domain shares (Keys.so perc, %). */
  readonly similarityPct: number | null;
  /** Daily organic visitors the source estimates (Keys.so vis). */
  readonly visibility: number | null;
  readonly top10: number | null;
  readonly pagesInIndex: number | null;
}

/** A keyword a domain ranks for in a market source's base (Keys.so organic keywords). */
export interface MarketKeywordFact {
  readonly base: string;
  readonly domain: string;
  readonly keyword: string;
  readonly position: number;
  readonly url: string;
  /** The "!exact" frequency (Keys.so wsk). */
  readonly volume: number | null;
}

/**
 * One result of a search engine's result page as a rank tracker saw it (Topvisor snapshots_2):
 * the domain ranking at rank for a keyword on a day. A day's list for a keyword is a whole.
 */
export interface SerpFact {
  readonly engine: Engine;
  readonly region: number;
  readonly device: "desktop" | "mobile";
  readonly keyword: string;
  readonly date: string;
  /** 1-based place in the result list. */
  readonly rank: number;
  /** Lower-case host without www. */
  readonly domain: string;
  readonly url: string;
}

/** Everything one import file yields. */
export interface ImportFacts {
  readonly period: PeriodFact[];
  readonly daily: DailyFact[];
  readonly indexStatus: IndexStatusFact[];
  readonly indexIssues: IndexIssueFact[];
  readonly indexUrls: IndexUrlFact[];
  readonly backlinks: BacklinkFact[];
  readonly ranks: RankFact[];
  readonly marketDomains: MarketDomainFact[];
  readonly marketKeywords: MarketKeywordFact[];
  readonly serp: SerpFact[];
  readonly warnings: string[];
  /** Scope rows of the export (GSC Filters.csv: Search type, Date, Country, …). */
  readonly filters: Record<string, string>;
  /** The export hit a tool's row cap (GSC UI: 1,000 rows). */
  truncated: boolean;
  /** Days the data covers, when the file says (YYYY-MM-DD). */
  periodStart: string | null;
  periodEnd: string | null;
}

export function emptyFacts(): ImportFacts {
  return { period: [], daily: [], indexStatus: [], indexIssues: [], indexUrls: [], backlinks: [], ranks: [], marketDomains: [], marketKeywords: [], serp: [], warnings: [], filters: {}, truncated: false, periodStart: null, periodEnd: null };
}

/** Widens the facts' period to cover day. */
export function coverDay(facts: ImportFacts, day: string): void {
  if (facts.periodStart === null || day < facts.periodStart) facts.periodStart = day;
  if (facts.periodEnd === null || day > facts.periodEnd) facts.periodEnd = day;
}

/** The count of facts of every sort (the batch's `rows`). */
export function factCount(f: ImportFacts): number {
  return f.period.length + f.daily.length + f.indexStatus.length + f.indexIssues.length + f.indexUrls.length + f.backlinks.length + f.ranks.length + f.marketDomains.length + f.marketKeywords.length + f.serp.length;
}
