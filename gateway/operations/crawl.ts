import { Type } from "@sinclair/typebox";
import type { CrawlReport } from "../../analyzer/index.ts";
import type { CrawlRow } from "../../storage/index.ts";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { defineOperation } from "../registry/operation.ts";
import { HostParams, Nullable, PageEnvelope, StringEnum, UnixSeconds, page, pagedQuery } from "../schemas.ts";
import { JobSchema, jobView } from "./jobs.ts";

const Json = Type.Record(Type.String(), Type.Unknown());

export const startCrawl = defineOperation({
  id: "start_crawl",
  method: "POST",
  path: "/crawl/{host}",
  scope: "run",
  cli: "crawl start",
  summary: "Start a whole-site crawl (a background job)",
  description:
    "Answers 202 with the job (kind crawl). The crawl walks the site breadth-first from the home page and its sitemaps within the plan's page and depth limits, honouring robots.txt, Crawl-delay and Retry-After, analyses every page and the link structure; progress is pages done out of pages known. Charged three checks against the plan's daily limit. A crawl finished less than SVC_REPORT_FRESH_S ago answers at once with a done job, not charged; ?fresh=1 always crawls.",
  tags: ["Checks"],
  flags: { async: true },
  status: 202,
  errors: ["bad_host", "limit"],
  params: HostParams,
  query: Type.Object({ fresh: Type.Optional(Type.Boolean({ default: false, description: "crawl even when a fresh crawl exists" })) }, { additionalProperties: false }),
  response: Type.Object({ job: JobSchema }, { additionalProperties: false }),
  handler: async ({ auth, deps, params, query, now }) => {
    const { jobId } = await deps.scheduler.startCrawl(auth!.accountId, params.host, query.fresh ?? false);
    const job = await deps.store.jobs.getOwned(auth!.accountId, jobId);
    if (!job) throw new ApiError("server", "the job just created is missing");
    return { status: 202, body: { job: jobView(job, now) } };
  },
});

/** The host's latest finished crawl; not_ready while the first one runs, not_found when there is none. */
async function latestCrawl(deps: GatewayDeps, host: string): Promise<CrawlRow & { report: CrawlReport }> {
  const crawl = await deps.store.crawls.latest(host);
  if (crawl) return crawl as CrawlRow & { report: CrawlReport };
  if (await deps.store.crawls.inFlight(host)) throw new ApiError("not_ready", `the first crawl of ${host} is still running`, { retryAfter: 10 });
  throw new ApiError("not_found", `${host} has not been crawled; start a crawl with POST /crawl/${host}`);
}

const CrawlPage = Type.Object(
  {
    url: Type.String(),
    final_url: Type.String(),
    status: Type.Integer({ description: "final HTTP status; 0 when there was no answer (see error)" }),
    error: Nullable(Type.String()),
    depth: Nullable(Type.Integer({ description: "clicks from the home page; null for URLs known only from the sitemaps" })),
    title: Type.String(),
    words: Type.Integer(),
    inlinks: Type.Integer({ description: "distinct crawled pages linking here" }),
    outlinks: Type.Integer(),
    issues: Type.Array(Type.String(), { description: "codes of the page checks failing on this page (GET /explain/{code})" }),
    score: Type.Number({ description: "internal link rank, 0-100" }),
    redirects: Type.Array(Type.Object({ url: Type.String(), status: Type.Integer(), location: Type.String() }, { additionalProperties: false })),
    canonical: Nullable(Type.String()),
    noindex: Type.Boolean(),
    in_sitemap: Type.Boolean(),
    content_type: Type.String(),
    bytes: Type.Integer(),
    ttfb_ms: Type.Number(),
    skipped: Nullable(StringEnum(["robots", "trap"], { description: "why the URL was not fetched" })),
  },
  { additionalProperties: false },
);

