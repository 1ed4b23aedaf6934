import type { PageModel } from "./page-model.ts";

// The link-graph site's data model and the fixed names it uses (sections, sitemap files).

export interface LinkGraphOptions {
  /** HTML pages in the site, about (listing pages round it). Default 300; at least 150. */
  readonly pages?: number;
  /** PRNG seed. Default 20261101. */
  readonly seed?: number;
  /** Size of the one page meant to exceed a crawler's body limit. Default 6 MiB. */
  readonly largePageBytes?: number;
}

export interface RedirectModel {
  readonly status: 301 | 302 | 307 | 308;
  /** A path, or an absolute URL of another host. */
  readonly location: string;
  /** Location written as origin + path rather than the bare path. */
  readonly absolute?: boolean;
}

export interface RobotsGroup {
  readonly agents: readonly string[];
  readonly allow: readonly string[];
  readonly disallow: readonly string[];
  readonly crawlDelayS?: number;
}

export interface LinkGraphModel {
  /** HTML pages by path (aliases are in the pages themselves). */
  readonly pages: Map<string, PageModel>;
  readonly redirects: Map<string, RedirectModel>;
  /** Paths answering an error page with this status; other unknown paths are 404. */
  readonly errors: Map<string, number>;
  /** Non-HTML answers by path. */
  readonly files: Map<string, { readonly type: string; readonly body: Buffer }>;
  readonly robots: readonly RobotsGroup[];
  /** The locs (paths) of the two sitemaps: the plain one and the gzipped one. */
  readonly sitemaps: { readonly pages: string[]; readonly posts: string[] };
  /** What the builder meant to build; the manifest derives the truths from the data and the self-tests compare. */
  readonly intended: Intended;
}

export interface Intended {
  orphans: string[];
  nearPairs: { a: string; b: string; substitutions: number }[];
  /** A pair sharing about half its text: similar, but not a near-duplicate. */
  partialPair: { a: string; b: string } | null;
  exactDuplicates: string[];
}

/** The oversized page is at least this big unless told otherwise. */
export const DEFAULT_LARGE_PAGE_BYTES = 6 * 1024 * 1024;

export const SECTIONS = ["blog", "guides", "products", "news"] as const;
export type Section = (typeof SECTIONS)[number];
export const PER_PAGE = 15;

export const SITEMAP_INDEX = "/sitemap_index.xml";
export const SITEMAP_PAGES = "/sitemaps/pages.xml";
export const SITEMAP_POSTS = "/sitemaps/posts.xml.gz";
export const SITEMAP_MISSING = "/sitemap-legacy.xml";
