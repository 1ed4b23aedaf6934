import type { Engine, RankFact } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";
import type { SerpBatch } from "./serp-series.ts";

/** One rank check as the positions operations read it. */
export interface RankRow {
  readonly engine: Engine;
  readonly region: number;
  readonly device: string;
  readonly keyword: string;
  readonly day: string;
  readonly position: number | null;
  readonly url: string | null;
  readonly grp: string;
  readonly volume: number | null;
}

/** The market's moves on a day of one engine: keywords checked that day and the day before, and how many moved. */
export interface MarketMoves {
  readonly engine: Engine;
  readonly day: string;
  readonly checked: number;
  readonly moved: number;
}

/** A rank batch also names its provider (Topvisor, Keys.so …). */
export interface RankBatch extends SerpBatch {
  readonly provider: string;
}

/**
 * The time-series port for imported rank checks (Topvisor positions, Keys.so
 * monitoring). Postgres in the embedded mode, ClickHouse in the distributed one; the batches stay
 * in Postgres and reads name the live ones (as SerpSeries).
 */
export interface RankSeries {
  add(batch: RankBatch, rows: readonly RankFact[], within?: Queryable): Promise<void>;
  /**
   * The site's checks on days ≥ sinceDay, one per keyword × engine × region × device × day, from
   * the newest live batch that has it; ordered by engine, region, device, keyword, day.
   */
  read(accountId: number, host: string, sinceDay: string, liveImports: readonly number[]): Promise<RankRow[]>;
  /** Each keyword's newest known volume (the latest day's, of the newest batch), over the live batches. */
  volumes(accountId: number, host: string, liveImports: readonly number[]): Promise<Map<string, number>>;
  /**
   * Per engine and day ≥ sinceDay, over every site and account of the store (aggregates only): the
   * tracked keywords checked that day and the day before, and how many moved (≥ 3 places, or into
   * or out of the tracked depth). liveImports: every live batch of the store. By engine, oldest first.
   */
  moves(sinceDay: string, liveImports: readonly number[]): Promise<MarketMoves[]>;
  drop(importId: number): Promise<void>;
}

export function assertRankRow(r: RankFact): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(r.date)) throw new RangeError(`not a day: ${JSON.stringify(r.date)}`);
  if (!Number.isSafeInteger(r.region) || r.region < 0) throw new RangeError(`region must be a non-negative integer, got ${r.region}`);
  if (r.position !== null && (!Number.isSafeInteger(r.position) || r.position < 1)) throw new RangeError(`position must be a positive integer or null, got ${r.position}`);
  if (r.volume !== null && (!Number.isSafeInteger(r.volume) || r.volume < 0)) throw new RangeError(`volume must be a non-negative integer or null, got ${r.volume}`);
}

/** Orders checks as read() promises (plain code-point order, the same on every store). */
export function sortRankRows<T extends RankRow>(rows: T[]): T[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => cmp(a.engine, b.engine) || a.region - b.region || cmp(a.device, b.device) || cmp(a.keyword, b.keyword) || cmp(a.day, b.day));
}

/** Moves per engine and day from each series' checks (the newest per day): consecutive days only. */
export function movesOf(rows: readonly { series: string; engine: Engine; day: string; position: number | null }[], sinceDay: string): MarketMoves[] {
  const bySeries = new Map<string, { engine: Engine; day: string; position: number | null }[]>();
  for (const r of rows) bySeries.set(r.series, [...(bySeries.get(r.series) ?? []), r]);
  const out = new Map<string, { engine: Engine; day: string; checked: number; moved: number }>();
  const DAY = 86_400_000;
  for (const list of bySeries.values()) {
    list.sort((a, b) => (a.day < b.day ? -1 : 1));
    for (let i = 1; i < list.length; i++) {
      const [prev, cur] = [list[i - 1]!, list[i]!];
      if (cur.day < sinceDay || Date.parse(`${cur.day}T00:00:00Z`) - Date.parse(`${prev.day}T00:00:00Z`) !== DAY) continue;
      const k = `${cur.engine}\n${cur.day}`;
      const m = out.get(k) ?? { engine: cur.engine, day: cur.day, checked: 0, moved: 0 };
      m.checked++;
      if ((cur.position === null) !== (prev.position === null) || (cur.position !== null && prev.position !== null && Math.abs(cur.position - prev.position) >= 3)) m.moved++;
      out.set(k, m);
    }
  }
  return [...out.values()].sort((a, b) => (a.engine < b.engine ? -1 : a.engine > b.engine ? 1 : a.day < b.day ? -1 : 1));
}

