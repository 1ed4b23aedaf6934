// Imported search data: batches and the time-series ports of its facts.
export { PostgresSearchDailySeries, assertDailyRow, type SearchDailySeries, type DailyTotal } from "./search-daily-series.ts";
export { PostgresSearchPeriodSeries, mergePeriodRows, type SearchPeriodSeries, type PeriodSum, type CtrAtRank } from "./search-period-series.ts";
export { PostgresRankSeries, assertRankRow, movesOf, type RankSeries, type RankBatch, type MarketMoves } from "./rank-series.ts";
export { PostgresSerpSeries, assertSerpRow, type SerpSeries, type SerpBatch } from "./serp-series.ts";
export { PostgresBacklinkSeries, type BacklinkSeries, type BacklinkBatch } from "./backlink-series.ts";
export { PostgresIndexSeries, type IndexSeries, type IndexFacts, type IndexPoint, type IndexIssueRow } from "./index-series.ts";
export { PostgresMarketSeries, type MarketSeries, type MarketFacts, type MarketDomainSum, type MarketSourceBatch } from "./market-series.ts";
export { SearchRepo, type BacklinkRow, type ImportBatchRow, type IndexUrlRow, type MarketDomainRow, type MarketKeywordRow, type NewImportBatch, type PeriodRow, type RankRow } from "./search-repo.ts";
