import { gzipSync } from "node:zlib";
import { SITEMAP_INDEX, SITEMAP_PAGES, SITEMAP_POSTS, type LinkGraphModel } from "./link-graph-types.ts";
import { esc, renderPage, type PageModel } from "./page-model.ts";
import { robotsTxt } from "./robots-rules.ts";
import { HTML_TYPE, type Route } from "./serve-crawl-site.ts";

// The link-graph model rendered for one origin: every page, redirect, error, file, robots.txt and
// the sitemaps, as the routes serveCrawlSite answers from.

export interface RenderedSite {
  readonly routes: Map<string, Route>;
  /** The page each HTML route key (path or alias) serves. */
  readonly pageByKey: ReadonlyMap<string, PageModel>;
}

const TEXT_TYPE = "text/plain; charset=utf-8";
const XML_TYPE = "application/xml; charset=utf-8";
const LASTMOD = "2026-10-01";
const STATUS_TEXT: Record<number, string> = { 301: "Moved Permanently", 302: "Found", 307: "Temporary Redirect", 308: "Permanent Redirect", 410: "Gone", 500: "Internal Server Error" };

function errorPage(status: number): string {
  const text = STATUS_TEXT[status] ?? "Error";
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${status} ${text}</title></head><body><h1>${text}</h1><p><a href="/">Home</a></p></body></html>\n`;
}

function urlset(paths: readonly string[], origin: string): string {
  const entries = paths.map((p) => `  <url><loc>${esc(origin + p)}</loc><lastmod>${LASTMOD}</lastmod></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

function sitemapIndex(paths: readonly string[], origin: string): string {
  const entries = paths.map((p) => `  <sitemap><loc>${esc(origin + p)}</loc><lastmod>${LASTMOD}</lastmod></sitemap>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}

export function renderLinkGraph(model: LinkGraphModel, origin: string): RenderedSite {
  const routes = new Map<string, Route>();
  const pageByKey = new Map<string, PageModel>();
  for (const page of model.pages.values()) {
    const route: Route = { type: HTML_TYPE, body: renderPage(page, origin) };
    for (const key of [page.path, ...page.aliases]) {
      routes.set(key, route);
      pageByKey.set(key, page);
    }
  }
  for (const [path, r] of model.redirects) {
    const location = r.absolute ? origin + r.location : r.location;
    routes.set(path, { status: r.status, headers: { location }, body: errorPage(r.status).replace("<p>", `<p><a href="${esc(location)}">${esc(location)}</a> `) });
  }
  for (const [path, status] of model.errors) routes.set(path, { status, body: errorPage(status) });
  for (const [path, file] of model.files) routes.set(path, { type: file.type, body: file.body });
  routes.set("/robots.txt", { type: TEXT_TYPE, body: robotsTxt(model.robots, origin) });
  routes.set(SITEMAP_INDEX, { type: XML_TYPE, body: sitemapIndex([SITEMAP_PAGES, SITEMAP_POSTS], origin) });
  routes.set(SITEMAP_PAGES, { type: XML_TYPE, body: urlset(model.sitemaps.pages, origin) });
  // A .xml.gz file is gzip data (no Content-Encoding): the client unzips it, not the HTTP layer.
  routes.set(SITEMAP_POSTS, { type: "application/gzip", body: gzipSync(urlset(model.sitemaps.posts, origin)) });
  routes.set("/assets/site.css", { type: "text/css; charset=utf-8", body: "body{font-family:system-ui,sans-serif;margin:0 auto;max-width:72rem;line-height:1.6}\n" });
  return { routes, pageByKey };
}
