import { analyzeCrawlFacts, crawlFactsOf } from "../../analyzer/index.ts";
import { HttpResponse } from "../../proto/index.ts";
import { crawledPage, type PageInput } from "./crawled-page.ts";

/**
 * Warming a parse thread up before it takes work. A fresh thread parses its first few dozen pages
 * two to three times slower than later ones (V8 interprets, then compiles the hot paths); a crawl
 * that started on fresh threads paid that inside the job, once per thread. The pages here are
 * generated, not taken from any site: they carry what real pages carry (head metadata, hreflang,
 * JSON-LD, navigation of relative, absolute, external and nofollow links, headings, entities,
 * images, tables, code) so that the code paths a crawl runs are the ones compiled; the whole-crawl
 * analysis a crawl ends with runs over them too. Each feature is present on some pages and absent
 * on others: V8 compiles for what it has seen, and code that only ever saw, say, pages with
 * hreflang alternates deoptimised on every page of a site without any (226 times in one crawl).
 */
const ORIGIN = "http://warm-up.invalid";
const SECTIONS = ["library", "reference", "tutorial", "howto", "faq", "using", "whatsnew", "c-api"];
const WORDS = (
  "the of and to in is that for it as with was on be by this are from or at an which but not have has can " +
  "function module object value return string list type class method argument default error file data name"
).split(" ");

/** The i-th generated page: about 40 KB of HTML, different text, links and features for every i. */
export function warmUpPage(i: number): PageInput {
  const section = SECTIONS[i % SECTIONS.length]!;
  const has = (every: number, offset = 0) => i % every === offset;
  const url = `${ORIGIN}/${section}/page-${i}.html`;
  const word = (k: number) => WORDS[(k * 7 + i * 13) % WORDS.length]!;
  const sentence = (k: number, n: number) => Array.from({ length: n }, (_, j) => word(k + j)).join(" ");
  const nav = Array.from({ length: 120 }, (_, k) => {
    const target = SECTIONS[k % SECTIONS.length]!;
    if (k % 17 === 0 && !has(3, 2)) return `<li><a href="https://example.org/${target}/${k}" rel="nofollow noopener">${sentence(k, 3)}</a></li>`;
    if (k % 23 === 0 && has(4, 1)) return `<li><a href="../${target}/private.html" rel="nofollow">${word(k)}</a></li>`;
    if (k % 11 === 0) return `<li><a href="#section-${k}">¶ ${word(k)}</a></li>`;
    if (k % 5 === 0) return `<li><a href="${ORIGIN}/${target}/page-${(i + k) % 500}.html?ref=nav&amp;utm_source=x">${sentence(k, 2)}</a></li>`;
    return `<li class="toctree-l${(k % 3) + 1}"><a class="reference internal" href="../${target}/page-${(i * 3 + k) % 500}.html#s${k}"><span class="pre">${word(k)}()</span> &mdash; ${sentence(k, 4)}</a></li>`;
  }).join("\n");
  const body = Array.from({ length: 24 }, (_, k) => {
    const id = `section-${k}`;
    const heading = `<h${(k % 3) + 2} id="${id}">${sentence(k, 5)}<a class="headerlink" href="#${id}" title="Link to this heading">¶</a></h${(k % 3) + 2}>`;
    const text = Array.from({ length: 3 }, (_, p) => `<p>${sentence(k * 3 + p, 40)} &amp; <em>${word(p)}</em> &lt;${word(k)}&gt; &#8212; <code class="docutils literal">${word(k + p)}.${word(p)}()</code>.</p>`).join("");
    const code = `<div class="highlight"><pre><span class="n">${word(k)}</span> <span class="o">=</span> <span class="mi">${k}</span>\n<span class="k">return</span> ${word(k + 1)}</pre></div>`;
    const figure = k % 4 === 0 && !has(2, 1) ? `<img src="../_images/fig-${k}.png" alt="${k % 8 === 0 ? "" : sentence(k, 3)}" width="640" height="480" loading="lazy">` : "";
    const table = k % 6 === 0 && !has(3, 1) ? `<table class="docutils"><thead><tr><th>${word(k)}</th><th>${word(k + 1)}</th></tr></thead><tbody><tr><td>${sentence(k, 6)}</td><td><a href="../${section}/page-${k}.html">${word(k)}</a></td></tr></tbody></table>` : "";
    return `<section id="s${k}">${heading}${text}${code}${figure}${table}</section>`;
  }).join("\n");
  const html = `<!DOCTYPE html>
<html${has(7, 6) ? "" : ' lang="en"'} data-content_root="../">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${sentence(i, 6)} &#8212; Warm-up ${i}</title>
${has(5, 2) ? "" : `<meta name="description" content="${sentence(i + 1, 20)}">`}
${has(10, 9) ? '<meta name="robots" content="noindex, follow">' : has(2) ? '<meta name="robots" content="index, follow">' : ""}
${has(2, 1) ? "" : `<meta property="og:title" content="${sentence(i, 4)}"><meta property="og:type" content="website">`}
${has(4, 1) ? "" : `<link rel="canonical" href="${has(8, 3) ? `${ORIGIN}/${section}/` : url}">`}
${has(3) ? `<link rel="alternate" hreflang="en" href="${url}"><link rel="alternate" hreflang="fr" href="${ORIGIN}/fr/${section}/page-${i}.html"><link rel="alternate" hreflang="x-default" href="${url}">` : ""}
<link rel="stylesheet" href="../_static/pygments.css?v=${i}" type="text/css"><link rel="icon" href="../_static/favicon.png">
<script src="../_static/documentation_options.js?v=${i}"></script><script defer src="https://cdn.example.org/lib.js" integrity="sha384-x" crossorigin="anonymous"></script>
${has(2) ? `<script type="application/ld+json">{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"${section}","item":"${ORIGIN}/${section}/"}]}</script>` : ""}
<style>.warm-${i} { color: #333; }</style>
</head>
<body>
<div class="related" role="navigation" aria-label="Related"><ul>${nav}</ul></div>
<main><h1>${sentence(i, 5)}</h1>
${body}
${has(3, 1) ? "" : `<form action="/search.html" method="get"><input type="text" name="q" aria-label="Search"><input type="submit" value="Go"></form>`}
</main>
<footer><p>&copy; Warm-up. <a href="mailto:docs@example.org">docs</a> <a href="javascript:void(0)">top</a> <a href="tel:+100">call</a></p></footer>
<script>var DOCUMENTATION_OPTIONS = { VERSION: "${i}" };</script>
</body></html>`;
  return {
    url,
    depth: 1 + (i % 4),
    html,
    originHost: "warm-up.invalid",
    origin: ORIGIN,
    site: "warm-up.invalid",
    checkedAt: 1_700_000_000,
    response: HttpResponse.fromPartial({
      requestedUrl: url,
      finalUrl: url,
      status: 200,
      headers: [
        { name: "server", value: "nginx" },
        { name: "date", value: "Tue, 14 Nov 2023 22:13:20 GMT" },
        { name: "content-type", value: "text/html; charset=utf-8" },
        { name: "content-length", value: String(html.length) },
        { name: "last-modified", value: "Mon, 13 Nov 2023 10:00:00 GMT" },
        { name: "etag", value: `"${i.toString(16)}-${html.length.toString(16)}"` },
        { name: "cache-control", value: "max-age=600" },
        { name: "accept-ranges", value: "bytes" },
      ],
      contentType: "text/html",
      charset: "utf-8",
      bodyBytes: html.length,
      wireBytes: html.length,
      // Fractional, as measured ones are (rounded to 0.1 ms): V8 keeps a field's number representation.
      ttfbMs: 3.7 + (i % 7) / 10,
      totalMs: 5.3 + (i % 5) / 10,
    }),
  };
}

