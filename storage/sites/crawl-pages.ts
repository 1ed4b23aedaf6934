import type { Db } from "../engine/db.ts";

/** A stored crawl page (the CrawledPage message as JSON, plus the columns lists sort and filter on). */
export interface CrawlPageRow {
  readonly url: string;
  readonly depth: number;
  readonly status: number;
  readonly skipped: string;
  readonly title: string;
  readonly words: number;
  readonly inlinks: number;
  readonly outlinks: number;
  readonly score: number;
  readonly issues: string[];
  readonly data: unknown;
}

export interface NewCrawlPage {
  readonly url: string;
  /** Clicks from the home page; negative for URLs known only from the sitemaps. */
  readonly depth: number;
  readonly status: number;
  readonly skipped: string;
  readonly title: string;
  readonly words: number;
  readonly outlinks: number;
  readonly issues: readonly string[];
  readonly data: unknown;
}

/** The link figures of one page, known once the whole crawl is. */
export interface CrawlLinkStats {
  readonly url: string;
  readonly inlinks: number;
  /** Kept to 15 significant digits (the analyzer's scores have two decimals). */
  readonly score: number;
}

export interface CrawlPagesFilter {
  /** Only URLs that answered with this status class (2, 3, 4, 5) or not at all (0). */
  readonly statusClass?: number;
  /** Only pages failing this check. */
  readonly issue?: string;
}

/** A crawl job's attempt as its lease holder knows it (JobsRepo.holding). */
export interface CrawlLease {
  readonly jobId: number;
  readonly attempt: number;
  /** The job's creation (unix seconds): ClickHouse partitions its pages by it. */
  readonly created: number;
}

/** A crawl job as its settling needs it. */
export interface CrawlJobRef {
  readonly id: number;
  readonly created: number;
}

/**
 * The pages of crawl jobs: a job's checkpoint while it runs, the pages GET /crawl lists after. The
 * embedded mode keeps them in Postgres; the distributed mode in ClickHouse. A store never reads
 * the jobs table: the caller checks the lease (JobsRepo.holding) and passes what it found.
 * Every implementation passes test/harness/crawl-pages-contract.ts.
 */
export interface CrawlPages {
  /**
   * Stores pages of an attempt of a job. A page (job, URL) stored again replaces itself and takes
   * its new place in the store order; of two attempts' copies the later attempt's wins, whichever
   * arrives last. Of one URL twice in a batch the last one counts. Refuses the whole batch,
   * writing nothing, when a page is invalid.
   */
  put(lease: CrawlLease, pages: readonly NewCrawlPage[]): Promise<void>;
  /** The stored pages' data of a job in store order (the resume read). */
  jobPages(jobId: number, offset: number, limit: number): Promise<unknown[]>;
  /**
   * Sets inlinks and score of the job's stored pages (other URLs are ignored); writing the same
   * figures again changes nothing, newer figures replace older ones. An implementation on the
   * account database writes in the unit of work it is bound to (the job's settlement); one on
   * another store writes at once, before that unit of work commits.
   */
  setLinkStats(job: CrawlJobRef, stats: readonly CrawlLinkStats[]): Promise<void>;
  /** A page of a job's URLs, in crawl order: linked pages by depth, then sitemap-only ones; each in store order. */
  pages(jobId: number, filter: CrawlPagesFilter, limit: number, offset: number): Promise<{ rows: CrawlPageRow[]; total: number }>;
  /** Distinct stored pages of the job: exact, duplicates never counted. */
  count(jobId: number): Promise<number>;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * Throws a RangeError naming the first page that cannot be stored the same way on every
 * implementation: text must be well-formed Unicode without NUL (Postgres text holds no NUL), the
 * counts must fit Postgres integer (ClickHouse Int32), data must have a JSON form. Returns each
 * page's data as JSON (made once: it is most of a page's cost to store).
 */
export function assertCrawlPages(pages: readonly NewCrawlPage[]): Map<NewCrawlPage, string> {
  const json = new Map<NewCrawlPage, string>();
  pages.forEach((p, i) => {
    const data = JSON.stringify(p.data) as string | undefined;
    const problem = pageProblem(p) ?? (data === undefined ? "data has no JSON form" : null);
    if (problem) throw new RangeError(`crawl page ${i} (${JSON.stringify(p.url)}): ${problem}`);
    json.set(p, data!);
  });
  return json;
}

function pageProblem(p: NewCrawlPage): string | null {
  for (const [name, v] of [["url", p.url], ["skipped", p.skipped], ["title", p.title]] as const) {
    const problem = textProblem(v);
    if (problem) return `${name} ${problem}`;
  }
  if (!Array.isArray(p.issues)) return "issues must be an array";
  for (const issue of p.issues) {
    const problem = textProblem(issue);
    if (problem) return `issue ${problem}`;
  }
  for (const [name, v] of [["depth", p.depth], ["status", p.status], ["words", p.words], ["outlinks", p.outlinks]] as const) {
    if (!isInt32(v)) return `${name} must be an integer ${INT32_MIN}..${INT32_MAX}, got ${String(v)}`;
  }
  return null;
}

/** Throws a RangeError naming the first figures that cannot be stored. */
export function assertLinkStats(stats: readonly CrawlLinkStats[]): void {
  stats.forEach((s, i) => {
    const problem = textProblem(s.url) ?? (!isInt32(s.inlinks) ? "inlinks must be a 32-bit integer" : !Number.isFinite(s.score) ? "score must be a finite number" : null);
    if (problem) throw new RangeError(`link stats ${i} (${JSON.stringify(s.url)}): ${problem}`);
  });
}

