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
