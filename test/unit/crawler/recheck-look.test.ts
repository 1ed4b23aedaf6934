import { describe, expect, it } from "vitest";
import { analyzeSite } from "../../../analyzer/index.ts";
import type { FetchResult } from "../../../crawler/fetch/fetch-page.ts";
import { extractPage } from "../../../crawler/page/extract.ts";
import { lookUrls, RECHECK_MAX_PAGES, recheckLook } from "../../../crawler/site/recheck-look.ts";
import { HttpResponse } from "../../../proto/index.ts";

// Issue 18 §1: a re-check's robots and pages looks fetch only what the task's check reads, through
// the crawler's own parsers (robots.txt, sitemaps, pages), and nothing else.

const ORIGIN = "https://shop.example";

function served(files: Record<string, { type: string; body: string }>): { fetch: (url: string) => Promise<FetchResult>; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (url) => {
      asked.push(url);
      const file = files[new URL(url).pathname];
      const body = Buffer.from(file?.body ?? "not found");
      const response = HttpResponse.fromPartial({ requestedUrl: url, finalUrl: url, status: file ? 200 : 404, contentType: file?.type ?? "text/plain", bodyBytes: body.length });
      return { response, body, text: body.toString("utf8") };
    },
  };
}

const html = (title: string) => `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
const parse = async (input: Parameters<typeof extractPage>[0]) => extractPage(input);

describe("recheckLook", () => {
  it("bounds the pages to the origin's, each once, at most RECHECK_MAX_PAGES", () => {
    const many = Array.from({ length: 15 }, (_, i) => `${ORIGIN}/p${i}`);
    expect(lookUrls(ORIGIN, [`${ORIGIN}/a#x`, `${ORIGIN}/a`, "https://elsewhere.example/b", "not a url", `${ORIGIN}/c`])).toEqual([`${ORIGIN}/a`, `${ORIGIN}/c`]);
    expect(lookUrls(ORIGIN, many)).toEqual(many.slice(0, RECHECK_MAX_PAGES));
    expect(RECHECK_MAX_PAGES).toBe(10);
  });

  it("robots look: robots.txt, the sitemap it names and the home page, parsed as the analysis parses them", async () => {
    const site = served({
      "/robots.txt": { type: "text/plain", body: `User-agent: *\nDisallow: /cart\nSitemap: ${ORIGIN}/map.xml\n` },
      "/map.xml": { type: "application/xml", body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${ORIGIN}/</loc></url><url><loc>${ORIGIN}/cart/1</loc></url></urlset>` },
      "/": { type: "text/html", body: html("Home") },
    });
    const facts = await recheckLook({ host: "shop.example", origin: ORIGIN, robots: true, urls: [], checkedAt: 1_700_000_000 }, { fetch: site.fetch, parse });
    expect(site.asked).toEqual([`${ORIGIN}/robots.txt`, `${ORIGIN}/map.xml`, `${ORIGIN}/`]);
    expect(facts.robots?.sitemaps).toEqual([`${ORIGIN}/map.xml`]);
    expect(facts.sitemaps.map((s) => [s.url, s.valid, s.urlCount])).toEqual([[`${ORIGIN}/map.xml`, true, 2]]);
    expect(facts.home?.title).toBe("Home");
    expect(facts.pages).toEqual([]);
    // What the analyzer makes of it: the sitemap lists a URL robots.txt disallows.
    const items = analyzeSite(facts).items;
    expect(items.find((i) => i.code === "sitemap_in_robots")?.status).toBe("pass");
    expect(items.find((i) => i.code === "sitemap_blocked_urls")).toMatchObject({ status: "fail", pages: [`${ORIGIN}/cart/1`] });
  });

  it("pages look: only the named pages, the home page as the home page", async () => {
    const site = served({ "/": { type: "text/html", body: html("Home") }, "/a": { type: "text/html", body: html("A") } });
    const facts = await recheckLook({ host: "shop.example", origin: ORIGIN, robots: false, urls: [`${ORIGIN}/a`, `${ORIGIN}/`, "https://elsewhere.example/"], checkedAt: 1 }, { fetch: site.fetch, parse });
    expect(site.asked).toEqual([`${ORIGIN}/a`, `${ORIGIN}/`]);
    expect([facts.home?.title, facts.pages.map((p) => p.title), facts.robots, facts.sitemaps]).toEqual(["Home", ["A"], undefined, []]);
  });
});
