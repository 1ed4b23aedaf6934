import { randomBytes } from "node:crypto";
import { createClient } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  CHECKS_TABLE,
  ClickHouseCheckSeries,
  ClickHouseUptimeSeries,
  ClickHouseSerpSeries,
  ClickHouseSearchDailySeries,
  ClickHouseSearchPeriodSeries,
  ClickHouseRankSeries,
  ClickHouseUsageSeries,
  ClickHouseBacklinkSeries,
  ClickHouseIndexSeries,
  ClickHouseMarketSeries,
  PostgresBacklinkSeries,
  PostgresIndexSeries,
  PostgresMarketSeries,
  BACKLINKS_TABLE,
  INDEX_STATUS_TABLE,
  INDEX_ISSUES_TABLE,
  INDEX_URLS_TABLE,
  MARKET_DOMAINS_TABLE,
  MARKET_KEYWORDS_TABLE,
  clickhouseIdent as ident,
  clickhouseSql as sql,
  dropExpiredPartitions,
  ensureClickHouseSchema,
  migrate,
  openClickHouse,
  openPglite,
  openPostgres,
  PostgresCheckSeries,
  PostgresSerpSeries,
  PostgresSearchDailySeries,
  PostgresSearchPeriodSeries,
  PostgresRankSeries,
  PostgresUptimeSeries,
  PostgresUsageSeries,
  UPTIME_DAILY_TABLE,
  UPTIME_HOURLY_TABLE,
  UPTIME_PROBES_TABLE,
  SERP_SNAPSHOTS_TABLE,
  SEARCH_DAILY_TABLE,
  SEARCH_PERIOD_TABLE,
  RANK_CHECKS_TABLE,
  USAGE_TABLE,
  type ClickHouse,
  type Db,
  type SqlValue,
} from "../../storage/index.ts";
import { emptyFacts, type ImportFacts } from "../../analyzer/index.ts";
import { AccountsRepo, ClickHouseBacklinkSeries as CHLinks, ClickHouseIndexSeries as CHIndex, ClickHouseMarketSeries as CHMarket, ClickHouseSearchPeriodSeries as CHPeriod, createStore, LEGACY_FACT_TABLES, moveLegacySearchFacts, type Store } from "../../storage/index.ts";
import { startLegacyFactsMove, LEGACY_FACTS_LEADERSHIP } from "../../bin/compose.ts";
import { createLogger, Lifecycle, type Clock } from "../../runtime/index.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { freshDatabase } from "../harness/databases.ts";
import { HOSTILE_TEXT, seriesContract, type SeriesHandle, type SeriesTarget } from "../harness/series-contract.ts";

// One time-series contract, run unchanged on the embedded store, a Postgres server and ClickHouse.
// The ClickHouse server is this file's own (the other integration files do not need it).

let server: ClickHouseServer;

beforeAll(async () => {
  server = await startClickHouse();
});

afterAll(async () => {
  await server?.stop();
});

async function newClickHouse(options: { insertBatchRows?: number } = {}): Promise<ClickHouse & { url: string }> {
  const url = await server.createDatabase(`t_${randomBytes(6).toString("hex")}`);
  const ch = await openClickHouse({ url, ...options });
  await ensureClickHouseSchema(ch);
  return Object.assign(ch, { url });
}

function postgresHandle(db: Db): SeriesHandle {
  return { usage: new PostgresUsageSeries(db), checks: new PostgresCheckSeries(db), uptime: new PostgresUptimeSeries(db), serp: new PostgresSerpSeries(db), searchDaily: new PostgresSearchDailySeries(db), searchPeriod: new PostgresSearchPeriodSeries(db), ranks: new PostgresRankSeries(db), backlinks: new PostgresBacklinkSeries(db), index: new PostgresIndexSeries(db), market: new PostgresMarketSeries(db), close: () => db.close() };
}

