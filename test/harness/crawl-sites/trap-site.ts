import { Prng } from "./generated-text.ts";
import { PageFactory } from "./page-factory.ts";
import { renderPage, type LinkSpec, type PageModel } from "./page-model.ts";
import type { CrawlSite, Route } from "./serve-crawl-site.ts";
import { SMALL_CHROME, smallPages, smallSiteRoutes } from "./small-site.ts";

// A small site with crawler traps: URL families with no end, each entered from one normal page.
// Every trap page is a pure function of its URL (text seeded by a hash of it), so the site is
// deterministic however deep a crawler goes.

export type TrapFamilyName = "calendar" | "search-repeat" | "page-id" | "session-id";

export interface TrapFamily {
  readonly name: TrapFamilyName;
  /** The family's URL a normal page links to. */
  readonly entry: string;
  /** The normal page linking to `entry`. */
  readonly linkedFrom: string;
  /** Matches the family's URLs by path and query. */
  readonly pattern: RegExp;
  readonly description: string;
}

export interface TrapManifest {
  readonly origin: string;
  /** The pages that are no trap, all reachable from `/` without entering one; sorted. */
  readonly normalPages: string[];
  readonly families: TrapFamily[];
  /** The trap family a URL belongs to, or null for a normal URL. */
  familyOf(url: string): TrapFamilyName | null;
}

export interface TrapSite {
  readonly site: CrawlSite;
  manifest(origin: string): TrapManifest;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** FNV-1a of a string as 8 hex digits: a session id that looks random and is not. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

const FAMILIES: readonly Omit<TrapFamily, "entry">[] = [
  { name: "session-id", linkedFrom: "/contact", pattern: /[?&]sid=/, description: "every page links onwards with a new session id" },
  { name: "calendar", linkedFrom: "/events", pattern: /^\/calendar\/\d+\/\d+$/, description: "each month links to the next and the previous one, forever" },
  { name: "search-repeat", linkedFrom: "/help", pattern: /^\/search\?/, description: "each result page links to its own query with one more q=a" },
  { name: "page-id", linkedFrom: "/blog", pattern: /^\/page\?id=\d+$/, description: "/page?id=N links to /page?id=N+1" },
];

const ENTRIES: Record<TrapFamilyName, string> = {
  "session-id": `/shop?sid=${fnv("/contact")}`,
  calendar: "/calendar/2026/11",
  "search-repeat": "/search?q=a",
  "page-id": "/page?id=1",
};

/** A page for a trap URL: text seeded by the URL, the given links. */
function trapPage(target: string, h1: string, links: LinkSpec[], origin: string): Route {
  const page: PageModel = new PageFactory(new Prng(parseInt(fnv(target), 16))).page({ path: target, h1, links });
  page.paragraphs = page.paragraphs.slice(0, 1);
  return { body: renderPage(page, origin, SMALL_CHROME) };
}

function trapRoute(url: URL, origin: string): Route | undefined {
  const target = url.pathname + url.search;
  const sid = url.searchParams.get("sid");
  if (sid !== null) {
    return trapPage(target, "Your basket", [
      { href: `/shop?sid=${fnv(`${sid}/1`)}`, text: "Continue shopping" },
      { href: `/products?sid=${fnv(`${sid}/2`)}`, text: "All products" },
    ], origin);
  }
  const month = /^\/calendar\/(\d+)\/(\d+)$/.exec(url.pathname);
  if (month && url.search === "") {
    const [y, m] = [Number(month[1]), Number(month[2])];
    if (y < 1 || m < 1 || m > 12) return undefined;
    const links: LinkSpec[] = [{ href: "/events", text: "All events" }];
    if (y > 1 || m > 1) links.push({ href: m === 1 ? `/calendar/${y - 1}/12` : `/calendar/${y}/${m - 1}`, text: "Previous month" });
    links.push({ href: m === 12 ? `/calendar/${y + 1}/1` : `/calendar/${y}/${m + 1}`, text: "Next month" });
    return trapPage(target, `Events in ${MONTHS[m - 1]} ${y}`, links, origin);
  }
  const q = url.searchParams.getAll("q");
  if (url.pathname === "/search" && q.length > 0) return trapPage(target, `Results for ${q.join(" ")}`, [{ href: `${target}&q=a`, text: "Refine this search" }], origin);
  const id = url.pathname === "/page" ? /^\?id=(\d+)$/.exec(url.search) : null;
  if (id && Number(id[1]) >= 1) return trapPage(target, `Item ${id[1]}`, [{ href: `/page?id=${Number(id[1]) + 1}`, text: "Next item" }], origin);
  return undefined;
}

/** Ten normal pages and four trap families. */
export function trapSite(): TrapSite {
  const pages = smallPages(7, ["/about", "/contact", "/help", "/events", "/blog", "/blog/first-post", "/blog/second-post", "/products"]);
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const sorted = new PageFactory(new Prng(8)).page({ path: "/products?sort=price", h1: "Products by price" });
  byPath.get("/products")?.links.push({ href: sorted.path, text: "Sort by price" });
  byPath.get("/blog")?.links.push({ href: "/blog/first-post", text: "First post" }, { href: "/blog/second-post", text: "Second post" });
  for (const family of FAMILIES) byPath.get(family.linkedFrom)?.links.push({ href: ENTRIES[family.name], text: `Explore ${family.name}` });
  const normal = [...pages, sorted];
  return {
    site: { name: "traps", routes: (origin) => smallSiteRoutes(normal, origin), handle: (req, origin) => trapRoute(req.url, origin) },
    manifest: (origin) => ({
      origin,
      normalPages: normal.map((p) => new URL(p.path, origin).href).sort(),
      families: FAMILIES.map((f) => ({ ...f, entry: new URL(ENTRIES[f.name], origin).href, linkedFrom: new URL(f.linkedFrom, origin).href })),
      familyOf: (url) => {
        const u = new URL(url, origin);
        return FAMILIES.find((f) => f.pattern.test(u.pathname + u.search))?.name ?? null;
      },
    }),
  };
}