const CHUNK_ROWS = 20_000;

export class PostgresRankSeries implements RankSeries {
  constructor(private readonly db: Db) {}

  async add(batch: RankBatch, rows: readonly RankFact[], within?: Queryable): Promise<void> {
    rows.forEach(assertRankRow);
    const q = within ?? this.db;
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const chunk = rows.slice(start, start + CHUNK_ROWS);
      const col = <T>(f: (r: RankFact) => T) => chunk.map(f);
      await q.query(
        `INSERT INTO rank_checks (import_id, account_id, host, provider, engine, region, device, keyword, day, position, url, grp, volume)
         SELECT $1::bigint, $2::bigint, $3::text, $4::text, * FROM unnest($5::text[], $6::integer[], $7::text[], $8::text[], $9::text[], $10::integer[], $11::text[], $12::text[], $13::bigint[])`,
        [batch.importId, batch.accountId, batch.host, batch.provider, col((r) => r.engine), col((r) => r.region), col((r) => r.device), col((r) => r.keyword), col((r) => r.date), col((r) => r.position), col((r) => r.url), col((r) => r.group), col((r) => r.volume)],
      );
    }
  }

  async read(accountId: number, host: string, sinceDay: string, liveImports: readonly number[]): Promise<RankRow[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<RankRow>(
      `SELECT DISTINCT ON (engine, region, device, keyword, day) engine, region, device, keyword, day, position, url, grp, volume FROM rank_checks
       WHERE account_id = $1 AND host = $2 AND day >= $3 AND import_id = ANY($4::bigint[]) ORDER BY engine, region, device, keyword, day, import_id DESC`,
      [accountId, host, sinceDay, liveImports],
    );
    return sortRankRows(rows.map((r) => ({ ...r, volume: r.volume === null ? null : Number(r.volume) })));
  }

  async volumes(accountId: number, host: string, liveImports: readonly number[]): Promise<Map<string, number>> {
    if (liveImports.length === 0) return new Map();
    const rows = await this.db.query<{ keyword: string; volume: string | number }>(
      `SELECT DISTINCT ON (keyword) keyword, volume FROM rank_checks WHERE account_id = $1 AND host = $2 AND volume IS NOT NULL AND import_id = ANY($3::bigint[]) ORDER BY keyword, day DESC, import_id DESC`,
      [accountId, host, liveImports],
    );
    return new Map(rows.map((r) => [r.keyword, Number(r.volume)]));
  }

  async moves(sinceDay: string, liveImports: readonly number[]): Promise<MarketMoves[]> {
    if (liveImports.length === 0) return [];
    return this.db.query<MarketMoves>(
      `WITH r AS (
         SELECT DISTINCT ON (account_id, host, engine, region, device, keyword, day) account_id, host, engine, region, device, keyword, day, position
         FROM rank_checks WHERE day >= to_char($1::text::date - 1, 'YYYY-MM-DD') AND import_id = ANY($2::bigint[])
         ORDER BY account_id, host, engine, region, device, keyword, day, import_id DESC
       ), l AS (
         SELECT engine, day, position, lag(position) OVER w AS prev, lag(day) OVER w AS prev_day
         FROM r WINDOW w AS (PARTITION BY account_id, host, engine, region, device, keyword ORDER BY day)
       )
       SELECT engine, day, count(*)::int AS checked,
              (count(*) FILTER (WHERE (position IS NULL) <> (prev IS NULL) OR abs(position - prev) >= 3))::int AS moved
       FROM l WHERE prev_day IS NOT NULL AND day >= $1::text AND day::date - prev_day::date = 1
       GROUP BY engine, day ORDER BY engine, day`,
      [sinceDay, liveImports],
    );
  }

  async drop(importId: number): Promise<void> {
    await this.db.query("DELETE FROM rank_checks WHERE import_id = $1", [importId]);
  }
}
