import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { sql, type Sql } from "../engine/clickhouse-sql.ts";

// The time-series tables. Every table is partitioned by month of its time column, so retention is a
// DROP PARTITION (see drop-expired-partitions.ts), and ordered for the API's reads: by host or key
// first, then time or run. Statements stay within what ClickHouse 18.16 accepts: no TTL, no CODEC,
// no LowCardinality (it would need allow_experimental_low_cardinality_type on 18.16; the columns
// it would suit are short strings that compress well anyway).

/** Per key and UTC day, summed by the engine on merge; reads sum again, so they are exact at any time. */
export const USAGE_TABLE = "usage_daily";
/** Per-check results of finished analyses; one row per (run, code) after merges, the highest attempt. */
export const CHECKS_TABLE = "check_results";
/** Pages of crawl jobs; one row per (job, URL) after merges, the highest attempt. */
export const CRAWL_PAGES_TABLE = "crawl_pages";
/** Inlinks and link rank of crawl pages, set when the crawl settles; joined to crawl_pages on read. */
export const CRAWL_LINKS_TABLE = "crawl_page_links";

/** Raw uptime probes; one row per (host, slot, confirm) after merges. */
export const UPTIME_PROBES_TABLE = "uptime_probes";
/** Probes per host and hour (held ones left out), summed by the engine; filled by a materialized view. */
export const UPTIME_HOURLY_TABLE = "uptime_hourly";
/** The same per host and UTC day. */
export const UPTIME_DAILY_TABLE = "uptime_daily";

/**
 * SERP snapshots imported by users: the domains per tracked query and day. Partitioned
 * by the month of the day, but not under retention: imported history is the user's to delete
 * (DELETE /imports/batches/{id}), whatever its age.
 */
export const SERP_SNAPSHOTS_TABLE = "serp_snapshots";
/** Dated search facts (GSC Chart/Dates, Yandex query analytics) as sums, imported by users; not under retention either. */
export const SEARCH_DAILY_TABLE = "search_daily";
/** Imported period sums (GSC Performance, Yandex query × page); not under retention either. */
export const SEARCH_PERIOD_TABLE = "search_period";
/** Imported rank checks (Topvisor positions, Keys.so monitoring); not under retention either. */
export const RANK_CHECKS_TABLE = "rank_checks";

/** Imported backlinks (Ahrefs, Semrush, GSC links), one row per (batch, link) after merges; not under retention. */
export const BACKLINKS_TABLE = "backlinks";
/** Imported indexing facts: chart points, issues and URLs (GSC Page indexing, Yandex pages in search); not under retention. */
export const INDEX_STATUS_TABLE = "index_status";
export const INDEX_ISSUES_TABLE = "index_issues";
export const INDEX_URLS_TABLE = "index_urls";
/** Imported market reports (Keys.so competitors and keywords per base); not under retention. */
export const MARKET_DOMAINS_TABLE = "market_domains";
export const MARKET_KEYWORDS_TABLE = "market_keywords";

/** Tables whose partitions are months (toYYYYMM), for retention. */
export const MONTHLY_TABLES: readonly string[] = [USAGE_TABLE, CHECKS_TABLE, CRAWL_PAGES_TABLE, CRAWL_LINKS_TABLE, UPTIME_PROBES_TABLE, UPTIME_HOURLY_TABLE, UPTIME_DAILY_TABLE];

