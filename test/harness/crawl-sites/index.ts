// Fixture web sites for testing the whole-site crawler, each with a manifest of what a correct
// crawl finds. Serve a site with serveCrawlSite, then ask its manifest for the origin it got.

export { serveCrawlSite, lookupRoute, HTML_TYPE } from "./serve-crawl-site.ts";
export type { CrawlSite, CrawlSiteServer, RequestLogEntry, Route, ServeOptions, SiteRequest } from "./serve-crawl-site.ts";
export { linkGraphSite } from "./link-graph-site.ts";
export type { LinkGraphSite } from "./link-graph-site.ts";
export type { LinkGraphOptions } from "./link-graph-types.ts";
export { DEFAULT_LARGE_PAGE_BYTES } from "./link-graph-types.ts";
export type {
  BrokenLink,
  CanonicalTruth,
  ExternalDomain,
  HreflangTruth,
  InternalUrl,
  LinkGraphManifest,
  RedirectTruth,
} from "./link-graph-manifest.ts";
export type { Group, SimilarPair } from "./duplicate-groups.ts";
export { looseKey } from "./duplicate-groups.ts";
export { jaccard, shingles } from "./generated-text.ts";
export { throttlingSite, violations } from "./throttling-site.ts";
export type { ThrottlingManifest, ThrottlingOptions, ThrottlingSite, Violation } from "./throttling-site.ts";
export { trapSite } from "./trap-site.ts";
export { MW_ARTICLES, WP_AUTHOR_PAGES, WP_HOME_PAGES, mediawikiSite, wordpressSite } from "./cms-sites.ts";
export type { TrapFamily, TrapFamilyName, TrapManifest, TrapSite } from "./trap-site.ts";
