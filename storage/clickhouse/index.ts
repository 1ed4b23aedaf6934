// ClickHouse: the schema, and the time-series ports' ClickHouse side.
export { ensureClickHouseSchema, USAGE_TABLE, CHECKS_TABLE, CRAWL_PAGES_TABLE, CRAWL_LINKS_TABLE, UPTIME_PROBES_TABLE, UPTIME_HOURLY_TABLE, UPTIME_DAILY_TABLE, SERP_SNAPSHOTS_TABLE, SEARCH_DAILY_TABLE, SEARCH_PERIOD_TABLE, RANK_CHECKS_TABLE, BACKLINKS_TABLE, INDEX_STATUS_TABLE, INDEX_ISSUES_TABLE, INDEX_URLS_TABLE, MARKET_DOMAINS_TABLE, MARKET_KEYWORDS_TABLE } from "./clickhouse-schema.ts";
export { dropExpiredPartitions, type DroppedPartition } from "./drop-expired-partitions.ts";
export { ClickHouseUsageSeries } from "./clickhouse-usage-series.ts";
export { ClickHouseUptimeSeries } from "./clickhouse-uptime-series.ts";
export { ClickHouseSerpSeries } from "./clickhouse-serp-series.ts";
export { ClickHouseRankSeries } from "./clickhouse-rank-series.ts";
export { ClickHouseSearchDailySeries } from "./clickhouse-search-daily-series.ts";
export { ClickHouseSearchPeriodSeries } from "./clickhouse-search-period-series.ts";
export { ClickHouseBacklinkSeries } from "./clickhouse-backlink-series.ts";
export { ClickHouseIndexSeries } from "./clickhouse-index-series.ts";
export { ClickHouseMarketSeries } from "./clickhouse-market-series.ts";
export { moveLegacySearchFacts, LEGACY_FACT_TABLES, type LegacyMoveReport } from "./legacy-search-facts.ts";
export { ClickHouseCheckSeries } from "./clickhouse-check-series.ts";
export { ClickHouseCrawlPages } from "./clickhouse-crawl-pages.ts";
