import type { Engine, ImportFacts, ImportKind, Provider, SerpResult } from "../../analyzer/index.ts";
import { PostgresBacklinkSeries, uniqueLinks, type BacklinkBatch, type BacklinkRow, type BacklinkSeries } from "./backlink-series.ts";
import { FACT_CHUNK_ROWS } from "./fact-insert.ts";
import type { Db, Queryable } from "../engine/db.ts";
import { PostgresIndexSeries, uniqueIndexFacts, type IndexIssueRow, type IndexPoint, type IndexSeries, type IndexUrlRow } from "./index-series.ts";
import { PostgresMarketSeries, uniqueMarketFacts, type MarketDomainSum, type MarketKeywordRow, type MarketSeries } from "./market-series.ts";
import { PostgresRankSeries, type MarketMoves, type RankRow, type RankSeries } from "./rank-series.ts";
import { PostgresSearchDailySeries, type DailyTotal, type SearchDailySeries } from "./search-daily-series.ts";
import { mergePeriodRows, PostgresSearchPeriodSeries, type CtrAtRank, type PeriodSum, type SearchPeriodSeries } from "./search-period-series.ts";
import { PostgresSerpSeries, type SerpSeries } from "./serp-series.ts";

// Imported search data on Postgres/PGlite: the batches and the facts they brought.
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

/** A market domain as read: its sum with its batch's import time in place of the batch. */
export interface MarketDomainRow extends Omit<MarketDomainSum, "import_id"> {
  readonly imported_at: number;
}

export type { RankRow } from "./rank-series.ts";
export type { BacklinkRow } from "./backlink-series.ts";
export type { IndexUrlRow } from "./index-series.ts";
export type { MarketKeywordRow } from "./market-series.ts";

export class SearchRepo {
  /** SERP snapshots and dated facts go through their time-series ports: Postgres here, ClickHouse in the distributed mode. */
  private readonly serp: SerpSeries;
  private readonly daily: SearchDailySeries;
  private readonly period: SearchPeriodSeries;
  private readonly ranks: RankSeries;
  private readonly links: BacklinkSeries;
  private readonly index: IndexSeries;
  private readonly market: MarketSeries;

  constructor(
    private readonly db: Db,
    series: { serp?: SerpSeries; daily?: SearchDailySeries; period?: SearchPeriodSeries; ranks?: RankSeries; backlinks?: BacklinkSeries; index?: IndexSeries; market?: MarketSeries } = {},
    /** Fact rows per import transaction. */
    private readonly chunkRows = FACT_CHUNK_ROWS,
  ) {
    this.serp = series.serp ?? new PostgresSerpSeries(db);
    this.daily = series.daily ?? new PostgresSearchDailySeries(db);
    this.period = series.period ?? new PostgresSearchPeriodSeries(db);
    this.ranks = series.ranks ?? new PostgresRankSeries(db);
    this.links = series.backlinks ?? new PostgresBacklinkSeries(db);
    this.index = series.index ?? new PostgresIndexSeries(db);
    this.market = series.market ?? new PostgresMarketSeries(db);
  }

