import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectSitemaps, createEgress, fetchUrl, parseSitemap, type Egress } from "../../../crawler/index.ts";
import { startHttp, type TestServer } from "./servers.ts";

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const urlset = (locs: string[], ns = NS) => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${ns}">${locs.map((l) => `<url><loc>${l}</loc><lastmod>2026-01-01</lastmod></url>`).join("")}</urlset>`;
const index = (locs: string[]) => `<?xml version="1.0"?><sitemapindex xmlns="${NS}">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join("")}</sitemapindex>`;

describe("collectSitemaps", () => {
  let server: TestServer;
  let egress: Egress;
  let origin: string;
  let host: string;
  beforeAll(async () => {
    server = await startHttp((req, res) => {
      const o = server.origin;
      const routes: Record<string, () => void> = {
        "/sitemap_index.xml": () => res.end(index([`${o}/pages.xml.gz`, `${o}/posts.xml`, `${o}/missing.xml`])),
        "/pages.xml.gz": () => res.writeHead(200, { "content-type": "application/gzip" }).end(gzipSync(urlset([`${o}/a`, `${o}/b`, `${o}/c`]))),
        "/posts.xml": () => res.end(urlset([`${o}/post/1`, `/relative`, `https://elsewhere.example/x`])),
        "/big-index.xml": () => res.end(index(Array.from({ length: 7 }, (_, i) => `${o}/child${i}.xml`))),
      };
      const route = routes[req.url ?? ""];
      if (route) return route();
      if (req.url?.startsWith("/child")) return void res.end(urlset([`${o}${req.url}#page`]));
      res.writeHead(404).end("not here");
    });
    origin = server.origin;
    host = new URL(origin).host;
    egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await egress.close();
    await server.close();
  });
  const fetch = (url: string) => fetchUrl(url, { dispatcher: egress.dispatcher, timeoutMs: 3000 });

  it("follows an index to its children, gunzips by magic bytes and lists problems", async () => {
    const facts = await collectSitemaps([`${origin}/sitemap_index.xml`], fetch, { siteHost: host });
    expect(facts.map((f) => ({ ...f, response: f.response?.status }))).toEqual([
      {
        url: `${origin}/sitemap_index.xml`,
        response: 200,
        valid: true,
        isIndex: true,
        urlCount: 3,
        sampleUrls: [`${origin}/pages.xml.gz`, `${origin}/posts.xml`, `${origin}/missing.xml`],
        problems: [],
        gzip: false,
      },
      { url: `${origin}/pages.xml.gz`, response: 200, valid: true, isIndex: false, urlCount: 3, sampleUrls: [`${origin}/a`, `${origin}/b`, `${origin}/c`], problems: [], gzip: true },
      {
        url: `${origin}/posts.xml`,
        response: 200,
        valid: false,
        isIndex: false,
        urlCount: 3,
        sampleUrls: [`${origin}/post/1`],
        problems: ["relative_loc: 1 (first: /relative)", "other_host: 1 (first: https://elsewhere.example/x)"],
        gzip: false,
      },
      { url: `${origin}/missing.xml`, response: 404, valid: false, isIndex: false, urlCount: 0, sampleUrls: [], problems: ["http_status: 404"], gzip: false },
    ]);
  });

  it("fetches at most five children of an index", async () => {
    const facts = await collectSitemaps([`${origin}/big-index.xml`], fetch, { siteHost: host });
    expect(facts.map((f) => f.url)).toEqual([`${origin}/big-index.xml`, ...[0, 1, 2, 3, 4].map((i) => `${origin}/child${i}.xml`)]);
    expect(facts[0]?.urlCount).toBe(7);
  });
});

describe("parseSitemap", () => {
  const host = "example.com";

  it("refuses a body that is not XML", async () => {
    const { facts } = await parseSitemap("https://example.com/sitemap.xml", Buffer.from("<!doctype html><html><body>Home</body></html>"), host);
    expect(facts).toMatchObject({ valid: false, urlCount: 0, problems: ["not_xml: the body is not an XML document"] });
    const text = await parseSitemap("https://example.com/sitemap.xml", Buffer.from("just text"), host);
    expect(text.facts.problems).toEqual(["not_xml: the body is not an XML document"]);
  });

  it("reports a wrong namespace", async () => {
    const { facts } = await parseSitemap("https://example.com/s.xml", Buffer.from(urlset(["https://example.com/"], "http://www.google.com/schemas/sitemap/0.84")), host);
    expect(facts).toMatchObject({ valid: false, urlCount: 1, problems: ['wrong_namespace: "http://www.google.com/schemas/sitemap/0.84"'] });
  });

  it("accepts a prefixed root in the right namespace", async () => {
    const xml = `<sm:urlset xmlns:sm="${NS}"><sm:url><sm:loc>https://example.com/p</sm:loc></sm:url></sm:urlset>`;
    const { facts } = await parseSitemap("https://example.com/s.xml", Buffer.from(xml), host);
    expect(facts).toMatchObject({ valid: true, urlCount: 1, sampleUrls: ["https://example.com/p"], problems: [] });
  });

  it("counts more than 50 000 URLs as a problem and keeps 50 samples", async () => {
    const locs = Array.from({ length: 50_001 }, (_, i) => `https://example.com/p${i}`);
    const { facts } = await parseSitemap("https://example.com/s.xml", Buffer.from(urlset(locs)), host);
    expect(facts.urlCount).toBe(50_001);
    expect(facts.valid).toBe(false);
    expect(facts.problems).toEqual(["too_many_urls: 50001"]);
    expect(facts.sampleUrls).toHaveLength(50);
    expect(facts.sampleUrls[49]).toBe("https://example.com/p49");
  });
});
