import type { Engine, IndexIssueFact, IndexStatusFact, IndexUrlFact } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";
import { insertColumns, type Column } from "./fact-insert.ts";
import type { SerpBatch } from "./serp-series.ts";

export interface IndexPoint {
  readonly engine: Engine;
  readonly day: string;
  readonly indexed: number | null;
  readonly not_indexed: number | null;
}

export interface IndexIssueRow {
  readonly engine: Engine;
  readonly reason: string;
  readonly source: string;
  readonly validation: string;
  readonly pages: number;
}

export interface IndexUrlRow {
  readonly engine: Engine;
  readonly url: string;
  readonly status: string;
  readonly reason: string;
  readonly http_code: number | null;
  readonly last_crawled: string | null;
}

/** A batch's indexing facts: GSC Page indexing (chart, issues, drill-down URLs), Yandex pages in search. */
export interface IndexFacts {
  readonly status: readonly IndexStatusFact[];
  readonly issues: readonly IndexIssueFact[];
  readonly urls: readonly IndexUrlFact[];
}

/**
 * The time-series port for imported indexing facts. Reads name the live batches:
 * points per (engine, day) and URLs per (engine, url) from the newest live batch that has them;
 * issues whole from each engine's newest live batch with issues. Postgres embedded, ClickHouse in
 * the distributed mode.
 */
export interface IndexSeries {
  /** Stores a batch's facts (one point per engine and day, one row per engine and URL: the file's last). `within` as in SerpSeries. May be called several times for one batch with disjoint facts. */
  add(batch: SerpBatch, facts: IndexFacts, within?: Queryable): Promise<void>;
  /** Points by engine, then day, oldest first. */
  points(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexPoint[]>;
  /** Issues by pages (most first), then reason, source and validation (code point order), then engine. */
  issues(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexIssueRow[]>;
  /** URLs by engine, then URL (code point order). */
  urls(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexUrlRow[]>;
  drop(importId: number): Promise<void>;
}

/** The facts with one point per (engine, day) and one URL row per (engine, url), the file's last; checked. */
export function uniqueIndexFacts(f: IndexFacts): IndexFacts {
  for (const i of f.issues) if (!Number.isSafeInteger(i.pages) || i.pages < 0) throw new RangeError(`pages must be a non-negative integer, got ${i.pages}`);
  for (const s of f.status) {
    for (const n of [s.indexed, s.notIndexed]) if (n !== null && (!Number.isSafeInteger(n) || n < 0)) throw new RangeError(`index counts must be non-negative integers, got ${n}`);
  }
  return {
    status: [...new Map(f.status.map((s) => [`${s.engine}\n${s.date}`, s])).values()],
    issues: f.issues,
    urls: [...new Map(f.urls.map((u) => [`${u.engine}\n${u.url}`, u])).values()],
  };
}

const OWN: readonly Column[] = [["import_id", "bigint"], ["account_id", "bigint"], ["host", "text"]];
const t = (name: string): Column => [name, "text"];

export class PostgresIndexSeries implements IndexSeries {
  constructor(private readonly db: Db) {}

  async add(batch: SerpBatch, facts: IndexFacts, within?: Queryable): Promise<void> {
    const f = uniqueIndexFacts(facts);
    const q = within ?? this.db;
    const own = [batch.importId, batch.accountId, batch.host] as const;
    await insertColumns(q, "index_status", [...OWN, t("engine"), t("day"), ["indexed", "bigint"], ["not_indexed", "bigint"]], f.status.map((r) => [...own, r.engine, r.date, r.indexed, r.notIndexed]));
    await insertColumns(q, "index_issues", [...OWN, t("engine"), t("reason"), t("source"), t("validation"), ["pages", "bigint"]], f.issues.map((r) => [...own, r.engine, r.reason, r.source, r.validation, r.pages]));
    await insertColumns(q, "index_urls", [...OWN, t("engine"), t("url"), t("status"), t("reason"), ["http_code", "integer"], t("last_crawled"), t("event"), t("event_date"), t("target")], f.urls.map((r) => [...own, r.engine, r.url, r.status, r.reason, r.httpCode, r.lastCrawled, r.event, r.eventDate, r.target]));
  }

  async points(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexPoint[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<{ engine: Engine; day: string; indexed: number | string | null; not_indexed: number | string | null }>(
      `SELECT DISTINCT ON (engine, day) engine, day, indexed, not_indexed FROM index_status WHERE account_id = $1 AND host = $2 AND import_id = ANY($3::bigint[]) ORDER BY engine, day, import_id DESC`,
      [accountId, host, liveImports],
    );
    return rows.map((r) => ({ engine: r.engine, day: r.day, indexed: r.indexed === null ? null : Number(r.indexed), not_indexed: r.not_indexed === null ? null : Number(r.not_indexed) }));
  }

  async issues(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexIssueRow[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<IndexIssueRow & { pages: number | string }>(
      `WITH newest AS (SELECT engine, max(import_id) AS import_id FROM index_issues WHERE account_id = $1 AND host = $2 AND import_id = ANY($3::bigint[]) GROUP BY engine)
       SELECT i.engine, i.reason, i.source, i.validation, i.pages FROM index_issues i JOIN newest n ON n.import_id = i.import_id AND n.engine = i.engine
       ORDER BY i.pages DESC, i.reason COLLATE "C", i.source COLLATE "C", i.validation COLLATE "C", i.engine`,
      [accountId, host, liveImports],
    );
    return rows.map((r) => ({ ...r, pages: Number(r.pages) }));
  }

  async urls(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexUrlRow[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<IndexUrlRow>(
      `SELECT engine, url, status, reason, http_code, last_crawled FROM (
         SELECT DISTINCT ON (engine, url) engine, url, status, reason, http_code, last_crawled FROM index_urls
         WHERE account_id = $1 AND host = $2 AND import_id = ANY($3::bigint[]) ORDER BY engine, url, import_id DESC
       ) u ORDER BY engine, url COLLATE "C"`,
      [accountId, host, liveImports],
    );
    return rows.map((r) => ({ ...r, http_code: r.http_code === null ? null : Number(r.http_code) }));
  }

  async drop(importId: number): Promise<void> {
    for (const table of ["index_status", "index_issues", "index_urls"]) await this.db.query(`DELETE FROM ${table} WHERE import_id = $1`, [importId]);
  }
}
