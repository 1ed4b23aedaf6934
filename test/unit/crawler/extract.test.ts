import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { HttpResponse } from "../../../proto/index.ts";
import { detectTechnologies, extractPage } from "../../../crawler/index.ts";

const URL_ = "https://shop.example/catalog/item?id=7";

const FIXTURE = `<!DOCTYPE html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title> Blue  Widget | Shop </title>
  <meta name="description" content="A blue widget.">
  <meta name="Description" content="Second description">
  <meta name="robots" content="NoIndex, follow">
  <meta name="googlebot" content="nosnippet">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="generator" content="WordPress 6.4.2">
  <meta property="og:title" content="Blue Widget">
  <meta property="og:image" content="https://cdn.example/w.png">
  <meta name="twitter:card" content="summary_large_image">
  <link rel="canonical" href="/catalog/item">
  <link rel="alternate" hreflang="de" href="https://shop.example/de/item">
  <link rel="alternate" hreflang="x-default" href="/catalog/item">
  <link rel="shortcut icon" href="/favicon.png">
  <link rel="stylesheet" href="http://cdn.example/site.css">
  <link rel="stylesheet" href="/print.css" media="print">
  <script src="/wp-includes/js/jquery/jquery.min.js"></script>
  <script src="/app.js" defer></script>
  <script type="module" src="/mod.js"></script>
  <script async src="https://www.googletagmanager.com/gtm.js?id=GTM-1"></script>
  <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Shop"},{"@type":["Product","Thing"],"name":"W"}]}</script>
  <script type="application/ld+json">{"@type": "Broken",}</script>
  <style>body { color: blue }</style>
</head>
<body>
  <meta name="description" content="late">
  <header id="top"><a href="/">Home</a> <a href="https://other.example/x#frag" rel="nofollow noopener">Partner</a></header>
  <h1>Blue <em>Widget</em></h1>
  <div id="top" itemscope itemtype="https://schema.org/Offer">
    <p>Only <b>9</b> euros. Ünïcode wörds count too.</p>
    <h2>Details <a href="#specs">specs</a></h2>
    <img src="/w.jpg" alt="A widget" width="640" height="480" loading="lazy">
    <img src="http://cdn.example/pixel.gif">
    <a href="/catalog/other#top"><img src="/t.png" alt="Other widget"></a>
    <svg><title>icon</title><text>svgtext</text></svg>
    <noscript>enable js</noscript>
    <script>var hidden = "not words";</script>
  </div>
  <h4>Skipped level</h4>
  <form action="http://shop.example/search"><input name="q"></form>
  <form action="/cart"></form>
  <iframe src="http://video.example/embed"></iframe>
</body>
</html>`;

const RESPONSE = HttpResponse.fromPartial({
  requestedUrl: URL_,
  finalUrl: URL_,
  status: 200,
  contentType: "text/html",
  charset: "utf-8",
  headers: [
    { name: "content-type", value: "text/html; charset=utf-8" },
    { name: "x-robots-tag", value: "noarchive" },
    { name: "link", value: '<https://shop.example/catalog/item>; rel="canonical", </fr/item>; rel="alternate"; hreflang="fr"' },
    { name: "server", value: "nginx/1.25.3" },
    { name: "x-powered-by", value: "PHP/8.2.1" },
  ],
});

// Alt text, <svg>, <noscript>, scripts and styles are not visible text.
const VISIBLE = "Home Partner Blue Widget Only 9 euros. Ünïcode wörds count too. Details specs Skipped level";

