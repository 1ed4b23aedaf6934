import type { Engine } from "../../analyzer/index.ts";
import { uniqueIndexFacts, type IndexFacts, type IndexIssueRow, type IndexPoint, type IndexSeries, type IndexUrlRow } from "../search/index-series.ts";
import type { SerpBatch } from "../search/serp-series.ts";
import { INDEX_ISSUES_TABLE, INDEX_STATUS_TABLE, INDEX_URLS_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { ident, inList, sql, type Sql } from "../engine/clickhouse-sql.ts";

const nn = (x: number | string | null) => (x === null ? null : Number(x));

/** IndexSeries on ClickHouse: one row per batch and key after merges; reads use FINAL and the newest live batch by a tuple IN. */
export class ClickHouseIndexSeries implements IndexSeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(batch: SerpBatch, facts: IndexFacts): Promise<void> {
    const f = uniqueIndexFacts(facts);
    const own = { account_id: batch.accountId, host: batch.host, import_id: batch.importId };
    if (f.status.length > 0) await this.ch.insert(INDEX_STATUS_TABLE, ["account_id", "host", "import_id", "engine", "day", "indexed", "not_indexed"], f.status.map((r) => ({ ...own, engine: r.engine, day: r.date, indexed: r.indexed, not_indexed: r.notIndexed })));
    if (f.issues.length > 0) await this.ch.insert(INDEX_ISSUES_TABLE, ["account_id", "host", "import_id", "seq", "engine", "reason", "source", "validation", "pages"], f.issues.map((r, seq) => ({ ...own, seq, engine: r.engine, reason: r.reason, source: r.source, validation: r.validation, pages: r.pages })));
    if (f.urls.length > 0) {
      await this.ch.insert(
        INDEX_URLS_TABLE,
        ["account_id", "host", "import_id", "engine", "url", "status", "reason", "http_code", "last_crawled", "event", "event_date", "target"],
        f.urls.map((r) => ({ ...own, engine: r.engine, url: r.url, status: r.status, reason: r.reason, http_code: r.httpCode, last_crawled: r.lastCrawled, event: r.event, event_date: r.eventDate, target: r.target })),
      );
    }
  }

  private site(accountId: number, host: string, liveImports: readonly number[]): Sql {
    return sql`account_id = ${accountId} AND host = ${host} AND import_id IN ${inList(liveImports)}`;
  }

  async points(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexPoint[]> {
    if (liveImports.length === 0) return [];
    const where = this.site(accountId, host, liveImports);
    const rows = await this.ch.query<{ engine: Engine; day: string; indexed: string | number | null; not_indexed: string | number | null }>(
      sql`SELECT engine, day, indexed, not_indexed FROM index_status FINAL
          WHERE ${where} AND (engine, day, import_id) IN (SELECT engine, day, max(import_id) FROM index_status WHERE ${where} GROUP BY engine, day) ORDER BY engine, day`,
    );
    return rows.map((r) => ({ engine: r.engine, day: r.day, indexed: nn(r.indexed), not_indexed: nn(r.not_indexed) }));
  }

  async issues(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexIssueRow[]> {
    if (liveImports.length === 0) return [];
    const where = this.site(accountId, host, liveImports);
    const rows = await this.ch.query<{ engine: Engine; reason: string; source: string; validation: string; pages: string | number }>(
      sql`SELECT engine, reason, source, validation, pages FROM index_issues FINAL
          WHERE ${where} AND (engine, import_id) IN (SELECT engine, max(import_id) FROM index_issues WHERE ${where} GROUP BY engine) ORDER BY pages DESC, reason, source, validation, engine`,
    );
    return rows.map((r) => ({ ...r, pages: Number(r.pages) }));
  }

  async urls(accountId: number, host: string, liveImports: readonly number[]): Promise<IndexUrlRow[]> {
    if (liveImports.length === 0) return [];
    const where = this.site(accountId, host, liveImports);
    const rows = await this.ch.query<IndexUrlRow & { http_code: number | string | null }>(
      sql`SELECT engine, url, status, reason, http_code, last_crawled FROM index_urls FINAL
          WHERE ${where} AND (engine, url, import_id) IN (SELECT engine, url, max(import_id) FROM index_urls WHERE ${where} GROUP BY engine, url) ORDER BY engine, url`,
    );
    return rows.map((r) => ({ ...r, http_code: nn(r.http_code) }));
  }

  async drop(importId: number): Promise<void> {
    for (const table of [INDEX_STATUS_TABLE, INDEX_ISSUES_TABLE, INDEX_URLS_TABLE]) await this.ch.command(sql`ALTER TABLE ${ident(table)} DELETE WHERE import_id = ${importId}`);
  }
}
