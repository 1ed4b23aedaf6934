import { marketDomainSum, uniqueMarketFacts, type MarketDomainSum, type MarketFacts, type MarketKeywordRow, type MarketSeries, type MarketSourceBatch } from "../search/market-series.ts";
import type { BacklinkBatch } from "../search/backlink-series.ts";
import { MARKET_DOMAINS_TABLE, MARKET_KEYWORDS_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { ident, inList, sql, type Sql } from "../engine/clickhouse-sql.ts";

/** MarketSeries on ClickHouse: one row per batch and key after merges; reads use FINAL and the newest live batch by a tuple IN. */
export class ClickHouseMarketSeries implements MarketSeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(batch: BacklinkBatch, facts: MarketFacts): Promise<void> {
    const f = uniqueMarketFacts(facts);
    const own = { account_id: batch.accountId, host: batch.host, import_id: batch.importId, provider: batch.provider };
    if (f.domains.length > 0) {
      await this.ch.insert(
        MARKET_DOMAINS_TABLE,
        ["account_id", "host", "import_id", "provider", "base", "seq", "domain", "common_keywords", "similarity_pct", "visibility", "top10", "pages_in_index"],
        f.domains.map((r, seq) => ({ ...own, base: r.base, seq, domain: r.domain, common_keywords: r.commonKeywords, similarity_pct: r.similarityPct, visibility: r.visibility, top10: r.top10, pages_in_index: r.pagesInIndex })),
      );
    }
    if (f.keywords.length > 0) {
      await this.ch.insert(MARKET_KEYWORDS_TABLE, ["account_id", "host", "import_id", "provider", "base", "domain", "keyword", "position", "url", "volume"], f.keywords.map((r) => ({ ...own, base: r.base, domain: r.domain, keyword: r.keyword, position: r.position, url: r.url, volume: r.volume })));
    }
  }

  private site(accountId: number, host: string, liveImports: readonly number[]): Sql {
    return sql`account_id = ${accountId} AND host = ${host} AND import_id IN ${inList(liveImports)}`;
  }

  async sources(accountId: number, host: string, liveImports: readonly number[]): Promise<MarketSourceBatch[]> {
    if (liveImports.length === 0) return [];
    const where = this.site(accountId, host, liveImports);
    const rows = await this.ch.query<{ provider: string; base: string; b: string }>(
      sql`SELECT provider, base, toString(import_id) AS b FROM (
            SELECT provider, base, import_id FROM market_domains WHERE ${where} GROUP BY provider, base, import_id
            UNION ALL SELECT provider, base, import_id FROM market_keywords WHERE ${where} GROUP BY provider, base, import_id
          ) GROUP BY provider, base, import_id ORDER BY provider, base, import_id`,
    );
    return rows.map((r) => ({ provider: r.provider, base: r.base, import_id: Number(r.b) }));
  }

  async domains(accountId: number, host: string, provider: string, base: string, liveImports: readonly number[]): Promise<MarketDomainSum[]> {
    if (liveImports.length === 0) return [];
    const where = sql`${this.site(accountId, host, liveImports)} AND provider = ${provider} AND base = ${base}`;
    const rows = await this.ch.query<Parameters<typeof marketDomainSum>[0] & { b: string }>(
      sql`SELECT domain, common_keywords, similarity_pct, visibility, top10, pages_in_index, toString(import_id) AS b FROM market_domains FINAL
          WHERE ${where} AND import_id IN (SELECT max(import_id) FROM market_domains WHERE ${where}) ORDER BY seq`,
    );
    return rows.map((r) => marketDomainSum({ ...r, import_id: r.b }));
  }

  async keywords(accountId: number, host: string, provider: string, base: string, liveImports: readonly number[]): Promise<MarketKeywordRow[]> {
    if (liveImports.length === 0) return [];
    const where = sql`${this.site(accountId, host, liveImports)} AND provider = ${provider} AND base = ${base}`;
    const rows = await this.ch.query<{ domain: string; keyword: string; position: number | string; url: string; volume: number | string | null }>(
      sql`SELECT domain, keyword, position, url, volume FROM market_keywords FINAL
          WHERE ${where} AND (domain, keyword, import_id) IN (SELECT domain, keyword, max(import_id) FROM market_keywords WHERE ${where} GROUP BY domain, keyword) ORDER BY domain, keyword`,
    );
    return rows.map((r) => ({ domain: r.domain, keyword: r.keyword, position: Number(r.position), url: r.url, volume: r.volume === null ? null : Number(r.volume) }));
  }

  async drop(importId: number): Promise<void> {
    for (const table of [MARKET_DOMAINS_TABLE, MARKET_KEYWORDS_TABLE]) await this.ch.command(sql`ALTER TABLE ${ident(table)} DELETE WHERE import_id = ${importId}`);
  }
}
