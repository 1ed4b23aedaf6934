import type { Engine, ImportFacts, ImportKind, Provider, SerpResult } from "../analyzer/index.ts";
import type { Db, Queryable } from "./db.ts";
import { PostgresRankSeries, type MarketMoves, type RankRow, type RankSeries } from "./rank-series.ts";
import { PostgresSearchDailySeries, type DailyTotal, type SearchDailySeries } from "./search-daily-series.ts";
import { PostgresSearchPeriodSeries, type CtrAtRank, type PeriodSum, type SearchPeriodSeries } from "./search-period-series.ts";
import { PostgresSerpSeries, type SerpSeries } from "./serp-series.ts";

// Imported search data (issue 19) on Postgres/PGlite: the batches and the facts they brought.
// Reads take, for each fact's key, the row of the newest batch that has it, so re-importing an
// overlapping export replaces rather than doubles; deleting a batch reveals the older rows again.

/** An import batch as GET /imports lists it. */
export interface ImportBatchRow {
  readonly id: number;
  readonly host: string;
  readonly provider: Provider;
  readonly kind: ImportKind;
  readonly formats: string[];
  readonly file_name: string;
  readonly sha256: string;
  readonly period_start: string | null;
  readonly period_end: string | null;
  readonly filters: Record<string, string>;
  readonly rows: number;
  readonly truncated: boolean;
  readonly warnings: string[];
  readonly imported_at: number;
}

export interface NewImportBatch {
  readonly accountId: number;
  readonly host: string;
  readonly provider: Provider;
  readonly kind: ImportKind;
  readonly formats: readonly string[];
  readonly fileName: string;
  readonly sha256: string;
  readonly parserVersion: number;
  readonly rows: number;
  readonly importedAt: number;
}

/** A period sum with its batch's period in place of the batch. */
export interface PeriodRow extends Omit<PeriodSum, "import_id"> {
  readonly period_start: string | null;
  readonly period_end: string | null;
}

export interface BacklinkRow {
  readonly source_url: string;
  readonly target_url: string;
  readonly anchor: string;
  readonly nofollow: boolean;
  readonly source_rating: number | null;
  readonly rating_scale: string | null;
  readonly first_seen: string | null;
  readonly last_seen: string | null;
  readonly lost_at: string | null;
  readonly provider: string;
}

export interface IndexUrlRow {
  readonly engine: Engine;
  readonly url: string;
  readonly status: string;
  readonly reason: string;
  readonly http_code: number | null;
  readonly last_crawled: string | null;
}

export interface MarketDomainRow {
  readonly domain: string;
  readonly common_keywords: number | null;
  readonly similarity_pct: number | null;
  readonly visibility: number | null;
  readonly top10: number | null;
  readonly pages_in_index: number | null;
  readonly imported_at: number;
}

export interface MarketKeywordRow {
  readonly domain: string;
  readonly keyword: string;
  readonly position: number;
  readonly url: string;
  readonly volume: number | null;
}

export type { RankRow } from "./rank-series.ts";

/** Rows per INSERT: each column travels as one array parameter (unnest), so a chunk costs one statement. */
const CHUNK_ROWS = 20_000;

/** A column and its SQL type (the type of its unnest array). */
type Column = readonly [name: string, type: "bigint" | "integer" | "text" | "double precision" | "boolean"];

async function insertRows(q: Queryable, table: string, columns: readonly Column[], rows: readonly (readonly unknown[])[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const chunk = rows.slice(start, start + CHUNK_ROWS);
    const arrays = columns.map((_, i) => chunk.map((row) => row[i] ?? null));
    const unnest = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
    await q.query(`INSERT INTO ${table} (${columns.map(([name]) => name).join(",")}) SELECT * FROM unnest(${unnest})`, arrays);
  }
}

const OWN: readonly Column[] = [["import_id", "bigint"], ["account_id", "bigint"], ["host", "text"]];
const t = (name: string): Column => [name, "text"];
const big = (name: string): Column => [name, "bigint"];
const int = (name: string): Column => [name, "integer"];
const dbl = (name: string): Column => [name, "double precision"];
const bool = (name: string): Column => [name, "boolean"];