const TABLES: readonly Sql[] = [
  sql`CREATE TABLE IF NOT EXISTS usage_daily (
    key_id  UInt64,
    day     Date,
    calls   Int64,
    errors  Int64,
    limited Int64
  ) ENGINE = SummingMergeTree((calls, errors, limited))
  PARTITION BY toYYYYMM(day)
  ORDER BY (key_id, day)`,
  // ReplacingMergeTree(attempt): the natural key (host, run_id, code) is the sorting key and the
  // attempt is the version, so a rewrite of a check, retried or replayed, leaves one row. Merges
  // happen within a partition only; reads therefore pick the highest attempt themselves (argMax).
  sql`CREATE TABLE IF NOT EXISTS check_results (
    host        String,
    run_id      UInt64,
    code        String,
    attempt     UInt32,
    job_id      UInt64,
    checked_at  DateTime('UTC'),
    status      String,
    value       Nullable(String),
    check_group String
  ) ENGINE = ReplacingMergeTree(attempt)
  PARTITION BY toYYYYMM(checked_at)
  ORDER BY (host, run_id, code)`,
  // Crawl pages, keyed by the natural key (job, URL): a page stored again, retried or by a later
  // attempt, leaves one row, the highest attempt's (of equal attempts the last stored; reads pick
  // argMax over (attempt, seq), which agrees). The URL enters the key as its 64-bit hash, computed
  // by the server: a fixed-width key keeps merges and GROUP BY cheap, every read is by job (the
  // key's prefix) so the URL itself would order nothing, and a collision within one job's few
  // thousand URLs is around 1e-12 likely. seq is the store order (the resume read, then crawl
  // order within a depth). The partition is the month of the job's creation, not of the insert:
  // a job's rows share one partition, so merges (which never cross partitions) remove every
  // duplicate, and retention drops a crawl whole rather than half of one at a month's end.
  sql`CREATE TABLE IF NOT EXISTS crawl_pages (
    job_id      UInt64,
    url         String,
    url_hash    UInt64 MATERIALIZED cityHash64(url),
    attempt     UInt32,
    seq         UInt64,
    job_created DateTime('UTC'),
    depth       Int32,
    status      Int32,
    skipped     String,
    title       String,
    words       Int32,
    outlinks    Int32,
    issues      Array(String),
    data        String
  ) ENGINE = ReplacingMergeTree(attempt)
  PARTITION BY toYYYYMM(job_created)
  ORDER BY (job_id, url_hash)`,
  // The link figures of a settled crawl, apart from the pages: a settle writes them once more when
  // it is retried, and a new version of a page row would have to carry its whole data again.
  // version orders writes (the later settle wins); reads join the argMax row per key.
  sql`CREATE TABLE IF NOT EXISTS crawl_page_links (
    job_id      UInt64,
    url         String,
    url_hash    UInt64 MATERIALIZED cityHash64(url),
    version     UInt64,
    job_created DateTime('UTC'),
    inlinks     Int32,
    score       Float64
  ) ENGINE = ReplacingMergeTree(version)
  PARTITION BY toYYYYMM(job_created)
  ORDER BY (job_id, url_hash)`,
  // Raw probes, keyed by (host, slot, confirm): a result stored twice leaves one row after merges
  // (both copies carry the same `at`, so the same partition). The rollups below are filled by
  // materialized views at insert time, before merges: the series inserts only keys it has not
  // stored (ClickHouseUptimeSeries.add), so that they count each probe once.
  sql`CREATE TABLE IF NOT EXISTS uptime_probes (
    host       String,
    slot       UInt64,
    confirm    UInt8,
    at         DateTime('UTC'),
    ok         UInt8,
    status     UInt16,
    cause      String,
    dns_ms     Float32,
    connect_ms Float32,
    tls_ms     Float32,
    ttfb_ms    Float32,
    total_ms   Float32,
    late_ms    Float32,
    node       String,
    held       UInt8
  ) ENGINE = ReplacingMergeTree
  PARTITION BY toYYYYMM(at)
  ORDER BY (host, slot, confirm)`,
  sql`CREATE TABLE IF NOT EXISTS uptime_hourly (
    host        String,
    hour        DateTime('UTC'),
    probes      UInt64,
    failed      UInt64,
    ok_probes   UInt64,
    ok_total_ms Float64
  ) ENGINE = SummingMergeTree((probes, failed, ok_probes, ok_total_ms))
  PARTITION BY toYYYYMM(hour)
  ORDER BY (host, hour)`,
  sql`CREATE TABLE IF NOT EXISTS uptime_daily (
    host        String,
    day         Date,
    probes      UInt64,
    failed      UInt64,
    ok_probes   UInt64,
    ok_total_ms Float64
  ) ENGINE = SummingMergeTree((probes, failed, ok_probes, ok_total_ms))
  PARTITION BY toYYYYMM(day)
  ORDER BY (host, day)`,
  // The rows of import batches, which live in Postgres: reads name the live batches, so the rows of
  // a batch whose transaction never committed, or that was deleted before its mutation ran, are
  // never read. The key holds the whole natural key, so a batch stored twice leaves one copy.
  sql`CREATE TABLE IF NOT EXISTS serp_snapshots (
    account_id UInt64,
    host       String,
    import_id  UInt64,
    engine     String,
    region     UInt32,
    device     String,
    keyword    String,
    day        Date,
    rank       UInt16,
    domain     String,
    url        String
  ) ENGINE = ReplacingMergeTree
  PARTITION BY toYYYYMM(day)
  ORDER BY (account_id, host, day, engine, region, device, keyword, import_id, rank)`,
  // Sums per batch and key; '' in query/page/country/device is the total over that dimension.
  sql`CREATE TABLE IF NOT EXISTS search_daily (
    account_id  UInt64,
    host        String,
    import_id   UInt64,
    engine      String,
    day         Date,
    query       String,
    page        String,
    country     String,
    device      String,
    clicks      UInt64,
    impressions UInt64,
    pos_x_impr  Float64
  ) ENGINE = ReplacingMergeTree
  PARTITION BY toYYYYMM(day)
  ORDER BY (account_id, host, engine, day, query, page, country, device, import_id)`,
  // One row per batch and (engine, dim, key, key2): the port sums repeated keys before inserting.
  // No date column (a period's dates are its batch's): no partitions; rows go with their batch.
  sql`CREATE TABLE IF NOT EXISTS search_period (
    account_id       UInt64,
    host             String,
    import_id        UInt64,
    engine           String,
    dim              String,
    key              String,
    key2             String,
    clicks           UInt64,
    impressions      UInt64,
    pos_x_impr       Float64,
    prev_clicks      Nullable(UInt64),
    prev_impressions Nullable(UInt64),
    prev_pos_x_impr  Nullable(Float64)
  ) ENGINE = ReplacingMergeTree
  ORDER BY (account_id, host, engine, dim, import_id, key, key2)`,
  // One check per batch, query and day; position, url and volume are Nullable (not in the key).
  sql`CREATE TABLE IF NOT EXISTS rank_checks (
    account_id UInt64,
    host       String,
    import_id  UInt64,
    provider   String,
    engine     String,
    region     UInt32,
    device     String,
    keyword    String,
    day        Date,
    position   Nullable(UInt16),
    url        Nullable(String),
    grp        String,
    volume     Nullable(UInt64)
  ) ENGINE = ReplacingMergeTree
  PARTITION BY toYYYYMM(day)
  ORDER BY (account_id, host, engine, region, device, keyword, day, import_id)`,
  // Imported search facts (the BacklinkSeries, IndexSeries and MarketSeries ports):
  // one row per batch and natural key after merges (reads use FINAL); a batch's rows of a report
  // read whole keep the report's order in seq.
  sql`CREATE TABLE IF NOT EXISTS backlinks (
    account_id    UInt64,
    host          String,
    import_id     UInt64,
    provider      String,
    source_url    String,
    target_url    String,
    anchor        String,
    source_domain String,
    nofollow      UInt8,
    source_rating Nullable(Int32),
    rating_scale  Nullable(String),
    first_seen    Nullable(String),
    last_seen     Nullable(String),
    lost_at       Nullable(String)
  ) ENGINE = ReplacingMergeTree
  ORDER BY (account_id, host, source_url, target_url, anchor, import_id)`,
  sql`CREATE TABLE IF NOT EXISTS index_status (
    account_id  UInt64,
    host        String,
    import_id   UInt64,
    engine      String,
    day         String,
    indexed     Nullable(Int64),
    not_indexed Nullable(Int64)
  ) ENGINE = ReplacingMergeTree
  ORDER BY (account_id, host, engine, day, import_id)`,
  sql`CREATE TABLE IF NOT EXISTS index_issues (
    account_id UInt64,
    host       String,
    import_id  UInt64,
    seq        UInt32,
    engine     String,
    reason     String,
    source     String,
    validation String,
    pages      Int64
  ) ENGINE = ReplacingMergeTree
  ORDER BY (account_id, host, engine, import_id, seq)`,
  sql`CREATE TABLE IF NOT EXISTS index_urls (
    account_id   UInt64,
    host         String,
    import_id    UInt64,
    engine       String,
    url          String,
    status       String,
    reason       String,
    http_code    Nullable(Int32),
    last_crawled Nullable(String),
    event        Nullable(String),
    event_date   Nullable(String),
    target       Nullable(String)
  ) ENGINE = ReplacingMergeTree
  ORDER BY (account_id, host, engine, url, import_id)`,
  sql`CREATE TABLE IF NOT EXISTS market_domains (
    account_id      UInt64,
    host            String,
    import_id       UInt64,
    provider        String,
    base            String,
    seq             UInt32,
    domain          String,
    common_keywords Nullable(Int64),
    similarity_pct  Nullable(Float64),
    visibility      Nullable(Float64),
    top10           Nullable(Int64),
    pages_in_index  Nullable(Int64)
  ) ENGINE = ReplacingMergeTree
  ORDER BY (account_id, host, provider, base, import_id, seq)`,
  sql`CREATE TABLE IF NOT EXISTS market_keywords (
    account_id UInt64,
    host       String,
    import_id  UInt64,
    provider   String,
    base       String,
    domain     String,
    keyword    String,
    position   Int32,
    url        String,
    volume     Nullable(Int64)
  ) ENGINE = ReplacingMergeTree
  ORDER BY (account_id, host, provider, base, domain, keyword, import_id)`,
  sql`CREATE MATERIALIZED VIEW IF NOT EXISTS uptime_hourly_mv TO uptime_hourly AS
    SELECT host, toStartOfHour(at) AS hour, count() AS probes, countIf(ok = 0) AS failed, countIf(ok = 1) AS ok_probes, sumIf(toFloat64(total_ms), ok = 1) AS ok_total_ms
    FROM uptime_probes WHERE held = 0 GROUP BY host, hour`,
  sql`CREATE MATERIALIZED VIEW IF NOT EXISTS uptime_daily_mv TO uptime_daily AS
    SELECT host, toDate(at) AS day, count() AS probes, countIf(ok = 0) AS failed, countIf(ok = 1) AS ok_probes, sumIf(toFloat64(total_ms), ok = 1) AS ok_total_ms
    FROM uptime_probes WHERE held = 0 GROUP BY host, day`,
];

/**
 * Creates the tables that are missing. Idempotent, and safe when several processes start at once;
 * the database itself must exist. CREATE … IF NOT EXISTS leaves an existing table alone, so a later
 * change to a table needs an ALTER step of its own (18.16 has no ADD COLUMN IF NOT EXISTS).
 */
export async function ensureClickHouseSchema(ch: ClickHouse): Promise<void> {
  for (const statement of TABLES) await ch.command(statement);
}