/** Throws a RangeError for a filter no implementation could apply the same way. */
export function assertCrawlFilter(filter: CrawlPagesFilter): void {
  const c = filter.statusClass;
  if (c !== undefined && !(isInt32(c) && c >= 0)) throw new RangeError(`statusClass must be an integer 0..${INT32_MAX}, got ${String(c)}`);
  const problem = filter.issue === undefined ? null : textProblem(filter.issue);
  if (problem) throw new RangeError(`issue ${problem}`);
}

/** A non-negative safe integer (limits and offsets). */
export function assertCount(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

/** One entry per URL, the last of each, in the order of those last ones. */
export function lastPerUrl<T extends { readonly url: string }>(items: readonly T[]): T[] {
  const byUrl = new Map<string, T>();
  for (const item of items) {
    byUrl.delete(item.url);
    byUrl.set(item.url, item);
  }
  return [...byUrl.values()];
}

function isInt32(n: unknown): boolean {
  return typeof n === "number" && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX;
}

function textProblem(s: unknown): string | null {
  if (typeof s !== "string") return "must be a string";
  if (s.includes("\0")) return "must not contain NUL";
  if (/\p{Surrogate}/u.test(s)) return "must be well-formed Unicode (a lone surrogate)";
  return null;
}

/** CrawlPages on the crawl_pages table (migration 008), for PGlite and a Postgres server. */
export class PostgresCrawlPages implements CrawlPages {
  constructor(private readonly db: Db) {}

  async put(lease: CrawlLease, input: readonly NewCrawlPage[]): Promise<void> {
    const json = assertCrawlPages(input);
    // An upsert may not touch a row twice in one statement.
    const pages = lastPerUrl(input);
    if (pages.length === 0) return;
    // seq = EXCLUDED.seq: a page stored again moves to its new place in the store order, as a
    // new row replacing the old one does in ClickHouse. Issues go as JSON so that any text
    // survives (no separator to split on).
    await this.db.query(
      `INSERT INTO crawl_pages (job_id, url, depth, status, skipped, title, words, outlinks, issues, data, attempt)
         SELECT $1, u, d, s, sk, t, w, o, ARRAY(SELECT e FROM json_array_elements_text(i::json) WITH ORDINALITY AS j(e, k) ORDER BY k), x::json, $11
         FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[], $10::text[]) WITH ORDINALITY AS p(u, d, s, sk, t, w, o, i, x, n)
         ORDER BY n
         ON CONFLICT (job_id, url) DO UPDATE SET seq = EXCLUDED.seq, depth = EXCLUDED.depth, status = EXCLUDED.status, skipped = EXCLUDED.skipped,
           title = EXCLUDED.title, words = EXCLUDED.words, outlinks = EXCLUDED.outlinks, issues = EXCLUDED.issues, data = EXCLUDED.data,
           attempt = EXCLUDED.attempt
         WHERE crawl_pages.attempt <= EXCLUDED.attempt`,
      [
        lease.jobId,
        pages.map((p) => p.url),
        pages.map((p) => p.depth),
        pages.map((p) => p.status),
        pages.map((p) => p.skipped),
        pages.map((p) => p.title),
        pages.map((p) => p.words),
        pages.map((p) => p.outlinks),
        pages.map((p) => JSON.stringify(p.issues)),
        pages.map((p) => json.get(p)),
        lease.attempt,
      ],
    );
  }

  async jobPages(jobId: number, offset: number, limit: number): Promise<unknown[]> {
    assertCount("offset", offset);
    assertCount("limit", limit);
    const rows = await this.db.query<{ data: unknown }>("SELECT data FROM crawl_pages WHERE job_id = $1 ORDER BY seq LIMIT $2 OFFSET $3", [jobId, limit, offset]);
    return rows.map((r) => r.data);
  }

  async setLinkStats(job: CrawlJobRef, input: readonly CrawlLinkStats[]): Promise<void> {
    assertLinkStats(input);
    const stats = lastPerUrl(input);
    if (stats.length === 0) return;
    await this.db.query(
      `UPDATE crawl_pages c SET inlinks = s.n, score = s.r
       FROM unnest($2::text[], $3::int[], $4::float8[]) AS s(u, n, r)
       WHERE c.job_id = $1 AND c.url = s.u`,
      [job.id, stats.map((s) => s.url), stats.map((s) => s.inlinks), stats.map((s) => s.score)],
    );
  }

  async pages(jobId: number, filter: CrawlPagesFilter, limit: number, offset: number): Promise<{ rows: CrawlPageRow[]; total: number }> {
    assertCount("limit", limit);
    assertCount("offset", offset);
    assertCrawlFilter(filter);
    const where = ["job_id = $1"];
    const params: unknown[] = [jobId];
    if (filter.statusClass === 0) where.push(`status = 0 AND skipped = ''`);
    else if (filter.statusClass !== undefined) {
      params.push(filter.statusClass);
      where.push(`status / 100 = $${params.length}`);
    }
    if (filter.issue !== undefined) {
      params.push(filter.issue);
      where.push(`$${params.length} = ANY (issues)`);
    }
    const clause = where.join(" AND ");
    const rows = await this.db.query<CrawlPageRow>(
      `SELECT url, depth, status, skipped, title, words, inlinks, outlinks, score, issues, data FROM crawl_pages WHERE ${clause}
       ORDER BY (depth < 0), depth, seq LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM crawl_pages WHERE ${clause}`, params);
    return { rows, total: count?.n ?? 0 };
  }

  async count(jobId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM crawl_pages WHERE job_id = $1", [jobId]);
    return row?.n ?? 0;
  }
}
