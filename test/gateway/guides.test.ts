import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHECKS, escapeHtml, GUIDES } from "../../analyzer/index.ts";
import { buildOpsServer } from "../../runtime/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// The guide pages (GET /guides, GET /guides/{id}) and the guide of GET /explain/{code}: public
// Russian HTML at the service's origin, outside /api/v1, one section per check.

let gw: TestGateway;
beforeAll(async () => {
  // Every code is explained once below: more requests than a new key's default hourly limit (120).
  gw = await startTestGateway({ env: { SVC_RATE_PER_HOUR: "1000" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const HOST = { host: "svc.example.net" };
const page = (path: string) => gw.call("GET", path, { key: null, headers: HOST });

describe("GET /explain/{code} → the guide page", () => {
  it("gives every check a guide whose address serves a page with the check's section and heading", async () => {
    const pages = new Map<string, string>();
    for (const c of CHECKS) {
      const res = await gw.call("GET", `/api/v1/explain/${c.code}`, { headers: HOST });
      expect(res.statusCode, c.code).toBe(200);
      const guide = res.json().guide as { id: string; title: string; url: string };
      const expected = GUIDES.find((g) => g.sections.some((s) => s.code === c.code));
      expect(guide, c.code).toEqual({ id: expected?.id, title: expected?.title, url: `http://svc.example.net/guides/${expected?.id}#${c.code}` });
      const url = new URL(guide.url);
      let html = pages.get(url.pathname);
      if (html === undefined) {
        const served = await page(url.pathname);
        expect(served.statusCode, url.pathname).toBe(200);
        expect(served.headers["content-type"]).toBe("text/html; charset=utf-8");
        html = served.body;
        pages.set(url.pathname, html);
      }
      const heading = expected?.sections.find((s) => s.code === c.code)?.heading ?? "";
      expect(html, c.code).toContain(`<section id="${url.hash.slice(1)}">\n<h2>${escapeHtml(heading)}</h2>`);
    }
    expect(pages.size).toBe(GUIDES.length);
  });

  it("uses SVC_PUBLIC_BASE_URL as the guide's origin when it is set", async () => {
    const other = await startTestGateway({ env: { SVC_PUBLIC_BASE_URL: "https://svc.example.com" } });
    try {
      const res = await other.call("GET", "/api/v1/explain/title_length", { headers: HOST });
      expect(res.json().guide).toEqual({
        id: "titles-and-descriptions",
        title: "Заголовки и описания страниц (title и meta description)",
        url: "https://svc.example.com/guides/titles-and-descriptions#title_length",
      });
      expect(other.violations).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe("GET /guides/{id}", () => {
  it("answers a Russian HTML page without a key, with headers that let it load nothing", async () => {
    const res = await page("/guides/robots-txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.body.startsWith('<!DOCTYPE html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">')).toBe(true);
    expect(res.body).toContain("<title>Файл robots.txt — руководства Svc</title>");
    expect(res.body).toContain("<h1>Файл robots.txt</h1>");
    expect(res.body).toContain('<li><a href="#robots_blocks_all">robots.txt не закрывает весь сайт</a> <code>robots_blocks_all</code></li>');
    expect(res.body).not.toContain("<script");
  });

  it("escapes headings, prose and code samples", async () => {
    const basics = (await page("/guides/html-basics")).body;
    expect(basics).toContain('<section id="doctype">\n<h2>Страницы начинаются с &lt;!DOCTYPE html&gt;</h2>');
    expect(basics).not.toContain("<h2>Страницы начинаются с <!DOCTYPE html></h2>");
    expect(basics).toContain("<pre><code>&lt;head&gt;\n  &lt;meta charset=&quot;utf-8&quot;&gt;\n  &lt;title&gt;...&lt;/title&gt;</code></pre>");
    const headings = (await page("/guides/headings")).body;
    expect(headings).toContain("<pre><code>&lt;?php if ($block-&gt;title !== &#39;&#39;): ?&gt;\n  &lt;h2&gt;&lt;?= htmlspecialchars($block-&gt;title) ?&gt;&lt;/h2&gt;\n&lt;?php endif; ?&gt;</code></pre>");
    expect(headings).toContain(".filter((h) =&gt; !h.textContent.trim() &amp;&amp; !h.querySelector(&#39;img[alt]:not([alt=&quot;&quot;])&#39;))</code></pre>");
    expect(headings).toContain("<p>Заголовки <code>&lt;h1&gt;</code>–<code>&lt;h6&gt;</code> — оглавление страницы.");
  });

  it("answers the API's not_found for an unknown guide", async () => {
    for (const path of ["/guides/no-such-guide", "/guides/toString", "/guides/robots-txt/extra"]) {
      const res = await page(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.json(), path).toMatchObject({ code: "not_found" });
    }
  });

  it("counts the pages by route template in the metrics, never by id", async () => {
    await page("/guides/sitemaps");
    await page("/guides/no-such-guide");
    const ops = buildOpsServer({ metrics: gw.deps.metrics, ready: async () => ({ ok: true, detail: {} }) });
    const text = (await ops.inject({ method: "GET", url: "/metrics" })).body;
    expect(text).toMatch(/svc_http_requests_total\{method="GET",route="\/guides\/\{id\}",status="200"\} \d+/);
    expect(text).toMatch(/svc_http_requests_total\{method="GET",route="\/guides\/\{id\}",status="404"\} \d+/);
    expect(text).not.toContain("no-such-guide");
  });
});

describe("GET /guides", () => {
  it("lists every guide with a link to its page and to each of its sections", async () => {
    const res = await page("/guides");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body).toContain('<html lang="ru">');
    expect(res.body).toContain("<h1>Руководства Svc</h1>");
    expect(res.body).toContain(`<p>Руководств: ${GUIDES.length}, проверок в них: 119.</p>`);
    for (const g of GUIDES) {
      expect(res.body, g.id).toContain(`<a href="/guides/${g.id}">${escapeHtml(g.title)}</a>`);
      for (const s of g.sections) expect(res.body, s.code).toContain(`<a href="/guides/${g.id}#${s.code}">${escapeHtml(s.heading)}</a>`);
    }
    expect((await page("/guides/")).body).toBe(res.body);
  });
});
