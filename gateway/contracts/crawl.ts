import { Type } from "@sinclair/typebox";
import { HostParams, Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";
import { JobSchema } from "./jobs.ts";

const Json = Type.Record(Type.String(), Type.Unknown());

export const startCrawl = defineContract({
  id: "start_crawl",
  method: "POST",
  path: "/crawl/{host}",
  scope: "run",
  cli: "crawl start",
  summary: "Start a whole-site crawl (a background job)",
  description:
    "Answers 202 with the job (kind crawl). The crawl walks the site breadth-first from the home page and its sitemaps within the plan's page and depth limits, honouring robots.txt, Crawl-delay and Retry-After, analyses every page and the link structure; progress is pages done out of pages known. Charged three checks against the plan's daily limit. A crawl finished less than SVC_REPORT_FRESH_S ago answers at once with a done job, not charged; fresh (?fresh=1, ?fresh=true or a JSON body {\"fresh\": true}) always crawls.",
  tags: ["Checks"],
  flags: { async: true },
  status: 202,
  errors: ["bad_host", "limit"],
  params: HostParams,
  // fresh is 1/0 on GET /analyze and a boolean on POST /analyze; a crawl takes either, in the
  // query or in a JSON body (a body used to be ignored without a word).
  query: Type.Object(
    {
      fresh: Type.Optional(
        Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 1 })], { description: "1 or true: crawl even when a fresh crawl exists" }),
      ),
    },
    { additionalProperties: false },
  ),
  body: Type.Optional(
    Type.Object(
      { fresh: Type.Optional(Type.Boolean({ description: "true: crawl even when a fresh crawl exists (as ?fresh=1)" })) },
      { additionalProperties: false, "x-optional": true },
    ),
  ),
  response: Type.Object({ job: JobSchema }, { additionalProperties: false }),
});

/** Why a crawl recorded a URL without fetching it (docs/crawl.md). */
export const SKIP_REASONS = ["robots", "trap", "depth_limit", "missing_target"] as const;

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
    skipped: Nullable(
      StringEnum(SKIP_REASONS, {
        description: "why the URL was not fetched: robots.txt disallows it, a crawler trap, past the click-depth limit, or a link the site itself marks as missing (MediaWiki's redlink=1)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const getCrawl = defineContract({
  id: "get_crawl",
  method: "GET",
  path: "/crawl/{host}",
  scope: "read",
  shared: true,
  cli: "crawl",
  summary: "The latest whole-site crawl: its URLs (paged), summary, link graph and external links",
  description:
    "Crawls are shared by all users. pages[] lists every URL the crawl stored, linked pages by depth first, then URLs known only from the sitemaps; filter with status (2, 3, 4, 5, or 0: no answer) or issue (a check code). summary has the counts, politeness applied and truncated_by (page_limit, depth_limit, time_limit, trap; extension: memory_limit, when what the crawl keeps of its pages reached SVC_CRAWL_MEMORY_MB); graph the depth histogram; external the external-link totals (GET /external for the list). not_ready while the first crawl runs.",
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
});

const UrlList = Type.Array(Type.String());

export const getLinks = defineContract({
  id: "get_links",
  method: "GET",
  path: "/links/{host}",
  scope: "read",
  shared: true,
  cli: "links",
  summary: "The latest crawl's link structure: orphans, broken links, duplicates, top pages",
  description:
    "orphans: URLs the sitemaps list that no crawled page links to; broken: internal link targets answering 4xx/5xx or nothing, with their source pages; duplicates: pages sharing a title, a description, the same text (content hash) or nearly the same text (64-bit SimHash at most 7 bits apart: about 90 % alike), and URLs that differ only by a trailing slash, parameter order or tracking parameters; top_pages: internal link rank (PageRank over the crawled graph, best = 100). Also redirects (chains and loops), canonical targets that cannot be indexed and hreflang alternates without a return link. limit and offset page every list alike; counts has their full lengths. Extension: duplicates.clusters groups the pages nearly alike into clusters (id, size, representative: the page nearly alike to most others, similarity: the lowest of the cluster's pairs, pairs, urls: the representative first and at most 20 members); with cluster=<id> it holds that one cluster, its urls paged by limit and offset. duplicates.near lists at most 10,000 pairs; counts.near counts them all.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, {
    cluster: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: "Extension: only this near-duplicate cluster in duplicates.clusters, its members paged by limit and offset" })),
  }),
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
          clusters: Type.Array(
            Type.Object(
              {
                id: Type.Integer({ description: "1, 2, … largest cluster first; valid for this crawl's report" }),
                size: Type.Integer({ description: "pages in the cluster" }),
                representative: Type.String({ description: "the member nearly alike to most others" }),
                similarity: Type.Number({ description: "the lowest similarity of a near pair in the cluster" }),
                pairs: Type.Integer({ description: "near pairs in the cluster" }),
                urls: Type.Array(Type.String(), { description: "the representative first, then by URL; at most 20 unless cluster= pages them" }),
              },
              { additionalProperties: false, description: "Extension: pages nearly alike, as a cluster" },
            ),
          ),
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
});

export const getExternalLinks = defineContract({
  id: "get_external_links",
  method: "GET",
  path: "/external/{host}",
  scope: "read",
  shared: true,
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
});