  /** The batch the same file (sha256 + site + parser version) already made, if any. */
  async findBatch(accountId: number, host: string, sha256: string, parserVersion: number): Promise<ImportBatchRow | null> {
    const rows = await this.db.query<ImportBatchRow>(
      `SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND host = $2 AND sha256 = $3 AND parser_version = $4 AND complete`,
      [accountId, host, sha256, parserVersion],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores a batch and its facts in bounded transactions: the batch row first, incomplete, then
   * the facts in steps of at most `chunkRows` rows, each its own transaction (so other requests,
   * a GET /jobs/{id} poll among them, are served between steps even on PGlite's one connection),
   * then one final transaction that marks the batch complete. Readers name complete batches only,
   * so nothing of it is read before that commit. A failure removes the batch and what it stored
   * (in every store); the facts of a process that died are removed by sweepIncomplete. Answers
   * the batch, or the existing one when the same file was imported before or is being imported
   * (created false). `onProgress` hears the facts stored after each step (it may throw to stop).
   */
  async importBatch(b: NewImportBatch, f: ImportFacts, onProgress?: (stored: number, total: number) => Promise<void>): Promise<{ batch: ImportBatchRow; created: boolean }> {
    const inserted = await this.db.query<ImportBatchRow>(
      `INSERT INTO import_batches (account_id, host, provider, kind, formats, file_name, sha256, parser_version, period_start, period_end, filters, rows, truncated, warnings, imported_at, complete)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, false)
       ON CONFLICT (account_id, host, sha256, parser_version) DO NOTHING
       RETURNING ${BATCH_COLUMNS}`,
      [b.accountId, b.host, b.provider, b.kind, JSON.stringify(b.formats), b.fileName, b.sha256, b.parserVersion, f.periodStart, f.periodEnd, JSON.stringify(f.filters), b.rows, f.truncated, JSON.stringify(f.warnings), b.importedAt],
    );
    const started = inserted[0];
    if (!started) {
      const existing = await this.db.query<ImportBatchRow>(`SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND host = $2 AND sha256 = $3 AND parser_version = $4`, [b.accountId, b.host, b.sha256, b.parserVersion]);
      return { batch: existing[0] as ImportBatchRow, created: false };
    }
    const id = started.id;
    try {
      const at = { importId: id, accountId: b.accountId, host: b.host, provider: b.provider };
      const steps = this.importSteps(at, f);
      const total = steps.reduce((a, step) => a + step.rows, 0);
      let stored = 0;
      for (const step of steps) {
        // A turn of the event loop between transactions: requests waiting for the connection go first.
        await new Promise((resolve) => setImmediate(resolve));
        await this.db.tx((q) => step.run(q));
        stored += step.rows;
        await onProgress?.(stored, total);
      }
      const batch = await this.db.tx(async (q) => {
        if (f.backlinks.length > 0) await this.links.seal(at, [...(await this.liveImports(b.accountId, b.host, q)), id], q);
        const done = await q.query<ImportBatchRow>(`UPDATE import_batches SET complete = true WHERE id = $1 RETURNING ${BATCH_COLUMNS}`, [id]);
        return done[0] as ImportBatchRow;
      });
      return { batch, created: true };
    } catch (err) {
      await this.removeIncomplete(id, b.accountId, b.host).catch(() => {});
      throw err;
    }
  }

  /**
   * The writes of an import, each at most chunkRows rows (facts deduplicated over the whole file
   * first, so the steps are disjoint). Period sums are merged over the whole file (repeated keys
   * summed) before they are split, then appended: no step replaces another's rows.
   */
  private importSteps(at: BacklinkBatch, f: ImportFacts): { rows: number; run: (q: Queryable) => Promise<void> }[] {
    const steps: { rows: number; run: (q: Queryable) => Promise<void> }[] = [];
    const sliced = <T>(rows: readonly T[], write: (slice: readonly T[], q: Queryable) => Promise<void>) => {
      for (let start = 0; start < rows.length; start += this.chunkRows) {
        const slice = rows.slice(start, start + this.chunkRows);
        steps.push({ rows: slice.length, run: (q) => write(slice, q) });
      }
    };
    sliced(mergePeriodRows(f.period), (slice, q) => this.period.append(at, slice, q));
    sliced(f.daily, (slice, q) => this.daily.add(at, slice, q));
    const index = uniqueIndexFacts({ status: f.indexStatus, issues: f.indexIssues, urls: f.indexUrls });
    if (index.status.length + index.issues.length > 0) steps.push({ rows: index.status.length + index.issues.length, run: (q) => this.index.add(at, { status: index.status, issues: index.issues, urls: [] }, q) });
    sliced(index.urls, (slice, q) => this.index.add(at, { status: [], issues: [], urls: slice }, q));
    sliced(uniqueLinks(f.backlinks), (slice, q) => this.links.add(at, slice, q));
    sliced(f.ranks, (slice, q) => this.ranks.add(at, slice, q));
    const market = uniqueMarketFacts({ domains: f.marketDomains, keywords: f.marketKeywords });
    if (market.domains.length > 0) steps.push({ rows: market.domains.length, run: (q) => this.market.add(at, { domains: market.domains, keywords: [] }, q) });
    sliced(market.keywords, (slice, q) => this.market.add(at, { domains: [], keywords: slice }, q));
    sliced(f.serp, (slice, q) => this.serp.add(at, slice, q));
    return steps;
  }

  /** Removes an incomplete batch and every fact it stored. */
  private async removeIncomplete(id: number, accountId: number, host: string): Promise<void> {
    await this.db.query("DELETE FROM import_batches WHERE id = $1 AND NOT complete", [id]);
    await this.dropFacts(id, await this.liveImports(accountId, host), false);
  }

  /**
   * Removes the batches left incomplete by an import that stopped with its process (and their
   * facts in every store): all of them (`olderThan` null: the embedded mode, where the process
   * starting is the only writer) or those begun before olderThan (unix seconds). Answers how many.
   */
  async sweepIncomplete(olderThan: number | null): Promise<number> {
    const rows = await this.db.query<{ id: number | string; account_id: number | string; host: string }>(
      "SELECT id, account_id, host FROM import_batches WHERE NOT complete AND ($1::bigint IS NULL OR imported_at < $1::bigint)",
      [olderThan],
    );
    for (const r of rows) await this.removeIncomplete(Number(r.id), Number(r.account_id), r.host);
    return rows.length;
  }

  /** Removes a batch's facts from every port (the batch is no longer live). */
  private async dropFacts(importId: number, liveImports: readonly number[], sealed = true): Promise<void> {
    await this.period.drop(importId);
    await this.serp.drop(importId);
    await this.daily.drop(importId);
    await this.ranks.drop(importId);
    await this.links.drop(importId, liveImports, sealed);
    await this.index.drop(importId);
    await this.market.drop(importId);
  }

  async listBatches(accountId: number, host: string, limit: number, offset: number): Promise<{ rows: ImportBatchRow[]; total: number }> {
    const rows = await this.db.query<ImportBatchRow>(`SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND host = $2 AND complete ORDER BY imported_at DESC, id DESC LIMIT $3 OFFSET $4`, [accountId, host, limit, offset]);
    const total = await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM import_batches WHERE account_id = $1 AND host = $2 AND complete", [accountId, host]);
    return { rows, total: total[0]?.n ?? 0 };
  }

  /** Deletes a batch of the account and everything it brought; answers its host, or null when not the account's. */
  async deleteBatch(accountId: number, id: number): Promise<string | null> {
    const gone = await this.db.query<{ host: string }>("DELETE FROM import_batches WHERE id = $1 AND account_id = $2 AND complete RETURNING host", [id, accountId]);
    const host = gone[0]?.host;
    if (host === undefined) return null;
    await this.dropFacts(id, await this.liveImports(accountId, host));
    return host;
  }

  /** The site's live batches, oldest first (what a section's freshness is read from). */
  async liveBatches(accountId: number, host: string): Promise<ImportBatchRow[]> {
    return this.db.query<ImportBatchRow>(`SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND host = $2 AND complete ORDER BY imported_at, id`, [accountId, host]);
  }

  /** Every batch of the account, oldest first (for /providers). */
  async batchesOfAccount(accountId: number): Promise<ImportBatchRow[]> {
    return this.db.query<ImportBatchRow>(`SELECT ${BATCH_COLUMNS} FROM import_batches WHERE account_id = $1 AND complete ORDER BY imported_at, id`, [accountId]);
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
    return this.links.page(accountId, host, state, limit, offset, await this.liveImports(accountId, host));
  }

  /** Each backlink's first-seen and lost days (the newest batch's row per link), for the diagnosis. */
  async backlinkDates(accountId: number, host: string): Promise<{ first_seen: string | null; lost_at: string | null }[]> {
    return this.links.dates(accountId, host, await this.liveImports(accountId, host));
  }

  /** Index status points per engine (newest batch's row per day), oldest first. */
  async indexPoints(accountId: number, host: string): Promise<IndexPoint[]> {
    return this.index.points(accountId, host, await this.liveImports(accountId, host));
  }

  /** The issues of the newest batch that has issues, per engine. */
  async indexIssues(accountId: number, host: string): Promise<IndexIssueRow[]> {
    return this.index.issues(accountId, host, await this.liveImports(accountId, host));
  }

  /** Each URL's newest status per engine. */
  async indexUrls(accountId: number, host: string): Promise<IndexUrlRow[]> {
    return this.index.urls(accountId, host, await this.liveImports(accountId, host));
  }

  /**
   * The market's moves per day and engine over every site in the store (aggregates only: no site,
   * keyword or account is revealed), for the volatility's market line.
   */
  async marketMoves(sinceDay: string): Promise<MarketMoves[]> {
    const live = await this.db.query<{ id: number | string }>("SELECT id FROM import_batches WHERE kind = 'positions' AND complete");
    return this.ranks.moves(sinceDay, live.map((r) => Number(r.id)));
  }

  /**
   * Every tracked query's SERP snapshot lists since a day over every site in the store (the newest
   * live batch's list per query and day), for the volatility's market line: callers show aggregates only.
   */
  async marketSerp(sinceDay: string): Promise<SerpResult[]> {
    const live = await this.db.query<{ id: number | string }>("SELECT id FROM import_batches WHERE kind = 'positions' AND complete");
    return this.serp.readMarket(sinceDay, live.map((r) => Number(r.id)));
  }

  /** The providers and bases the site has market data of, newest first. */
  async marketSources(accountId: number, host: string): Promise<{ provider: string; base: string; imported_at: number }[]> {
    const batches = await this.liveBatchTimes(accountId, host);
    const newest = new Map<string, { provider: string; base: string; imported_at: number }>();
    for (const s of await this.market.sources(accountId, host, [...batches.keys()])) {
      const at = batches.get(s.import_id) ?? 0;
      const k = `${s.provider}\n${s.base}`;
      if ((newest.get(k)?.imported_at ?? -1) < at) newest.set(k, { provider: s.provider, base: s.base, imported_at: at });
    }
    const cp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...newest.values()].sort((a, b) => b.imported_at - a.imported_at || cp(a.provider, b.provider) || cp(a.base, b.base));
  }

  /** The competitor domains of the newest competitor report of a provider and base. */
  async marketDomains(accountId: number, host: string, provider: string, base: string): Promise<MarketDomainRow[]> {
    const batches = await this.liveBatchTimes(accountId, host);
    const rows = await this.market.domains(accountId, host, provider, base, [...batches.keys()]);
    return rows.map(({ import_id, ...d }) => ({ ...d, imported_at: batches.get(import_id) ?? 0 }));
  }

  /** Each domain's keywords in a provider's base, one row per domain × keyword from the newest batch that has it. */
  async marketKeywords(accountId: number, host: string, provider: string, base: string): Promise<MarketKeywordRow[]> {
    return this.market.keywords(accountId, host, provider, base, await this.liveImports(accountId, host));
  }

  /** The site's SERP snapshot results since a day (the newest live batch's list per query and day). */
  async serpResults(accountId: number, host: string, sinceDay: string): Promise<SerpResult[]> {
    return this.serp.read(accountId, host, sinceDay, await this.liveImports(accountId, host));
  }

  /** The newest day of the site's SERP snapshots, null without any. */
  async serpLatestDay(accountId: number, host: string): Promise<string | null> {
    return this.serp.latestDay(accountId, host, await this.liveImports(accountId, host));
  }

  private async liveImports(accountId: number, host: string, q: Queryable = this.db): Promise<number[]> {
    const rows = await q.query<{ id: number | string }>("SELECT id FROM import_batches WHERE account_id = $1 AND host = $2 AND complete", [accountId, host]);
    return rows.map((r) => Number(r.id));
  }

  /** The site's live batches and when each was imported. */
  private async liveBatchTimes(accountId: number, host: string): Promise<Map<number, number>> {
    const rows = await this.db.query<{ id: number | string; imported_at: number | string }>("SELECT id, imported_at FROM import_batches WHERE account_id = $1 AND host = $2 AND complete", [accountId, host]);
    return new Map(rows.map((r) => [Number(r.id), Number(r.imported_at)]));
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

const BATCH_COLUMNS = "id, host, provider, kind, formats, file_name, sha256, period_start, period_end, filters, rows, truncated, warnings, imported_at";
