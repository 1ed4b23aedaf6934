import type { MarketDomainFact, MarketKeywordFact } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";
import { insertColumns, type Column } from "./fact-insert.ts";
import type { BacklinkBatch } from "./backlink-series.ts";

export interface MarketDomainSum {
  readonly domain: string;
  readonly common_keywords: number | null;
  readonly similarity_pct: number | null;
  readonly visibility: number | null;
  readonly top10: number | null;
  readonly pages_in_index: number | null;
  /** The batch it came from. */
  readonly import_id: number;
}

export interface MarketKeywordRow {
  readonly domain: string;
  readonly keyword: string;
  readonly position: number;
  readonly url: string;
  readonly volume: number | null;
}

/** A market source's regional base holding data of the site, and a live batch that brought some. */
export interface MarketSourceBatch {
  readonly provider: string;
  readonly base: string;
  readonly import_id: number;
}

export interface MarketFacts {
  readonly domains: readonly MarketDomainFact[];
  readonly keywords: readonly MarketKeywordFact[];
}

/**
 * The time-series port for imported market data (Keys.so organic/concurents and
 * organic/keywords, per regional base). Reads name the live batches: a competitor report is read
 * whole from the newest live batch of its provider and base; keywords per (domain, keyword) from
 * the newest live batch that has them. Postgres embedded, ClickHouse in the distributed mode.
 */
export interface MarketSeries {
  /** Stores a batch's reports (one keyword row per base, domain and keyword: the file's last). `within` as in SerpSeries. */
  add(batch: BacklinkBatch, facts: MarketFacts, within?: Queryable): Promise<void>;
  /** Each (provider, base, batch) of the live batches holding market rows of the site, ordered by provider, base and batch. */
  sources(accountId: number, host: string, liveImports: readonly number[]): Promise<MarketSourceBatch[]>;
  /** The domains of the newest live competitor report of a provider and base, in the report's order. */
  domains(accountId: number, host: string, provider: string, base: string, liveImports: readonly number[]): Promise<MarketDomainSum[]>;
  /** Keywords of a provider's base, one per domain and keyword (the newest live batch's), by domain then keyword (code point order). */
  keywords(accountId: number, host: string, provider: string, base: string, liveImports: readonly number[]): Promise<MarketKeywordRow[]>;
  drop(importId: number): Promise<void>;
}

/** One keyword row per (base, domain, keyword), the file's last, positions rounded; checked. */
export function uniqueMarketFacts(f: MarketFacts): MarketFacts {
  for (const k of f.keywords) {
    if (!Number.isFinite(k.position) || k.position < 0) throw new RangeError(`position must be a non-negative number, got ${k.position}`);
    if (k.volume !== null && (!Number.isSafeInteger(k.volume) || k.volume < 0)) throw new RangeError(`volume must be a non-negative integer or null, got ${k.volume}`);
  }
  return { domains: f.domains, keywords: [...new Map(f.keywords.map((k) => [`${k.base}\n${k.domain}\n${k.keyword}`, { ...k, position: Math.round(k.position) }])).values()] };
}

const OWN: readonly Column[] = [["import_id", "bigint"], ["account_id", "bigint"], ["host", "text"], ["provider", "text"]];
const t = (name: string): Column => [name, "text"];
const nn = (x: number | string | null) => (x === null ? null : Number(x));

type RawDomain = { [K in keyof MarketDomainSum]: K extends "domain" ? string : number | string | null };

export function marketDomainSum(r: RawDomain): MarketDomainSum {
  return { domain: r.domain, common_keywords: nn(r.common_keywords), similarity_pct: nn(r.similarity_pct), visibility: nn(r.visibility), top10: nn(r.top10), pages_in_index: nn(r.pages_in_index), import_id: Number(r.import_id) };
}

export class PostgresMarketSeries implements MarketSeries {
  constructor(private readonly db: Db) {}

  async add(batch: BacklinkBatch, facts: MarketFacts, within?: Queryable): Promise<void> {
    const f = uniqueMarketFacts(facts);
    const q = within ?? this.db;
    const own = [batch.importId, batch.accountId, batch.host, batch.provider] as const;
    await insertColumns(q, "market_domains", [...OWN, t("base"), t("domain"), ["common_keywords", "bigint"], ["similarity_pct", "double precision"], ["visibility", "double precision"], ["top10", "bigint"], ["pages_in_index", "bigint"], ["seq", "integer"]], f.domains.map((r, i) => [...own, r.base, r.domain, r.commonKeywords, r.similarityPct, r.visibility, r.top10, r.pagesInIndex, i]));
    await insertColumns(q, "market_keywords", [...OWN, t("base"), t("domain"), t("keyword"), ["position", "integer"], t("url"), ["volume", "bigint"]], f.keywords.map((r) => [...own, r.base, r.domain, r.keyword, r.position, r.url, r.volume]));
  }

  async sources(accountId: number, host: string, liveImports: readonly number[]): Promise<MarketSourceBatch[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<{ provider: string; base: string; import_id: number | string }>(
      `SELECT provider, base, import_id FROM (
         SELECT provider, base, import_id FROM market_domains WHERE account_id = $1 AND host = $2 AND import_id = ANY($3::bigint[])
         UNION SELECT provider, base, import_id FROM market_keywords WHERE account_id = $1 AND host = $2 AND import_id = ANY($3::bigint[])
       ) m ORDER BY provider COLLATE "C", base COLLATE "C", import_id`,
      [accountId, host, liveImports],
    );
    return rows.map((r) => ({ provider: r.provider, base: r.base, import_id: Number(r.import_id) }));
  }

  async domains(accountId: number, host: string, provider: string, base: string, liveImports: readonly number[]): Promise<MarketDomainSum[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<RawDomain>(
      `SELECT domain, common_keywords, similarity_pct, visibility, top10, pages_in_index, import_id FROM market_domains
       WHERE account_id = $1 AND host = $2 AND provider = $3 AND base = $4
         AND import_id = (SELECT max(import_id) FROM market_domains WHERE account_id = $1 AND host = $2 AND provider = $3 AND base = $4 AND import_id = ANY($5::bigint[]))
       ORDER BY seq`,
      [accountId, host, provider, base, liveImports],
    );
    return rows.map(marketDomainSum);
  }

  async keywords(accountId: number, host: string, provider: string, base: string, liveImports: readonly number[]): Promise<MarketKeywordRow[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<MarketKeywordRow & { volume: number | string | null; position: number | string }>(
      `SELECT domain, keyword, position, url, volume FROM (
         SELECT DISTINCT ON (domain, keyword) domain, keyword, position, url, volume FROM market_keywords
         WHERE account_id = $1 AND host = $2 AND provider = $3 AND base = $4 AND import_id = ANY($5::bigint[]) ORDER BY domain, keyword, import_id DESC
       ) k ORDER BY domain COLLATE "C", keyword COLLATE "C"`,
      [accountId, host, provider, base, liveImports],
    );
    return rows.map((r) => ({ ...r, position: Number(r.position), volume: nn(r.volume) }));
  }

  async drop(importId: number): Promise<void> {
    for (const table of ["market_domains", "market_keywords"]) await this.db.query(`DELETE FROM ${table} WHERE import_id = $1`, [importId]);
  }
}