export const getCrawl = defineOperation({
  id: "get_crawl",
  method: "GET",
  path: "/crawl/{host}",
  scope: "read",
  cli: "crawl",
  summary: "The latest whole-site crawl: its URLs (paged), summary, link graph and external links",
  description:
    "Crawls are shared by all users. pages[] lists every URL the crawl stored, linked pages by depth first, then URLs known only from the sitemaps; filter with status (2, 3, 4, 5, or 0: no answer) or issue (a check code). summary has the counts, politeness applied and truncated_by (page_limit, depth_limit, time_limit, trap); graph the depth histogram; external the external-link totals (GET /external for the list). not_ready while the first crawl runs.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, {
    status: Type.Optional(Type.Integer({ minimum: 0, maximum: 5, description: "status class: 2, 3, 4, 5; 0 for no answer" })),
    issue: Type.Optional(Type.String({ pattern: "^[a-z0-9_]{1,64}$", description: "only pages failing this check" })),
  }),
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      job: Type.Integer({ description: "the crawl job" }),
      run: Nullable(Type.Integer({ description: "the run in /history this crawl made" })),
      pages: Type.Array(CrawlPage),
      summary: Json,
      graph: Json,
      external: Type.Object(
        { total: Type.Integer(), domains: Type.Integer(), nofollow_share: Type.Number(), checked: Type.Integer(), broken: Type.Integer(), unchecked: Type.Integer() },
        { additionalProperties: false },
      ),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
  handler: async ({ deps, params, query }) => {
    const crawl = await latestCrawl(deps, params.host);
    const filter = { ...(query.status !== undefined ? { statusClass: query.status } : {}), ...(query.issue !== undefined ? { issue: query.issue } : {}) };
    const { rows, total } = await deps.store.crawlPages.pages(crawl.job_id, filter, query.limit, query.offset);
    const ext = crawl.report.external;
    const links = ext?.links ?? [];
    return {
      body: {
        host: params.host,
        checked_at: crawl.checked_at,
        job: crawl.job_id,
        run: crawl.run_id,
        pages: rows.map((r) => {
          const d = r.data as Record<string, unknown>;
          return {
            url: r.url,
            final_url: typeof d.finalUrl === "string" ? d.finalUrl : r.url,
            status: r.status,
            error: typeof d.error === "string" && d.error !== "" ? d.error : null,
            depth: r.depth >= 0 ? r.depth : null,
            title: r.title,
            words: r.words,
            inlinks: r.inlinks,
            outlinks: r.outlinks,
            issues: r.issues,
            score: r.score,
            redirects: Array.isArray(d.redirects) ? (d.redirects as { url: string; status: number; location: string }[]).map((x) => ({ url: x.url, status: x.status, location: x.location })) : [],
            canonical: typeof d.canonical === "string" && d.canonical !== "" ? d.canonical : null,
            noindex: d.noindex === true,
            in_sitemap: d.inSitemap === true,
            content_type: typeof d.contentType === "string" ? d.contentType : "",
            bytes: typeof d.bytes === "number" ? d.bytes : 0,
            ttfb_ms: typeof d.ttfbMs === "number" ? d.ttfbMs : 0,
            skipped: r.skipped === "robots" || r.skipped === "trap" ? r.skipped : null,
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
  },
});

const UrlList = Type.Array(Type.String());

export const getLinks = defineOperation({
  id: "get_links",
  method: "GET",
  path: "/links/{host}",
  scope: "read",
  cli: "links",
  summary: "The latest crawl's link structure: orphans, broken links, duplicates, top pages",
  description:
    "orphans: URLs the sitemaps list that no crawled page links to; broken: internal link targets answering 4xx/5xx or nothing, with their source pages; duplicates: pages sharing a title, a description, the same text (content hash) or nearly the same text (64-bit SimHash at most 7 bits apart: about 90 % alike), and URLs that differ only by a trailing slash, parameter order or tracking parameters; top_pages: internal link rank (PageRank over the crawled graph, best = 100). Also redirects (chains and loops), canonical targets that cannot be indexed and hreflang alternates without a return link. limit and offset page every list alike; counts has their full lengths.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, {}),
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      orphans: Type.Array(Type.Object({ url: Type.String(), status: Type.Integer() }, { additionalProperties: false })),
      broken: Type.Array(
        Type.Object({ url: Type.String(), status: Type.Integer(), error: Nullable(Type.String()), links: Type.Integer(), sources: UrlList }, { additionalProperties: false }),
      ),
      duplicates: Type.Object(
        {
          titles: Type.Array(Type.Object({ title: Type.String(), urls: UrlList }, { additionalProperties: false })),
          descriptions: Type.Array(Type.Object({ description: Type.String(), urls: UrlList }, { additionalProperties: false })),
          content: Type.Array(Type.Object({ hash: Type.String(), urls: UrlList }, { additionalProperties: false })),
          near: Type.Array(Type.Object({ a: Type.String(), b: Type.String(), similarity: Type.Number() }, { additionalProperties: false })),
          urls: Type.Array(Type.Object({ key: Type.String(), urls: UrlList }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
      top_pages: Type.Array(Type.Object({ url: Type.String(), score: Type.Number(), inlinks: Type.Integer(), depth: Type.Integer() }, { additionalProperties: false })),
      redirects: Type.Array(
        Type.Object({ url: Type.String(), chain: UrlList, final: Type.String(), status: Type.Integer(), loop: Type.Boolean() }, { additionalProperties: false }),
      ),
      canonicals: Type.Array(Type.Object({ url: Type.String(), target: Type.String(), problem: Type.String() }, { additionalProperties: false })),
      hreflang: Type.Array(Type.Object({ url: Type.String(), alternate: Type.String(), hreflang: Type.String() }, { additionalProperties: false })),
      counts: Type.Record(Type.String(), Type.Integer()),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
  handler: async ({ deps, params, query }) => {
    const crawl = await latestCrawl(deps, params.host);
    const l = crawl.report.links;
    const cut = <T>(list: readonly T[]): T[] => list.slice(query.offset, query.offset + query.limit);
    const lists = {
      orphans: l.orphans,
      broken: l.broken,
      titles: l.duplicates.titles,
      descriptions: l.duplicates.descriptions,
      content: l.duplicates.content,
      near: l.duplicates.near,
      urls: l.duplicates.urls,
      top_pages: l.top_pages,
      redirects: l.redirects,
      canonicals: l.canonicals,
      hreflang: l.hreflang,
    };
    const counts = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.length]));
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
        },
        top_pages: cut(l.top_pages),
        redirects: cut(l.redirects),
        canonicals: cut(l.canonicals),
        hreflang: cut(l.hreflang),
        counts,
        page: page(query.limit, query.offset, Math.max(0, ...Object.values(counts))),
      },
    };
  },
});

export const getExternalLinks = defineOperation({
  id: "get_external_links",
  method: "GET",
  path: "/external/{host}",
  scope: "read",
  cli: "external",
  summary: "The latest crawl's external links: domains, counts, nofollow share, broken ones",
  description:
    "External links are recorded by every crawl; they are fetched only on hosts the operator's SVC_EGRESS_ALLOW permits, and otherwise reported as unchecked (state unchecked), never as broken. domains[] is sorted by links, links[] by domain; filter links with state.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, { state: Type.Optional(StringEnum(["ok", "broken", "unchecked"], { description: "only links in this state" })) }),
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      summary: Type.Object(
        { total: Type.Integer(), distinct: Type.Integer(), domains: Type.Integer(), nofollow_share: Type.Number(), checked: Type.Integer(), broken: Type.Integer(), unchecked: Type.Integer() },
        { additionalProperties: false },
      ),
      domains: Type.Array(
        Type.Object(
          { domain: Type.String(), links: Type.Integer(), nofollow: Type.Integer(), pages: Type.Integer(), checked: Type.Integer(), broken: Type.Integer(), unchecked: Type.Integer() },
          { additionalProperties: false },
        ),
      ),
      links: Type.Array(
        Type.Object(
          { url: Type.String(), domain: Type.String(), sources: Type.Integer(), nofollow: Type.Boolean(), status: Nullable(Type.Integer()), error: Nullable(Type.String()), state: StringEnum(["ok", "broken", "unchecked"]) },
          { additionalProperties: false },
        ),
      ),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
  handler: async ({ deps, params, query }) => {
    const crawl = await latestCrawl(deps, params.host);
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
  },
});
