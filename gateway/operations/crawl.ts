import { CrawledPage } from "../../proto/index.ts";
import type { CrawlRow, Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { jobView } from "./jobs.ts";

export const startCrawl = implement(contracts.startCrawl, { repos: ["jobs"] }, async ({ auth, repos, deps, params, query, body, now }) => {
  const fresh = query.fresh === true || query.fresh === 1 || body?.fresh === true;
  const { jobId } = await deps.scheduler.startCrawl(auth!.accountId, params.host, fresh);
  const job = await repos.jobs.getOwned(auth!.accountId, jobId);
  if (!job) throw new ApiError("server", "the job just created is missing");
  return { status: 202, body: { job: jobView(job, now) } };
});

/** The host's latest finished crawl; not_ready while the first one runs, not_found when there is none. */
async function latestCrawl(repos: Pick<Repositories, "crawls">, host: string): Promise<CrawlRow> {
  const crawl = await repos.crawls.latest(host);
  if (crawl) return crawl;
  if (await repos.crawls.inFlight(host)) throw new ApiError("not_ready", `the first crawl of ${host} is still running`, { retryAfter: 10 });
  const failure = await repos.crawls.lastFailure(host);
  if (failure !== null) throw new ApiError("not_found", `${host} has no finished crawl: the last one failed (${failure})`, { details: { reason: failure } });
  throw new ApiError("not_found", `${host} has not been crawled; start a crawl with POST /crawl/${host}`);
}

export const getCrawl = implement(contracts.getCrawl, { repos: ["crawlPages", "crawls"] }, async ({ repos, params, query }) => {
  const crawl = await latestCrawl(repos, params.host);
  const filter = { ...(query.status !== undefined ? { statusClass: query.status } : {}), ...(query.issue !== undefined ? { issue: query.issue } : {}) };
  const { rows, total } = await repos.crawlPages.pages(crawl.job_id, filter, query.limit, query.offset);
  const ext = crawl.report.external;
  const links = ext?.links ?? [];
  return {
    body: {
      host: params.host,
      checked_at: crawl.checked_at,
      job: crawl.job_id,
      run: crawl.run_id,
      pages: rows.map((r) => {
        const d = CrawledPage.fromJSON(r.data);
        return {
          url: r.url,
          final_url: d.finalUrl || r.url,
          status: r.status,
          error: d.error !== "" ? d.error : null,
          depth: r.depth >= 0 ? r.depth : null,
          title: r.title,
          words: r.words,
          inlinks: r.inlinks,
          outlinks: r.outlinks,
          issues: r.issues,
          score: r.score,
          redirects: d.redirects.map((x) => ({ url: x.url, status: x.status, location: x.location })),
          canonical: d.canonical !== "" ? d.canonical : null,
          noindex: d.noindex,
          in_sitemap: d.inSitemap,
          content_type: d.contentType,
          bytes: d.bytes,
          ttfb_ms: d.ttfbMs,
          skipped: (contracts.SKIP_REASONS as readonly string[]).includes(r.skipped) ? (r.skipped as (typeof contracts.SKIP_REASONS)[number]) : null,
        };
      }),
      summary: crawl.report.summary ?? {},
      graph: crawl.report.graph ?? {},
      external: {
        total: ext?.total ?? 0,
        domains: ext?.domains.length ?? 0,
        nofollow_share: ext?.nofollow_share ?? 0,
        checked: links.filter((l) => l.state !== "unchecked").length,
        broken: links.filter((l) => l.state === "broken").length,
        unchecked: links.filter((l) => l.state === "unchecked").length,
      },
      page: page(query.limit, query.offset, total),
    },
  };
});

/** Members of a near-duplicate cluster shown without cluster= (the cluster's size tells the rest). */
const CLUSTER_MEMBERS_SHOWN = 20;

export const getLinks = implement(contracts.getLinks, { repos: ["crawls"] }, async ({ repos, params, query }) => {
  const crawl = await latestCrawl(repos, params.host);
  const l = crawl.report.links;
  const cut = <T>(list: readonly T[]): T[] => list.slice(query.offset, query.offset + query.limit);
  // Reports made before clusters have none.
  const clusters = l.duplicates.clusters ?? [];
  const chosen = query.cluster === undefined ? undefined : clusters.find((c) => c.id === query.cluster);
  if (query.cluster !== undefined && !chosen) throw new ApiError("not_found", `the latest crawl of ${params.host} has no near-duplicate cluster ${query.cluster}`);
  const nearPairs = crawl.report.summary["near_duplicates"];
  const lists = {
    orphans: l.orphans,
    broken: l.broken,
    titles: l.duplicates.titles,
    descriptions: l.duplicates.descriptions,
    content: l.duplicates.content,
    near: l.duplicates.near,
    urls: l.duplicates.urls,
    clusters,
    top_pages: l.top_pages,
    redirects: l.redirects,
    canonicals: l.canonicals,
    hreflang: l.hreflang,
  };
  const counts: Record<string, number> = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.length]));
  // The report keeps a bounded list of near pairs; the summary counts them all.
  if (typeof nearPairs === "number" && nearPairs > (counts["near"] ?? 0)) counts["near"] = nearPairs;
  return {
    body: {
      host: params.host,
      checked_at: crawl.checked_at,
      orphans: cut(l.orphans),
      broken: cut(l.broken).map((b) => ({ url: b.url, status: b.status, error: b.error || null, links: b.links, sources: b.sources })),
      duplicates: {
        titles: cut(l.duplicates.titles),
        descriptions: cut(l.duplicates.descriptions),
        content: cut(l.duplicates.content),
        near: cut(l.duplicates.near),
        urls: cut(l.duplicates.urls),
        clusters: chosen ? [{ ...chosen, urls: cut(chosen.urls) }] : cut(clusters).map((c) => ({ ...c, urls: c.urls.slice(0, CLUSTER_MEMBERS_SHOWN) })),
      },
      top_pages: cut(l.top_pages),
      redirects: cut(l.redirects),
      canonicals: cut(l.canonicals),
      hreflang: cut(l.hreflang),
      counts,
      page: page(query.limit, query.offset, chosen ? chosen.size : Math.max(0, ...Object.values(counts))),
    },
  };
});

export const getExternalLinks = implement(contracts.getExternalLinks, { repos: ["crawls"] }, async ({ repos, params, query }) => {
  const crawl = await latestCrawl(repos, params.host);
  const ext = crawl.report.external;
  const links = ext.links.filter((x) => query.state === undefined || x.state === query.state);
  return {
    body: {
      host: params.host,
      checked_at: crawl.checked_at,
      summary: {
        total: ext.total,
        distinct: ext.links.length,
        domains: ext.domains.length,
        nofollow_share: ext.nofollow_share,
        checked: ext.links.filter((x) => x.state !== "unchecked").length,
        broken: ext.links.filter((x) => x.state === "broken").length,
        unchecked: ext.links.filter((x) => x.state === "unchecked").length,
      },
      domains: ext.domains.slice(0, 200),
      links: links.slice(query.offset, query.offset + query.limit).map((x) => ({ ...x, error: x.error || null })),
      page: page(query.limit, query.offset, links.length),
    },
  };
});

export const crawlHandlers = [startCrawl, getCrawl, getLinks, getExternalLinks];