/**
 * Runs `pages` generated pages through the page path a crawl runs (crawledPage), then the
 * whole-crawl analysis over them; returns how many links the pages held. On a parse thread
 * (`threaded`) the inputs are made what the thread receives, structured clones with the body as
 * bytes: V8 compiles for the object shapes it has seen, and a clone's differ from a built message's.
 */
export function warmUp(pages: number, threaded = false): number {
  if (pages <= 0) return 0;
  const received = <T>(input: T): T => (threaded ? structuredClone(input) : input);
  const crawled = Array.from({ length: pages }, (_, i) => {
    const page = warmUpPage(i);
    return crawledPage(threaded ? received({ ...page, html: "", body: new TextEncoder().encode(page.html) }) : page);
  });
  const external = [...new Set(crawled.flatMap((p) => p.externalLinks.map((l) => l.href)))].map((url) => ({ url, status: 0, error: "" }));
  analyzeCrawlFacts(received({
    jobId: 0,
    crawledAt: 1_700_000_000,
    facts: crawlFactsOf(crawled),
    sitemapUrls: crawled.slice(0, 5).map((p) => p.url),
    truncatedBy: "",
    traps: [],
    external,
    politeness: { delayMs: 0, connections: 1, throttled: 0, retryAfterWaitS: 0 },
    durationMs: 1,
  }));
  return crawled.reduce((n, p) => n + p.internalLinks.length + p.externalLinks.length, 0);
}