describe("extractPage", () => {
  it("extracts every field of a rich page", () => {
    const { facts, generator, scriptSrcs } = extractPage({ url: URL_, response: RESPONSE, html: FIXTURE, depth: 1 });
    expect(facts).toEqual({
      response: RESPONSE,
      isHtml: true,
      title: "Blue Widget | Shop",
      titleCount: 1,
      metaDescription: "A blue widget.",
      metaDescriptionCount: 3,
      metaRobots: "noindex, follow, nosnippet",
      xRobotsTag: "noarchive",
      metaViewport: "width=device-width, initial-scale=1",
      metaCharset: "utf-8",
      canonicals: ["https://shop.example/catalog/item"],
      canonicalHeader: "https://shop.example/catalog/item",
      lang: "en-GB",
      hreflang: [
        { hreflang: "de", href: "https://shop.example/de/item" },
        { hreflang: "x-default", href: "https://shop.example/catalog/item" },
        { hreflang: "fr", href: "https://shop.example/fr/item" },
      ],
      headings: [
        { level: 1, text: "Blue Widget" },
        { level: 2, text: "Details specs" },
        { level: 4, text: "Skipped level" },
      ],
      links: [
        { href: "https://shop.example/", text: "Home", nofollow: false, internal: true },
        { href: "https://other.example/x", text: "Partner", nofollow: true, internal: false },
        { href: "https://shop.example/catalog/item?id=7", text: "specs", nofollow: false, internal: true },
        { href: "https://shop.example/catalog/other", text: "Other widget", nofollow: false, internal: true },
      ],
      images: [
        { src: "https://shop.example/w.jpg", hasAlt: true, alt: "A widget", width: 640, height: 480, lazy: true },
        { src: "http://cdn.example/pixel.gif", hasAlt: false, alt: "", width: 0, height: 0, lazy: false },
        { src: "https://shop.example/t.png", hasAlt: true, alt: "Other widget", width: 0, height: 0, lazy: false },
      ],
      jsonLd: ['{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Shop"},{"@type":["Product","Thing"],"name":"W"}]}', '{"@type": "Broken",}'],
      jsonLdInvalid: 1,
      schemaTypes: ["WebSite", "Product", "Thing", "Offer"],
      openGraph: [
        { key: "og:title", content: "Blue Widget" },
        { key: "og:image", content: "https://cdn.example/w.png" },
      ],
      twitter: [{ key: "twitter:card", content: "summary_large_image" }],
      wordCount: 15,
      textSample: VISIBLE,
      forms: 2,
      formsInsecureAction: 1,
      scripts: 5,
      renderBlockingScripts: 1,
      renderBlockingStyles: 1,
      mixedContent: ["http://cdn.example/site.css", "http://cdn.example/pixel.gif", "http://video.example/embed"],
      hasDoctype: true,
      domElements: 52,
      duplicateIds: ["top"],
      metaInBody: true,
      hasMicrodata: true,
      contentHash: createHash("sha256").update(VISIBLE).digest("hex"),
      faviconHref: "https://shop.example/favicon.png",
      depth: 1,
      metaRefresh: "",
      deprecatedTags: [],
      picturesWithoutImg: 0,
      loremIpsum: false,
      uncrawlableAnchors: 0,
      uncrawlableAnchorExamples: [],
      unnamedLinks: 0,
      unnamedLinkExamples: [],
      manifestHref: "",
      appleTouchIcon: "",
      metaCsp: "",
      metaReferrer: "",
      // Another host's script without an integrity attribute.
      scriptsWithoutIntegrity: ["https://www.googletagmanager.com/gtm.js?id=GTM-1"],
      assets: [
        "http://cdn.example/site.css",
        "https://shop.example/print.css",
        "https://shop.example/wp-includes/js/jquery/jquery.min.js",
        "https://shop.example/app.js",
        "https://shop.example/mod.js",
        "https://www.googletagmanager.com/gtm.js?id=GTM-1",
      ],
    });
    expect(generator).toBe("WordPress 6.4.2");
    expect(scriptSrcs).toEqual([
      "https://shop.example/wp-includes/js/jquery/jquery.min.js",
      "https://shop.example/app.js",
      "https://shop.example/mod.js",
      "https://www.googletagmanager.com/gtm.js?id=GTM-1",
    ]);
    expect(detectTechnologies({ generator, headers: RESPONSE.headers, scriptSrcs })).toEqual(["WordPress", "jQuery", "Google Tag Manager", "nginx", "PHP"]);
  });

  it("keeps the first 2000 characters of long text and counts all words", () => {
    const html = `<html><body><p>${"word ".repeat(1000)}</p></body></html>`;
    const { facts } = extractPage({ url: "https://a.example/", response: HttpResponse.fromPartial({ contentType: "text/html" }), html });
    expect(facts.wordCount).toBe(1000);
    expect(facts.textSample).toBe("word ".repeat(400));
    expect(facts.hasDoctype).toBe(false);
  });

  it("counts the sample's 2000 characters in code points: an emoji (two code units) is one, and is never cut in half", () => {
    const sample = (text: string) => extractPage({ url: "https://a.example/", response: HttpResponse.fromPartial({ contentType: "text/html" }), html: `<p>${text}</p>` }).facts.textSample;
    // 1999 letters then an emoji: the emoji is the 2000th character, kept whole.
    expect(sample(`${"a".repeat(1999)}😀bc`)).toBe(`${"a".repeat(1999)}😀`);
    // 2000 emoji are 2000 characters (4000 code units): all kept, the letter after them not.
    expect(sample(`${"😀".repeat(2000)}x`)).toBe("😀".repeat(2000));
    // A lone surrogate (a page's broken text) counts as one character.
    expect(sample(`${"a".repeat(1998)}\ud800z!`)).toBe(`${"a".repeat(1998)}\ud800z`);
  });

  it("leaves non-HTML responses as bare facts", () => {
    const response = HttpResponse.fromPartial({ contentType: "application/pdf", status: 200 });
    const { facts } = extractPage({ url: "https://a.example/x.pdf", response, html: "%PDF-1.7" });
    expect(facts.isHtml).toBe(false);
    expect(facts.wordCount).toBe(0);
    expect(facts.response).toEqual(response);
  });

  it("extracts refresh, CSP and referrer metas, obsolete tags, pictures, placeholder text, manifest and touch icon", () => {
    const html = `<!doctype html><html><head>
      <meta http-equiv="Refresh" content="5; url=/new">
      <meta http-equiv="Content-Security-Policy" content="default-src 'self'">
      <meta name="referrer" content="strict-origin">
      <link rel="manifest" href="/app.webmanifest">
      <link rel="apple-touch-icon" sizes="180x180" href="/touch.png">
      <script src="https://cdn.example/lib.js" integrity="sha384-abc" crossorigin></script>
      <script src="https://cdn.example/other.js"></script>
      <script src="/own.js"></script>
    </head><body>
      <center><font color="red">Lorem ipsum dolor sit amet</font></center><font>again</font>
      <picture><source srcset="/a.avif" type="image/avif"><img src="/a.jpg" alt="A"></picture>
      <picture><source srcset="/b.webp" type="image/webp"></picture>
      <h2><img src="/logo.png" alt="Our logo"></h2>
    </body></html>`;
    const { facts } = extractPage({ url: "https://a.example/", response: HttpResponse.fromPartial({ contentType: "text/html" }), html });
    expect(facts).toMatchObject({
      metaRefresh: "5; url=/new",
      metaCsp: "default-src 'self'",
      metaReferrer: "strict-origin",
      manifestHref: "https://a.example/app.webmanifest",
      appleTouchIcon: "https://a.example/touch.png",
      deprecatedTags: ["center", "font"],
      picturesWithoutImg: 1,
      loremIpsum: true,
      scriptsWithoutIntegrity: ["https://cdn.example/other.js"],
      assets: ["https://cdn.example/lib.js", "https://cdn.example/other.js", "https://a.example/own.js"],
      // An image's alt text names the heading it sits in.
      headings: [{ level: 2, text: "Our logo" }],
    });
  });

  it("counts anchors crawlers cannot follow (Lighthouse's rule) and links without a name", () => {
    const html = `<html><body>
      <a href="javascript:void(0)">menu</a>
      <a href=" javascript: void( 0 ) ">menu</a>
      <a href=" javascript: open( 'x' ) ">open</a>
      <a href="javascript:print();">Printable version</a>
      <a href="file:///C:/site/index.html">local copy</a>
      <a name="x" href="file:///tmp/a.html">named local copy</a>
      <a href="http://[bad">broken</a>
      <a onclick="go()">no href</a>
      <a>placeholder</a>
      <a href="javascript:void(0)" role="button">toggle</a>
      <a name="top"></a>
      <a href="mailto:hi@a.example">mail</a>
      <a href="">self</a>
      <a href="/icon-only"><img src="/i.png"></a>
      <a href="/labelled" aria-label="Close"><svg></svg></a>
      <a href="/titled" title="Profile"></a>
      <a href="/alt"><img src="/p.png" alt="Profile photo"></a>
      <a href="/empty">  </a>
    </body></html>`;
    const { facts } = extractPage({ url: "https://a.example/", response: HttpResponse.fromPartial({ contentType: "text/html" }), html });
    expect([facts.uncrawlableAnchors, facts.uncrawlableAnchorExamples]).toEqual([
      6,
      // MediaWiki's javascript:print() and other javascript: actions pass, as in Lighthouse 12 (R8).
      ["javascript:void(0)", "javascript:void(0)", "file:///C:/site/index.html", "file:///tmp/a.html", "http://[bad"],
    ]);
    expect([facts.unnamedLinks, facts.unnamedLinkExamples]).toEqual([2, ["https://a.example/icon-only", "https://a.example/empty"]]);
  });

  it("resolves against <base href>", () => {
    const html = `<html><head><base href="https://cdn.example/base/"></head><body><a href="page">p</a></body></html>`;
    const { facts } = extractPage({ url: "https://a.example/", response: HttpResponse.fromPartial({ contentType: "text/html" }), html });
    expect(facts.links).toEqual([{ href: "https://cdn.example/base/page", text: "p", nofollow: false, internal: false }]);
  });

  it("resolves a repeated href the same each time, and against a <base> met after it anew", () => {
    const html = `<a href="x#one">1</a><a href="x#two">2</a><a href="#top">3</a><a href="http://[bad">4</a><a href="http://[bad">5</a>` + `<base href="https://b.example/d/"><a href="x">6</a><a href="#top">7</a>`;
    const { facts } = extractPage({ url: "https://a.example/p/q", response: HttpResponse.fromPartial({ contentType: "text/html" }), html });
    expect(facts.links.map((l) => [l.href, l.internal])).toEqual([
      ["https://a.example/p/x", true],
      ["https://a.example/p/x", true],
      ["https://a.example/p/q", true],
      ["https://b.example/d/x", false],
      ["https://b.example/d/", false],
    ]);
    expect(facts.uncrawlableAnchors).toBe(2);
  });
});

describe("detectTechnologies", () => {
  it("names products from headers and script paths", () => {
    const headers = [
      { name: "server", value: "cloudflare" },
      { name: "x-powered-by", value: "Next.js" },
    ];
    expect(detectTechnologies({ generator: "", headers, scriptSrcs: ["https://a.example/_next/static/chunks/main.js"] })).toEqual(["Next.js", "Cloudflare"]);
    expect(detectTechnologies({ generator: "Hugo 0.120.4", headers: [], scriptSrcs: [] })).toEqual(["Hugo"]);
  });
});