const targets: SeriesTarget[] = [
  {
    name: "PGlite in memory",
    open: async () => {
      const db = await openPglite(null);
      await migrate(db, 0);
      return postgresHandle(db);
    },
  },
  {
    name: "Postgres server (pool of 4)",
    open: async () => {
      const db = openPostgres({ url: await freshDatabase(inject("postgresUrl")), poolSize: 4 });
      await migrate(db, 0);
      return postgresHandle(db);
    },
  },
  {
    name: "ClickHouse (Debian's server)",
    open: async () => {
      // Small insert batches: a write of more rows than one batch must still be one idempotent write.
      const ch = await newClickHouse({ insertBatchRows: 7 });
      return {
        usage: new ClickHouseUsageSeries(ch),
        checks: new ClickHouseCheckSeries(ch),
        uptime: new ClickHouseUptimeSeries(ch),
        serp: new ClickHouseSerpSeries(ch),
        searchDaily: new ClickHouseSearchDailySeries(ch),
        searchPeriod: new ClickHouseSearchPeriodSeries(ch),
        ranks: new ClickHouseRankSeries(ch),
        backlinks: new ClickHouseBacklinkSeries(ch),
        index: new ClickHouseIndexSeries(ch),
        market: new ClickHouseMarketSeries(ch),
        async settle() {
          for (const table of [USAGE_TABLE, CHECKS_TABLE, UPTIME_PROBES_TABLE, UPTIME_HOURLY_TABLE, UPTIME_DAILY_TABLE, SERP_SNAPSHOTS_TABLE, SEARCH_DAILY_TABLE, SEARCH_PERIOD_TABLE, RANK_CHECKS_TABLE, BACKLINKS_TABLE, INDEX_STATUS_TABLE, INDEX_ISSUES_TABLE, INDEX_URLS_TABLE, MARKET_DOMAINS_TABLE, MARKET_KEYWORDS_TABLE]) await ch.command(sql`OPTIMIZE TABLE ${ident(table)} FINAL`);
        },
        close: () => ch.close(),
      };
    },
  },
];

seriesContract(targets);