export class SearchRepo {
  /** SERP snapshots and dated facts go through their time-series ports: Postgres here, ClickHouse in the distributed mode. */
  private readonly serp: SerpSeries;
  private readonly daily: SearchDailySeries;
  private readonly period: SearchPeriodSeries;
  private readonly ranks: RankSeries;

  constructor(
    private readonly db: Db,
    series: { serp?: SerpSeries; daily?: SearchDailySeries; period?: SearchPeriodSeries; ranks?: RankSeries } = {},
  ) {
    this.serp = series.serp ?? new PostgresSerpSeries(db);
    this.daily = series.daily ?? new PostgresSearchDailySeries(db);
    this.period = series.period ?? new PostgresSearchPeriodSeries(db);
    this.ranks = series.ranks ?? new PostgresRankSeries(db);
  }

  /** The batch the same file (sha256 + site + parser version) already made, if any. */
  async findBatch(accountId: number, host: string, sha256: string, parserVersion: number): Promise<ImportBatchRow | null> {
    const rows = await this.db.query<ImportBatchRow>(
      `SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND host = $2 AND sha256 = $3 AND parser_version = $4`,
      [accountId, host, sha256, parserVersion],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores a batch and all its facts in one transaction: a failure leaves no row. Answers the
   * batch, or the existing one when the same file was imported meanwhile (created false).
   */
  async importBatch(b: NewImportBatch, f: ImportFacts): Promise<{ batch: ImportBatchRow; created: boolean }> {
    return this.db.tx(async (q) => {
      const inserted = await q.query<ImportBatchRow>(
        `INSERT INTO import_batches (account_id, host, provider, kind, formats, file_name, sha256, parser_version, period_start, period_end, filters, rows, truncated, warnings, imported_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (account_id, host, sha256, parser_version) DO NOTHING
         RETURNING ${BATCH_COLUMNS}`,
        [b.accountId, b.host, b.provider, b.kind, JSON.stringify(b.formats), b.fileName, b.sha256, b.parserVersion, f.periodStart, f.periodEnd, JSON.stringify(f.filters), b.rows, f.truncated, JSON.stringify(f.warnings), b.importedAt],
      );
      const batch = inserted[0];
      if (!batch) {
        const existing = await q.query<ImportBatchRow>(`SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND host = $2 AND sha256 = $3 AND parser_version = $4`, [b.accountId, b.host, b.sha256, b.parserVersion]);
        return { batch: existing[0] as ImportBatchRow, created: false };
      }
      const own = [batch.id, b.accountId, b.host] as const;
      if (f.period.length > 0) await this.period.add({ importId: batch.id, accountId: b.accountId, host: b.host }, f.period, q);
      if (f.daily.length > 0) await this.daily.add({ importId: batch.id, accountId: b.accountId, host: b.host }, f.daily, q);
      await insertRows(q, "index_status", [...OWN, t("engine"), t("day"), big("indexed"), big("not_indexed")], f.indexStatus.map((r) => [...own, r.engine, r.date, r.indexed, r.notIndexed]));
      await insertRows(q, "index_issues", [...OWN, t("engine"), t("reason"), t("source"), t("validation"), big("pages")], f.indexIssues.map((r) => [...own, r.engine, r.reason, r.source, r.validation, r.pages]));
      await insertRows(q, "index_urls", [...OWN, t("engine"), t("url"), t("status"), t("reason"), int("http_code"), t("last_crawled"), t("event"), t("event_date"), t("target")], f.indexUrls.map((r) => [...own, r.engine, r.url, r.status, r.reason, r.httpCode, r.lastCrawled, r.event, r.eventDate, r.target]));
      // One link per (source, target, anchor) in a batch (the file's last row of it), and the site's
      // older rows of the same links marked superseded: reads then take the unsuperseded rows
      // through an index instead of deduplicating every row of the site per request.
      const links = [...new Map(f.backlinks.map((r) => [`${r.sourceUrl}\n${r.targetUrl}\n${r.anchor}`, r])).values()];
      await insertRows(q, "backlinks", [...OWN, t("provider"), t("source_url"), t("target_url"), t("anchor"), t("source_domain"), bool("nofollow"), int("source_rating"), t("rating_scale"), t("first_seen"), t("last_seen"), t("lost_at")], links.map((r) => [...own, b.provider, r.sourceUrl, r.targetUrl, r.anchor, r.sourceDomain, r.nofollow, r.sourceRating, r.ratingScale, r.firstSeen, r.lastSeen, r.lostAt]));
      if (links.length > 0 && (await q.query("SELECT 1 FROM backlinks WHERE account_id = $1 AND host = $2 AND import_id < $3 AND NOT superseded LIMIT 1", [b.accountId, b.host, batch.id])).length > 0) {
        await q.query(
          `UPDATE backlinks o SET superseded = true FROM backlinks n
           WHERE n.import_id = $1 AND o.account_id = $2 AND o.host = $3 AND o.import_id < $1 AND NOT o.superseded
             AND o.source_url = n.source_url AND o.target_url = n.target_url AND o.anchor = n.anchor`,
          [batch.id, b.accountId, b.host],
        );
      }
      if (links.length > 0) await refreshBacklinkTotals(q, b.accountId, b.host);
      if (f.ranks.length > 0) await this.ranks.add({ importId: batch.id, accountId: b.accountId, host: b.host, provider: b.provider }, f.ranks, q);
      await insertRows(q, "market_domains", [...OWN, t("provider"), t("base"), t("domain"), big("common_keywords"), dbl("similarity_pct"), dbl("visibility"), big("top10"), big("pages_in_index")], f.marketDomains.map((r) => [...own, b.provider, r.base, r.domain, r.commonKeywords, r.similarityPct, r.visibility, r.top10, r.pagesInIndex]));
      await insertRows(q, "market_keywords", [...OWN, t("provider"), t("base"), t("domain"), t("keyword"), int("position"), t("url"), big("volume")], f.marketKeywords.map((r) => [...own, b.provider, r.base, r.domain, r.keyword, Math.round(r.position), r.url, r.volume]));
      if (f.serp.length > 0) await this.serp.add({ importId: batch.id, accountId: b.accountId, host: b.host }, f.serp, q);
      return { batch, created: true };
    });
  }

  async listBatches(accountId: number, host: string, limit: number, offset: number): Promise<{ rows: ImportBatchRow[]; total: number }> {
    const rows = await this.db.query<ImportBatchRow>(`SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND host = $2 ORDER BY imported_at DESC, id DESC LIMIT $3 OFFSET $4`, [accountId, host, limit, offset]);
    const total = await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM import_batches WHERE account_id = $1 AND host = $2", [accountId, host]);
    return { rows, total: total[0]?.n ?? 0 };
  }

  /** Deletes a batch of the account and everything it brought; answers its host, or null when not the account's. */
  async deleteBatch(accountId: number, id: number): Promise<string | null> {
    const rows = await this.db.tx(async (q) => {
      // The links this batch held newest become the newest of the batches left (unsuperseded).
      await q.query(
        `WITH gone AS (SELECT host, source_url, target_url, anchor FROM backlinks WHERE import_id = $1 AND account_id = $2 AND NOT superseded),
         best AS (
           SELECT o.host, o.source_url, o.target_url, o.anchor, max(o.import_id) AS import_id FROM backlinks o
           JOIN gone g ON g.host = o.host AND g.source_url = o.source_url AND g.target_url = o.target_url AND g.anchor = o.anchor
           WHERE o.account_id = $2 AND o.import_id <> $1 GROUP BY 1, 2, 3, 4
         )
         UPDATE backlinks o SET superseded = false FROM best b
         WHERE o.account_id = $2 AND o.host = b.host AND o.import_id = b.import_id AND o.source_url = b.source_url AND o.target_url = b.target_url AND o.anchor = b.anchor`,
        [id, accountId],
      );
      const had = (await q.query("SELECT 1 FROM backlinks WHERE import_id = $1 LIMIT 1", [id])).length > 0;
      const gone = await q.query<{ host: string }>("DELETE FROM import_batches WHERE id = $1 AND account_id = $2 RETURNING host", [id, accountId]);
      if (had && gone[0]) await refreshBacklinkTotals(q, accountId, gone[0].host);
      return gone;
    });
    if (rows[0]) {
      await this.period.drop(id);
      await this.serp.drop(id);
      await this.daily.drop(id);
      await this.ranks.drop(id);
    }
    return rows[0]?.host ?? null;
  }

  /** Every batch of the account, oldest first (for /providers). */
  async batchesOfAccount(accountId: number): Promise<ImportBatchRow[]> {
    return this.db.query<ImportBatchRow>(`SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 ORDER BY imported_at, id`, [accountId]);
  }

  /**
   * The period rows of the newest batch holding dims for each engine (a UI export is a whole:
   * its rows are not mixed with an older export's), with their batch's period.
   */
  async latestPeriod(accountId: number, host: string, dims: readonly string[], minQueryImpressions = 0): Promise<PeriodRow[]> {
    const rows = await this.period.latest(accountId, host, dims, await this.liveImports(accountId, host), minQueryImpressions);
    const periods = await this.batchPeriods([...new Set(rows.map((r) => r.import_id))]);
    return rows.map((r) => periodRow(r, periods.get(r.import_id)));
  }

  /** Σ clicks and Σ impressions per engine and rounded position over the newest query rows (the site's CTR curve). */
  async ctrByRank(accountId: number, host: string): Promise<CtrAtRank[]> {
    return this.period.ctrByRank(accountId, host, await this.liveImports(accountId, host));
  }

  /** One page of the newest query rows (per engine), most clicks first, and their total. */
  async queriesPage(accountId: number, host: string, engine: Engine | null, limit: number, offset: number): Promise<{ rows: PeriodRow[]; total: number; periodStart: string | null; periodEnd: string | null }> {
    const page = await this.period.queriesPage(accountId, host, engine, limit, offset, await this.liveImports(accountId, host));
    const periods = [...(await this.batchPeriods(page.imports)).values()];
    const starts = periods.map((p) => p.start).filter((d): d is string => d !== null).sort();
    const ends = periods.map((p) => p.end).filter((d): d is string => d !== null).sort();
    return { rows: page.rows.map((r) => periodRow(r, undefined)), total: page.total, periodStart: starts[0] ?? null, periodEnd: ends.at(-1) ?? null };
  }

  /** The periods of batches by id. */
  private async batchPeriods(ids: readonly number[]): Promise<Map<number, { start: string | null; end: string | null }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<{ id: number | string; period_start: string | null; period_end: string | null }>("SELECT id, period_start, period_end FROM import_batches WHERE id = ANY($1::bigint[])", [ids]);
    return new Map(rows.map((r) => [Number(r.id), { start: r.period_start, end: r.period_end }]));
  }

  /** Daily totals per engine (the newest batch's for each day), by engine, oldest first. */
  async dailyTotals(accountId: number, host: string): Promise<DailyTotal[]> {
    return this.daily.totals(accountId, host, await this.liveImports(accountId, host));
  }

  /**
   * Daily mean search position per engine (the newest batch's totals row of each day: Σ position ×
   * impressions / impressions), oldest first; days without impressions or positions are left out.
   */
  async dailyPositions(accountId: number, host: string): Promise<{ engine: Engine; day: string; position: number }[]> {
    const totals = await this.dailyTotals(accountId, host);
    return totals.filter((t) => t.impressions > 0 && t.posXImpr > 0).map((t) => ({ engine: t.engine, day: t.day, position: t.posXImpr / t.impressions }));
  }


  /** Backlinks, one per (source, target, anchor) from the newest batch that has it; live = not lost. */
  async backlinks(accountId: number, host: string, state: "live" | "lost", limit: number, offset: number): Promise<{ rows: BacklinkRow[]; total: number }> {
    // The newest row of each link is the one not superseded (kept at import and at deletion); the
    // partial indexes of migration 032 serve the order and the count.
    const where = `account_id = $1 AND host = $2 AND NOT superseded AND ${state === "live" ? "lost_at IS NULL" : "lost_at IS NOT NULL"}`;
    const rows = await this.db.query<BacklinkRow>(
      `SELECT source_url, target_url, anchor, nofollow, source_rating, rating_scale, first_seen, last_seen, lost_at, provider FROM backlinks WHERE ${where}
       ORDER BY ${state === "live" ? "source_rating DESC NULLS LAST, first_seen DESC NULLS LAST" : "lost_at DESC"}, source_url, target_url, anchor LIMIT $3 OFFSET $4`,
      [accountId, host, limit, offset],
    );
    // The totals are counted when backlinks are imported or deleted, not per request.
    const total = await this.db.query<{ n: number }>(`SELECT ${state === "live" ? "live" : "lost"} AS n FROM backlink_totals WHERE account_id = $1 AND host = $2`, [accountId, host]);
    return { rows, total: Number(total[0]?.n ?? 0) };
  }

  /** Each backlink's first-seen and lost days (the newest batch's row per link), for the diagnosis. */
  async backlinkDates(accountId: number, host: string): Promise<{ first_seen: string | null; lost_at: string | null }[]> {
    return this.db.query(
      `SELECT DISTINCT ON (source_url, target_url, anchor) first_seen, lost_at FROM backlinks
       WHERE account_id = $1 AND host = $2 ORDER BY source_url, target_url, anchor, import_id DESC`,
      [accountId, host],
    );
  }

  /** Index status points per engine (newest batch's row per day), oldest first. */
  async indexPoints(accountId: number, host: string): Promise<{ engine: Engine; day: string; indexed: number | null; not_indexed: number | null }[]> {
    return this.db.query(
      `SELECT DISTINCT ON (engine, day) engine, day, indexed, not_indexed FROM index_status WHERE account_id = $1 AND host = $2 ORDER BY engine, day, import_id DESC`,
      [accountId, host],
    );
  }

  /** The issues of the newest batch that has issues, per engine. */
  async indexIssues(accountId: number, host: string): Promise<{ engine: Engine; reason: string; source: string; validation: string; pages: number }[]> {
    return this.db.query(
      `WITH newest AS (SELECT engine, max(import_id) AS import_id FROM index_issues WHERE account_id = $1 AND host = $2 GROUP BY engine)
       SELECT i.engine, i.reason, i.source, i.validation, i.pages FROM index_issues i JOIN newest n ON n.import_id = i.import_id AND n.engine = i.engine
       ORDER BY i.pages DESC, i.reason`,
      [accountId, host],
    );
  }

  /** Each URL's newest status per engine. */
  async indexUrls(accountId: number, host: string): Promise<IndexUrlRow[]> {
    return this.db.query<IndexUrlRow>(
      `SELECT DISTINCT ON (engine, url) engine, url, status, reason, http_code, last_crawled FROM index_urls WHERE account_id = $1 AND host = $2 ORDER BY engine, url, import_id DESC`,
      [accountId, host],
    );
  }

  /**
   * The market's moves per day and engine over every site in the store (aggregates only: no site,
   * keyword or account is revealed), for the volatility's market line.
   */
  async marketMoves(sinceDay: string): Promise<MarketMoves[]> {
    const live = await this.db.query<{ id: number | string }>("SELECT id FROM import_batches WHERE kind = 'positions'");
    return this.ranks.moves(sinceDay, live.map((r) => Number(r.id)));
  }

  /**
   * Every tracked query's SERP snapshot lists since a day over every site in the store (the newest
   * live batch's list per query and day), for the volatility's market line: callers show aggregates only.
   */
  async marketSerp(sinceDay: string): Promise<SerpResult[]> {
    const live = await this.db.query<{ id: number | string }>("SELECT id FROM import_batches WHERE kind = 'positions'");
    return this.serp.readMarket(sinceDay, live.map((r) => Number(r.id)));
  }

  /** The providers and bases the site has market data of, newest first. */
  async marketSources(accountId: number, host: string): Promise<{ provider: string; base: string; imported_at: number }[]> {
    return this.db.query(
      `SELECT m.provider, m.base, max(b.imported_at) AS imported_at FROM (
         SELECT provider, base, import_id FROM market_domains WHERE account_id = $1 AND host = $2
         UNION ALL SELECT provider, base, import_id FROM market_keywords WHERE account_id = $1 AND host = $2
       ) m JOIN import_batches b ON b.id = m.import_id GROUP BY m.provider, m.base ORDER BY max(b.imported_at) DESC, m.provider, m.base`,
      [accountId, host],
    );
  }

  /** The competitor domains of the newest competitor report of a provider and base. */
  async marketDomains(accountId: number, host: string, provider: string, base: string): Promise<MarketDomainRow[]> {
    return this.db.query<MarketDomainRow>(
      `SELECT m.domain, m.common_keywords, m.similarity_pct, m.visibility, m.top10, m.pages_in_index, b.imported_at
       FROM market_domains m JOIN import_batches b ON b.id = m.import_id
       WHERE m.account_id = $1 AND m.host = $2 AND m.provider = $3 AND m.base = $4
         AND m.import_id = (SELECT max(import_id) FROM market_domains WHERE account_id = $1 AND host = $2 AND provider = $3 AND base = $4)`,
      [accountId, host, provider, base],
    );
  }

  /** Each domain's keywords in a provider's base, one row per domain × keyword from the newest batch that has it. */
  async marketKeywords(accountId: number, host: string, provider: string, base: string): Promise<MarketKeywordRow[]> {
    return this.db.query<MarketKeywordRow>(
      `SELECT DISTINCT ON (domain, keyword) domain, keyword, position, url, volume FROM market_keywords
       WHERE account_id = $1 AND host = $2 AND provider = $3 AND base = $4 ORDER BY domain, keyword, import_id DESC`,
      [accountId, host, provider, base],
    );
  }

  /** The site's SERP snapshot results since a day (the newest live batch's list per query and day). */
  async serpResults(accountId: number, host: string, sinceDay: string): Promise<SerpResult[]> {
    return this.serp.read(accountId, host, sinceDay, await this.liveImports(accountId, host));
  }

  /** The newest day of the site's SERP snapshots, null without any. */
  async serpLatestDay(accountId: number, host: string): Promise<string | null> {
    return this.serp.latestDay(accountId, host, await this.liveImports(accountId, host));
  }

  private async liveImports(accountId: number, host: string): Promise<number[]> {
    const rows = await this.db.query<{ id: number | string }>("SELECT id FROM import_batches WHERE account_id = $1 AND host = $2", [accountId, host]);
    return rows.map((r) => Number(r.id));
  }

  /** Each tracked keyword's newest known volume (rank checks that carry one). */
  async keywordVolumes(accountId: number, host: string): Promise<Map<string, number>> {
    return this.ranks.volumes(accountId, host, await this.liveImports(accountId, host));
  }

  /** Rank checks since a day, one per keyword×engine×region×device×day (the newest batch's). */
  async rankChecks(accountId: number, host: string, sinceDay: string): Promise<RankRow[]> {
    return this.ranks.read(accountId, host, sinceDay, await this.liveImports(accountId, host));
  }
}

/** A period sum as the search operations read it: its batch's period beside it. */
function periodRow(r: PeriodSum, period: { start: string | null; end: string | null } | undefined): PeriodRow {
  const { import_id: _batch, ...sums } = r;
  return { ...sums, period_start: period?.start ?? null, period_end: period?.end ?? null };
}

/** Recounts a site's live and lost links (the unsuperseded rows) into backlink_totals. */
async function refreshBacklinkTotals(q: Queryable, accountId: number, host: string): Promise<void> {
  await q.query(
    `INSERT INTO backlink_totals (account_id, host, live, lost)
     SELECT $1, $2, count(*) FILTER (WHERE lost_at IS NULL), count(*) FILTER (WHERE lost_at IS NOT NULL) FROM backlinks WHERE account_id = $1 AND host = $2 AND NOT superseded
     ON CONFLICT (account_id, host) DO UPDATE SET live = EXCLUDED.live, lost = EXCLUDED.lost`,
    [accountId, host],
  );
}

const BATCH_COLUMNS = "id, host, provider, kind, formats, file_name, sha256, period_start, period_end, filters, rows, truncated, warnings, imported_at";
