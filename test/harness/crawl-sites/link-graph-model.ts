import { Prng } from "./generated-text.ts";
import { addSpecials } from "./link-graph-specials.ts";
import { DEFAULT_LARGE_PAGE_BYTES, PER_PAGE, SECTIONS, type Intended, type LinkGraphModel, type LinkGraphOptions, type Section } from "./link-graph-types.ts";
import { PageFactory } from "./page-factory.ts";
import { SITE_NAME, type LinkSpec, type PageModel } from "./page-model.ts";

// The link-graph site as data: a shop-and-magazine site of four sections whose listings are
// paginated (so items sit at depths 2–5), a chained handbook reaching depth 9, and the defects a
// whole-site crawl must find, placed on seeded-random pages (link-graph-specials.ts). Related
// links point only to newer items of the same section, so they never shorten a listing's depth.

// Pages besides items and listing pages 2+: home, about, contact, privacy, 4 section indexes,
// 8 handbook chapters, 4 hreflang pages, 4 private, 7 legacy, the large page, /new-a, 2 copies, 5 orphans.
const FIXED_PAGES = 40;

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const link = (page: PageModel, text = page.h1): LinkSpec => ({ href: page.path, text });

/** Deterministic for a given seed and page count. */
export function buildLinkGraphModel(opts: LinkGraphOptions = {}): LinkGraphModel {
  const total = opts.pages ?? 300;
  if (total < 150) throw new Error("linkGraphSite needs at least 150 pages for its defects to fit");
  const f = new PageFactory(new Prng(opts.seed ?? 20261101));
  const pages = new Map<string, PageModel>();
  const add = (...ps: PageModel[]) => ps.forEach((p) => pages.set(p.path, p));
  const perSection = Math.floor(((total - FIXED_PAGES + 4) * PER_PAGE) / (4 * PER_PAGE + 4));

  const items = new Map<Section, PageModel[]>();
  const indexes = new Map<Section, PageModel>();
  for (const section of SECTIONS) {
    const list: PageModel[] = [];
    for (let i = 0; i < perSection; i++) {
      const item = f.page({ prefix: `/${section}` });
      // Newer items only (lower index): a related link never leads deeper than the listing does.
      item.links = f.rng.sample(list, Math.min(i, 3)).map((p) => link(p));
      list.push(item);
    }
    items.set(section, list);
    add(...list);
    const listing = listingPages(f, section, list);
    indexes.set(section, listing[0] as PageModel);
    add(...listing);
  }

  const home = f.page({ path: "/", h1: `${SITE_NAME}: gear, guides and stories` });
  home.title = `${SITE_NAME} – gear, guides and stories`;
  home.links = SECTIONS.flatMap((s) => (items.get(s) ?? []).slice(0, 3).map((p) => link(p)));
  const about = f.page({ path: "/about", h1: `About ${SITE_NAME}` });
  const contact = f.page({ path: "/contact", h1: `Contact ${SITE_NAME}` });
  contact.canonical = null;
  contact.links = [
    { href: "tel:+10000000000", text: "Call us" },
    { href: "javascript:void(0)", text: "Open the chat" },
    { href: "/about", text: "Who we are" },
  ];
  const privacy = f.page({ path: "/privacy", h1: "Privacy notice" });
  privacy.canonical = null;
  privacy.description = null;
  add(home, about, contact, privacy);

  const handbook = Array.from({ length: 8 }, (_, i) => f.page({ path: `/guides/handbook/chapter-${i + 1}`, h1: `Handbook chapter ${i + 1}: ${f.uniquePhrase()}` }));
  handbook.forEach((chapter, i) => {
    chapter.links = [i === 0 ? { href: "/guides", text: "All guides" } : link(handbook[i - 1] as PageModel, "Previous chapter")];
    if (i + 1 < handbook.length) chapter.links.push(link(handbook[i + 1] as PageModel, "Next chapter"));
  });
  add(...handbook);
  indexes.get("guides")?.links.push(link(handbook[0] as PageModel, "The handbook"));

  const orphans = SECTIONS.flatMap((s) => (s === "blog" ? [s, s] : [s])).map((s) => f.page({ prefix: `/${s}` }));
  add(...orphans);

  const intended: Intended = { orphans: orphans.map((p) => p.path), nearPairs: [], partialPair: null, exactDuplicates: [] };
  const model: LinkGraphModel = {
    pages,
    redirects: new Map(),
    errors: new Map(),
    files: new Map(),
    robots: [
      { agents: ["*"], allow: ["/private/press-kit"], disallow: ["/private/"] },
      { agents: ["SlowBot", "ArchiveBot"], allow: [], disallow: ["/blog/"], crawlDelayS: 30 },
    ],
    sitemaps: { pages: [], posts: [] },
    intended,
  };
  addSpecials(model, f, { home, about, items, indexes, largePageBytes: opts.largePageBytes ?? DEFAULT_LARGE_PAGE_BYTES });
  const fixedPages = ["/", "/about", "/contact", "/privacy", "/guides", "/products", "/new-a", "/en/pricing", "/de/preise", "/en/shipping", "/fr/livraison", "/private/press-kit"];
  const keep = new Set(intended.orphans);
  model.sitemaps.pages.push(...sitemapPaths(f, pages, ["guides", "products"], fixedPages, keep));
  // The posts sitemap also lists a deleted post (404) and a moved one (301).
  model.sitemaps.posts.push(...sitemapPaths(f, pages, ["blog", "news"], ["/blog", "/news"], keep), "/blog/deleted-post", "/news/2023-recap");
  return model;
}

/** The section index (/blog) and its further pages (/blog/page/2, …), each linking only to its neighbours. */
function listingPages(f: PageFactory, section: Section, list: readonly PageModel[]): PageModel[] {
  const count = Math.ceil(list.length / PER_PAGE);
  const paths = Array.from({ length: count }, (_, k) => (k === 0 ? `/${section}` : `/${section}/page/${k + 1}`));
  return paths.map((path, k) => {
    const page = f.page({ path, h1: k === 0 ? cap(section) : `${cap(section)}, page ${k + 1}` });
    page.paragraphs = page.paragraphs.slice(0, 2);
    page.links = list.slice(k * PER_PAGE, (k + 1) * PER_PAGE).map((p) => link(p));
    if (k > 0) page.links.push({ href: paths[k - 1] as string, text: "Previous page" });
    if (k + 1 < count) page.links.push({ href: paths[k + 1] as string, text: "Next page" });
    // A classic mistake: every further page of the news listing names the first as canonical.
    if (k > 0 && section === "news") page.canonical = "/news";
    return page;
  });
}

/**
 * What a sitemap lists: the given fixed paths, then the sections' item and handbook pages with
 * about one in sixteen left out (pages a site forgot; never one of `keep`), in path order.
 */
function sitemapPaths(f: PageFactory, pages: ReadonlyMap<string, PageModel>, sections: readonly Section[], fixed: readonly string[], keep: ReadonlySet<string>): string[] {
  const inSection = [...pages.keys()]
    .filter((p) => sections.some((s) => p.startsWith(`/${s}/`)) && !/\/page\/\d+$/.test(p) && !p.endsWith("-copy") && !p.startsWith("/guides/complete"))
    .sort();
  return [...fixed, ...inSection.filter((p) => f.rng.next() >= 1 / 16 || keep.has(p))];
}
