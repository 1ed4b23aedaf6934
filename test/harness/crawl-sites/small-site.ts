import { Prng } from "./generated-text.ts";
import { PageFactory } from "./page-factory.ts";
import { esc, renderPage, type Chrome, type LinkSpec, type PageModel } from "./page-model.ts";
import { HTML_TYPE, type Route } from "./serve-crawl-site.ts";

// The plain part of the small fixture sites (throttling, traps): a handful of generated pages
// with a one-link header, robots.txt allowing everything, and a sitemap of the pages.

export const SMALL_CHROME: Chrome = { siteName: "Fixture Shop", nav: [{ href: "/", text: "Fixture Shop" }], footer: [] };

/** `/` and a page at each of `paths`, all linked from `/`. */
export function smallPages(seed: number, paths: readonly string[]): PageModel[] {
  const f = new PageFactory(new Prng(seed));
  const pages = paths.map((path) => f.page({ path }));
  const home = f.page({ path: "/", links: pages.map((p): LinkSpec => ({ href: p.path, text: p.h1 })) });
  for (const p of [home, ...pages]) p.paragraphs = p.paragraphs.slice(0, 2);
  return [home, ...pages];
}

/** Routes for the pages, /robots.txt (allow all) and /sitemap.xml listing the pages. */
export function smallSiteRoutes(pages: readonly PageModel[], origin: string): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const p of pages) routes.set(p.path, { type: HTML_TYPE, body: renderPage(p, origin, SMALL_CHROME) });
  routes.set("/robots.txt", { type: "text/plain; charset=utf-8", body: `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n` });
  const locs = pages.map((p) => `  <url><loc>${esc(origin + p.path)}</loc></url>`).join("\n");
  routes.set("/sitemap.xml", {
    type: "application/xml; charset=utf-8",
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs}\n</urlset>\n`,
  });
  return routes;
}