describe("ClickHouse client", () => {
  let ch: ClickHouse & { url: string };

  beforeAll(async () => {
    ch = await newClickHouse();
  });

  afterAll(async () => {
    await ch?.close();
  });

  it("reads the server's version and what it can do", async () => {
    expect(ch.version).toBe(server.version);
    if (ch.version.startsWith("18.")) expect(ch.features).toEqual({ queryParams: false, ttl: false, insertDedupToken: false });
  });

  it("the feature flag for query parameters agrees with the server", async () => {
    const raw = createClient({ url: server.url, log: { level: 127 } });
    try {
      const asked = raw.query({ query: "SELECT {x:String} AS x", query_params: { x: "y" }, format: "JSONEachRow" }).then((r) => r.json());
      if (ch.features.queryParams) await expect(asked).resolves.toEqual([{ x: "y" }]);
      else await expect(asked).rejects.toThrow();
    } finally {
      await raw.close();
    }
  });

  it("fails to open, with the address, when nothing answers", async () => {
    await expect(openClickHouse({ url: "http://user:secret@127.0.0.1:1/db", requestTimeoutMs: 2_000 })).rejects.toThrow(
      /^ClickHouse at http:\/\/user:\*\*\*@127\.0\.0\.1:1\/db did not answer/,
    );
  });

  it("hostile strings come back from the server exactly, byte for byte", async () => {
    const corpus = [...HOSTILE_TEXT, "\0", "nul\0in\0side", Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join(""), "'".repeat(1000)];
    for (const text of corpus) {
      const [got] = await ch.query<{ s: string; h: string; n: string }>(sql`SELECT ${text} AS s, hex(${text}) AS h, length(${text}) AS n`);
      expect(got, JSON.stringify(text)).toEqual({ s: text, h: Buffer.from(text, "utf8").toString("hex").toUpperCase(), n: String(Buffer.byteLength(text)) });
    }
  });

  it("numbers, bigints and booleans keep their value; a negative one cannot start a comment", async () => {
    const cases: Array<[SqlValue, string]> = [
      [0, "0"],
      [-5, "-5"],
      [0.1, "0.1"],
      [-1.5, "-1.5"],
      [1e21, "1e21"],
      [9007199254740991, "9007199254740991"],
      [18446744073709551615n, "18446744073709551615"],
      [-9223372036854775808n, "-9223372036854775808"],
      [true, "1"],
      [false, "0"],
    ];
    for (const [value, text] of cases) {
      const [got] = await ch.query<{ t: string }>(sql`SELECT toString(${value}) AS t`);
      expect(got?.t, String(value)).toBe(text);
    }
    const [diff] = await ch.query<{ d: number }>(sql`SELECT 1 -${-5} AS d`);
    expect(diff?.d).toBe(6);
  });

  it("a Date is read as UTC seconds by a DateTime('UTC') column", async () => {
    const at = new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
    const [got] = await ch.query<{ s: number; hit: number }>(
      sql`SELECT toUInt32(toDateTime(${at}, 'UTC')) AS s, toDateTime(1709251199, 'UTC') = ${at} AS hit`,
    );
    expect(got).toEqual({ s: 1_709_251_199, hit: 1 });
  });

  it("arrays and NULL go through as written", async () => {
    const [got] = await ch.query<{ a: number[]; b: string[]; c: null; d: number[][] }>(
      sql`SELECT ${[1, 2, 3]} AS a, ${["a'", "b\\", "c\n"]} AS b, ${null} AS c, ${[[1], [2, 3]]} AS d`,
    );
    expect(got).toEqual({ a: [1, 2, 3], b: ["a'", "b\\", "c\n"], c: null, d: [[1], [2, 3]] });
  });

  it("a hostile table name works as an identifier", async () => {
    const name = "we`ird' \\name";
    await ch.command(sql`CREATE TABLE ${ident(name)} (x String) ENGINE = MergeTree ORDER BY x`);
    await ch.insert(name, ["x"], [{ x: "it's" }]);
    expect(await ch.query(sql`SELECT x FROM ${ident(name)}`)).toEqual([{ x: "it's" }]);
    await ch.command(sql`DROP TABLE ${ident(name)}`);
  });

  it("schema creation is idempotent, also when four processes start at once", async () => {
    await ensureClickHouseSchema(ch);
    const others = await Promise.all(Array.from({ length: 4 }, () => openClickHouse({ url: ch.url })));
    try {
      await Promise.all(others.map((o) => ensureClickHouseSchema(o)));
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
    expect(await ch.query(sql`SELECT name, engine, partition_key, sorting_key FROM system.tables WHERE database = currentDatabase() ORDER BY name`)).toEqual([
      { name: "backlinks", engine: "ReplacingMergeTree", partition_key: "", sorting_key: "account_id, host, source_url, target_url, anchor, import_id" },
      { name: "check_results", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(checked_at)", sorting_key: "host, run_id, code" },
      { name: "crawl_page_links", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(job_created)", sorting_key: "job_id, url_hash" },
      { name: "crawl_pages", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(job_created)", sorting_key: "job_id, url_hash" },
      { name: "index_issues", engine: "ReplacingMergeTree", partition_key: "", sorting_key: "account_id, host, engine, import_id, seq" },
      { name: "index_status", engine: "ReplacingMergeTree", partition_key: "", sorting_key: "account_id, host, engine, day, import_id" },
      { name: "index_urls", engine: "ReplacingMergeTree", partition_key: "", sorting_key: "account_id, host, engine, url, import_id" },
      { name: "market_domains", engine: "ReplacingMergeTree", partition_key: "", sorting_key: "account_id, host, provider, base, import_id, seq" },
      { name: "market_keywords", engine: "ReplacingMergeTree", partition_key: "", sorting_key: "account_id, host, provider, base, domain, keyword, import_id" },
      { name: "rank_checks", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(day)", sorting_key: "account_id, host, engine, region, device, keyword, day, import_id" },
      { name: "search_daily", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(day)", sorting_key: "account_id, host, engine, day, query, page, country, device, import_id" },
      { name: "search_period", engine: "ReplacingMergeTree", partition_key: "", sorting_key: "account_id, host, engine, dim, import_id, key, key2" },
      { name: "serp_snapshots", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(day)", sorting_key: "account_id, host, day, engine, region, device, keyword, import_id, rank" },
      { name: "uptime_daily", engine: "SummingMergeTree", partition_key: "toYYYYMM(day)", sorting_key: "host, day" },
      { name: "uptime_daily_mv", engine: "MaterializedView", partition_key: "", sorting_key: "" },
      { name: "uptime_hourly", engine: "SummingMergeTree", partition_key: "toYYYYMM(hour)", sorting_key: "host, hour" },
      { name: "uptime_hourly_mv", engine: "MaterializedView", partition_key: "", sorting_key: "" },
      { name: "uptime_probes", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(at)", sorting_key: "host, slot, confirm" },
      { name: "usage_daily", engine: "SummingMergeTree", partition_key: "toYYYYMM(day)", sorting_key: "key_id, day" },
    ]);
  });
});

describe("ClickHouse retention", () => {
  let ch: ClickHouse;

  beforeAll(async () => {
    ch = await newClickHouse();
  });

  afterAll(async () => {
    await ch?.close();
  });

  it("drops the monthly partitions older than N months and nothing else; a second run drops nothing", async () => {
    const usage = new ClickHouseUsageSeries(ch);
    const checks = new ClickHouseCheckSeries(ch);
    const days = ["2022-12-31", "2023-01-15", "2023-02-01", "2023-03-31", "2024-03-15"];
    await usage.add(days.map((day) => ({ keyId: 1, day, calls: 1, errors: 0, limited: 0 })));
    const at = (iso: string) => Date.parse(iso) / 1000;
    await checks.write(
      ["2023-01-31T23:59:59Z", "2023-02-01T00:00:00Z", "2024-03-01T00:00:00Z"].map((iso, i) => ({
        runId: i + 1,
        jobId: 1,
        attempt: 1,
        host: "r.example",
        checkedAt: at(iso),
        code: "c",
        status: "pass",
        value: null,
        group: "g",
      })),
    );
    const now = at("2024-03-15T12:00:00Z");
    expect(await dropExpiredPartitions(ch, 13, now)).toEqual([
      { table: "check_results", month: "202301" },
      { table: "usage_daily", month: "202212" },
      { table: "usage_daily", month: "202301" },
    ]);
    expect((await usage.read([1], "2000-01-01", "2100-01-01")).map((d) => d.day)).toEqual(["2023-02-01", "2023-03-31", "2024-03-15"]);
    expect((await checks.history("r.example", "c", 10)).map((p) => p.runId)).toEqual([3, 2]);
    expect(await dropExpiredPartitions(ch, 13, now)).toEqual([]);
    expect(await dropExpiredPartitions(ch, 1, now)).toEqual([
      { table: "check_results", month: "202302" },
      { table: "usage_daily", month: "202302" },
      { table: "usage_daily", month: "202303" },
    ]);
    await expect(dropExpiredPartitions(ch, 0, now)).rejects.toThrow(RangeError);
  });
});

describe("search facts older versions kept in Postgres, moved to ClickHouse at an upgrade", () => {
  const host = "legacy.example";
  let db: Db;
  let ch: ClickHouse;
  let account: number;

  beforeAll(async () => {
    db = openPostgres({ url: await freshDatabase(inject("postgresUrl")), poolSize: 4 });
    await migrate(db, 0);
    ch = await newClickHouse({ insertBatchRows: 3 });
    const accounts = new AccountsRepo(db);
    const plan = await accounts.upsertPlan("legacy", { sites: 1, checks_per_day: 1, rechecks_per_day: 1, webhooks: 1, api_keys: 1 });
    account = (await accounts.createAccount("legacy@example.test", plan, false, 0)).id;
  });
  afterAll(async () => {
    await ch?.close();
    await db?.close();
  });

  /** Everything the search operations read of the site. */
  const snapshot = async (store: Store) => ({
    period: (await store.search.latestPeriod(account, host, ["query", "page"])).sort((a, b) => a.dim.localeCompare(b.dim) || a.key.localeCompare(b.key)),
    live: await store.search.backlinks(account, host, "live", 10, 0),
    lost: await store.search.backlinks(account, host, "lost", 10, 0),
    points: await store.search.indexPoints(account, host),
    issues: await store.search.indexIssues(account, host),
    urls: await store.search.indexUrls(account, host),
    domains: await store.search.marketDomains(account, host, "keysso", "msk"),
    keywords: await store.search.marketKeywords(account, host, "keysso", "msk"),
    days: await store.search.dailyTotals(account, host),
    ranks: await store.search.rankChecks(account, host, "2026-01-01"),
  });
  const legacyRows = async () => {
    const out: Record<string, number> = {};
    for (const t of LEGACY_FACT_TABLES) out[t] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`))[0]?.n);
    return out;
  };

  it("serves the rows exactly once through the ports after the move, even after a crash mid-move; a second run moves nothing", async () => {
    // The old way: every fact in the account database (the Postgres adapters).
    const old = createStore(db);
    const batch = (kind: "performance" | "backlinks" | "indexing" | "market" | "positions", provider: "gsc" | "semrush" | "gsc_indexing" | "keysso" | "topvisor", n: number) => ({ accountId: account, host, provider, kind, formats: [], fileName: `${kind}.csv`, sha256: String(n).repeat(64), parserVersion: 1, rows: 1, importedAt: n });
    const period = emptyFacts();
    const q = (key: string, clicks: number, impressions: number, dim: "query" | "page" = "query") => ({ engine: "google" as const, dim, key, key2: "", clicks, impressions, posXImpr: impressions * 3.5, prevClicks: null, prevImpressions: null, prevPosXImpr: null });
    period.period.push(q("диван", 30, 600), q("кровать", 5, 90), q("стол", 1, 10), q("https://legacy.example/", 36, 700, "page"));
    const links = emptyFacts();
    const link = (i: number, lostAt: string | null) => ({ sourceUrl: `https://s${i}.example/`, targetUrl: `https://${host}/`, anchor: `a${i}`, sourceDomain: `s${i}.example`, nofollow: i === 2, sourceRating: 10 * i, ratingScale: "ascore", firstSeen: "2026-01-0" + i, lastSeen: null, lostAt });
    links.backlinks.push(link(1, null), link(2, null), link(3, "2026-02-01"));
    // The same batch also had the file's days (a Chart) and, in another, rank checks.
    period.daily.push({ engine: "google", date: "2026-01-01", query: "", page: "", country: "", device: "", clicks: 36, impressions: 700, posXImpr: 2450 }, { engine: "google", date: "2026-01-02", query: "", page: "", country: "", device: "", clicks: 4, impressions: 50, posXImpr: 100 });
    const ranks = emptyFacts();
    ranks.ranks.push({ engine: "yandex", region: 213, device: "desktop", keyword: "диван", date: "2026-01-03", position: 4, url: `https://${host}/d`, group: "g", volume: 900 }, { engine: "yandex", region: 213, device: "desktop", keyword: "стол", date: "2026-01-03", position: null, url: null, group: "", volume: null });
    const index = emptyFacts();
    index.indexStatus.push({ engine: "google", date: "2026-01-01", indexed: 10, notIndexed: 2 }, { engine: "google", date: "2026-01-02", indexed: 11, notIndexed: null });
    index.indexIssues.push({ engine: "google", reason: "Not found (404)", source: "Website", validation: "Not started", pages: 2 }, { engine: "google", reason: "Duplicate", source: "Google", validation: "", pages: 2 });
    index.indexUrls.push({ engine: "google", url: `https://${host}/a`, status: "excluded", reason: "Duplicate", httpCode: 200, lastCrawled: "2026-01-01", event: null, eventDate: null, target: null }, { engine: "google", url: `https://${host}/b`, status: "searchable", reason: "", httpCode: null, lastCrawled: null, event: null, eventDate: null, target: null });
    const market = emptyFacts();
    market.marketDomains.push({ base: "msk", domain: "z.example", commonKeywords: 5, similarityPct: 12.5, visibility: 100, top10: 3, pagesInIndex: null }, { base: "msk", domain: "a.example", commonKeywords: 2, similarityPct: null, visibility: null, top10: null, pagesInIndex: 40 });
    market.marketKeywords.push({ base: "msk", domain: "z.example", keyword: "диван", position: 3, url: "https://z.example/d", volume: 900 }, { base: "msk", domain: host, keyword: "диван", position: 7, url: `https://${host}/d`, volume: null });
    const imports: [ReturnType<typeof batch>, ImportFacts][] = [[batch("performance", "gsc", 1), period], [batch("backlinks", "semrush", 2), links], [batch("indexing", "gsc_indexing", 3), index], [batch("market", "keysso", 4), market], [batch("positions", "topvisor", 6), ranks]];
    const ids: number[] = [];
    for (const [b, f] of imports) ids.push((await old.search.importBatch(b, f)).batch.id);
    // A batch an import never finished: the sweeper's, not moved.
    const stalled = emptyFacts();
    stalled.period.push(q("чужой", 1, 1));
    const stalledId = (await old.search.importBatch({ ...batch("performance", "gsc", 5), host: "stalled.example" }, stalled)).batch.id;
    await db.query("UPDATE import_batches SET complete = false WHERE id = $1", [stalledId]);
    // A batch deleted after the upgrade, before the move: its rows in Postgres were never read again.
    await db.query("INSERT INTO search_period (import_id, account_id, host, engine, dim, key, key2, clicks, impressions, pos_x_impr) VALUES (999999, $1, $2, 'google', 'query', 'gone', '', 1, 1, 1)", [account, host]);
    const before = await snapshot(old);
    expect(before.period.map((r) => [r.dim, r.key, r.clicks])).toEqual([["page", "https://legacy.example/", 36], ["query", "диван", 30], ["query", "кровать", 5], ["query", "стол", 1]]);
    expect([before.live.total, before.lost.total, before.points.length, before.issues.length, before.urls.length, before.domains.map((d) => d.domain), before.keywords.length, before.days.length, before.ranks.length]).toEqual([2, 1, 2, 2, 2, ["z.example", "a.example"], 2, 2, 2]);

    // The distributed mode reads ClickHouse only: nothing of it until the move.
    const now = createStore(db, { searchPeriod: new CHPeriod(ch), searchDaily: new ClickHouseSearchDailySeries(ch), ranks: new ClickHouseRankSeries(ch), backlinks: new CHLinks(ch), index: new CHIndex(ch), market: new CHMarket(ch) });
    expect((await snapshot(now)).period).toEqual([]);

    // A crash between ClickHouse's insert and Postgres's delete (the first batch), and a copy of the
    // second cut short (one of its links in ClickHouse): neither doubles a fact.
    const crashing = Object.assign(Object.create(db) as Db, { tx: async () => Promise.reject(new Error("crashed")) });
    await expect(moveLegacySearchFacts(crashing, ch, { chunkRows: 2 })).rejects.toThrow("crashed");
    await ch.insert(BACKLINKS_TABLE, ["account_id", "host", "import_id", "provider", "source_url", "target_url", "anchor", "source_domain", "nofollow"], [{ account_id: account, host, import_id: ids[1], provider: "semrush", source_url: "https://s1.example/", target_url: `https://${host}/`, anchor: "a1", source_domain: "s1.example", nofollow: 0 }]);

    const moved = await moveLegacySearchFacts(db, ch, { chunkRows: 2 });
    expect(moved).toEqual({ batches: 5, rows: 21, tables: { search_period: 4, search_daily: 2, rank_checks: 2, backlinks: 3, index_status: 2, index_issues: 2, index_urls: 2, market_domains: 2, market_keywords: 2 }, orphans: 1 });
    expect(await snapshot(now)).toEqual(before);
    expect(Number((await ch.query<{ n: string }>(sql`SELECT toString(count()) AS n FROM backlinks WHERE host = ${host}`))[0]?.n)).toBe(3);
    expect(await legacyRows()).toEqual({ search_period: 1, search_daily: 0, rank_checks: 0, backlinks: 0, index_status: 0, index_issues: 0, index_urls: 0, market_domains: 0, market_keywords: 0 });
    // Again: nothing left to move, nothing doubled.
    expect(await moveLegacySearchFacts(db, ch)).toEqual({ batches: 0, rows: 0, tables: {}, orphans: 0 });
    expect(await snapshot(now)).toEqual(before);
  });

  it("is done at start by the one process holding its leadership, and logged", async () => {
    await db.query("UPDATE import_batches SET complete = true WHERE host = 'stalled.example'");
    const clock: Clock = { nowMs: () => 1_000_000 };
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(line) } as unknown as NodeJS.WritableStream);
    const life = new Lifecycle();
    const opened = { db, store: createStore(db), life, ch };
    // Another process holds it: this one skips the move.
    expect(await opened.store.leaders.acquire(LEGACY_FACTS_LEADERSHIP, "other", clock.nowMs(), 600_000)).toBe(true);
    await startLegacyFactsMove(opened, clock, logger);
    expect((await legacyRows()).search_period).toBe(1);
    await opened.store.leaders.release(LEGACY_FACTS_LEADERSHIP, "other");
    await startLegacyFactsMove(opened, clock, logger);
    expect((await legacyRows()).search_period).toBe(0);
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; batches?: number; rows?: number }).filter((l) => l.msg === "search facts of older versions moved to ClickHouse");
    expect(logged.map((l) => [l.batches, l.rows])).toEqual([[1, 1]]);
    // The leadership is given up once done.
    expect(await opened.store.leaders.acquire(LEGACY_FACTS_LEADERSHIP, "other", clock.nowMs(), 600_000)).toBe(true);
  });
});
