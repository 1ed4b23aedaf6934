// SiteFacts fixtures: a healthy site on which every analyzer check passes, and helpers to break
// one thing at a time. Every call builds fresh objects, so a mutation never leaks between tests.
import { CrawlFindings, HttpResponse, PageFacts, SiteFacts } from "../../../proto/index.ts";
import type { Header } from "../../../proto/index.ts";

export const ORIGIN = "https://example.com";
/** 2025-06-15T15:06:40Z, the run's clock. */
export const NOW = 1_750_000_000;
export const DAY = 86_400;

const TEXT_EN =
  "Example builds small tools for busy people. This page explains what we do, who we are and how to reach us. " +
  "Read the guides, compare the plans and write to us with any question about the service.";

export function response(url: string, patch: Partial<HttpResponse> = {}): HttpResponse {
  return HttpResponse.fromPartial({
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    headers: [{ name: "content-type", value: "text/html; charset=utf-8" }],
    ttfbMs: 120,
    totalMs: 300,
    wireBytes: 12_000,
    bodyBytes: 48_000,
    contentEncoding: "br",
    contentType: "text/html",
    charset: "utf-8",
    ...patch,
  });
}

// The security headers of every healthy page (Mozilla Observatory's set, plus Permissions-Policy).
const SECURITY_HEADERS: Header[] = [
  { name: "x-content-type-options", value: "nosniff" },
  { name: "content-security-policy", value: "default-src 'self'; img-src 'self' https:; frame-ancestors 'self'" },
  { name: "referrer-policy", value: "strict-origin-when-cross-origin" },
  { name: "permissions-policy", value: "camera=(), microphone=(), geolocation=()" },
];

function page(path: string, title: string, extra: Partial<PageFacts> = {}): PageFacts {
  const url = `${ORIGIN}${path}`;
  const res = response(url);
  res.headers.push(...SECURITY_HEADERS.map((h) => ({ ...h })));
  return PageFacts.fromPartial({
    response: res,
    isHtml: true,
    title,
    titleCount: 1,
    metaDescription: `${title}: what it covers, who it is for and where to go next, in a couple of plain sentences.`,
    metaDescriptionCount: 1,
    metaViewport: "width=device-width, initial-scale=1",
    metaCharset: "utf-8",
    canonicals: [url],
    lang: "en",
    headings: [
      { level: 1, text: title },
      { level: 2, text: "Details" },
    ],
    links: [
      { href: `${ORIGIN}/`, text: "Home", internal: true },
      { href: `${ORIGIN}/about/`, text: "About the team", internal: true },
      { href: "https://github.com/example", text: "Our code on GitHub", internal: false },
    ],
    images: [{ src: `${ORIGIN}/logo.png`, hasAlt: true, alt: "Example logo", width: 120, height: 40 }],
    jsonLd: ['{"@context":"https://schema.org","@type":"WebPage","name":"Example"}'],
    schemaTypes: ["WebPage"],
    twitter: [{ key: "twitter:card", content: "summary_large_image" }],
    openGraph: [
      { key: "og:title", content: title },
      { key: "og:type", content: "website" },
      { key: "og:url", content: url },
      { key: "og:image", content: `${ORIGIN}/og-image.png` },
      { key: "og:description", content: `What ${title} covers, in a sentence.` },
    ],
    wordCount: 640,
    textSample: TEXT_EN,
    forms: 0,
    scripts: 3,
    renderBlockingStyles: 1,
    assets: [`${ORIGIN}/assets/site.css`, `${ORIGIN}/assets/app.js`],
    hasDoctype: true,
    domElements: 820,
    ...extra,
  });
}

function homePage(): PageFacts {
  const home = page("/", "Example — small tools for busy people", {
    hreflang: [
      { hreflang: "en", href: `${ORIGIN}/` },
      { hreflang: "de-DE", href: `${ORIGIN}/de/` },
      { hreflang: "x-default", href: `${ORIGIN}/` },
    ],
    jsonLd: [
      '{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Example","url":"https://example.com/"},' +
        '{"@type":"Organization","name":"Example","url":"https://example.com/","logo":"https://example.com/logo.png","sameAs":["https://github.com/example"]}]}',
    ],
    schemaTypes: ["WebSite", "Organization"],
    wordCount: 150, // the home page is exempt from text_length
    manifestHref: `${ORIGIN}/site.webmanifest`,
    appleTouchIcon: `${ORIGIN}/apple-touch-icon.png`,
  });
  home.response?.headers.push(
    { name: "strict-transport-security", value: "max-age=63072000; includeSubDomains; preload" },
    { name: "set-cookie", value: "session=3f9a; Path=/; Secure; HttpOnly; SameSite=Lax" },
  );
  return home;
}

/** A post two levels deep, with its breadcrumb trail marked up. */
function postPage(): PageFacts {
  const breadcrumbs = {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", position: 1, name: "Home", item: `${ORIGIN}/` },
      { "@type": "ListItem", position: 2, name: "Blog", item: `${ORIGIN}/blog/` },
      { "@type": "ListItem", position: 3, name: "First post" },
    ],
  };
  return page("/blog/first-post/", "First post: why we built Example", {
    jsonLd: ['{"@context":"https://schema.org","@type":"WebPage","name":"Example"}', JSON.stringify(breadcrumbs)],
    schemaTypes: ["WebPage", "BreadcrumbList"],
  });
}

function redirecting(from: string, to: string, status = 301): HttpResponse {
  return response(from, { finalUrl: to, redirects: [{ url: from, status, location: to }] });
}

/** A healthy site: every check passes. `mutate` breaks what a test needs broken. */
export function healthySite(mutate?: (facts: SiteFacts) => void): SiteFacts {
  const facts = SiteFacts.fromPartial({
    host: "example.com",
    origin: ORIGIN,
    checkedAt: NOW,
    home: homePage(),
    pages: [page("/about/", "About Example: the team and the story"), postPage()],
    robots: {
      response: response(`${ORIGIN}/robots.txt`, { contentType: "text/plain", bodyBytes: 120 }),
      present: true,
      groups: [{ userAgents: ["*"], allow: [], disallow: ["/admin/"] }],
      sitemaps: [`${ORIGIN}/sitemap.xml`],
      sizeBytes: 120,
    },
    sitemaps: [
      {
        response: response(`${ORIGIN}/sitemap.xml`, { contentType: "application/xml" }),
        url: `${ORIGIN}/sitemap.xml`,
        valid: true,
        urlCount: 3,
        sampleUrls: [`${ORIGIN}/`, `${ORIGIN}/about/`, `${ORIGIN}/blog/first-post/`],
      },
    ],
    tls: {
      attempted: true,
      handshakeOk: true,
      protocol: "TLSv1.3",
      authorized: true,
      subjectCn: "example.com",
      altNames: ["example.com", "www.example.com"],
      issuer: "R11",
      validFrom: NOW - 30 * DAY,
      validTo: NOW + 60 * DAY,
      chainLength: 2,
      nameMatches: true,
    },
    dns: {
      resolved: true,
      a: ["93.184.215.14"],
      aaaa: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
      ns: ["a.iana-servers.net", "b.iana-servers.net"],
      mx: ["10 mx.example.com"],
      caa: ['0 issue "letsencrypt.org"'],
      spf: "v=spf1 include:_spf.example.net -all",
      spfRecords: 1,
      dmarc: "v=DMARC1; p=reject; rua=mailto:dmarc@example.com",
      bimi: "v=BIMI1; l=https://example.com/bimi/logo.svg",
      registrableDomain: "example.com",
    },
    httpVariant: redirecting("http://example.com/", `${ORIGIN}/`),
    wwwVariant: redirecting("https://www.example.com/", `${ORIGIN}/`),
    notFoundProbe: response(`${ORIGIN}/0123456789abcdef0123456789abcdef-probe`, { status: 404 }),
    securityTxt: response(`${ORIGIN}/.well-known/security.txt`, { contentType: "text/plain" }),
    securityTxtFields: { contact: ["mailto:security@example.com"], expires: new Date((NOW + 180 * DAY) * 1000).toISOString(), expiresCount: 1 },
    favicon: response(`${ORIGIN}/favicon.ico`, { contentType: "image/x-icon" }),
    manifest: {
      href: `${ORIGIN}/site.webmanifest`,
      response: response(`${ORIGIN}/site.webmanifest`, { contentType: "application/manifest+json", bodyBytes: 420 }),
      parsed: true,
      name: "Example",
      shortName: "Example",
      startUrl: "/",
      display: "standalone",
      icons: [
        { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
        { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
      ],
    },
    technologies: ["nginx", "WordPress"],
  });
  mutate?.(facts);
  return facts;
}

/** Home first, then the sampled pages. */
export function allPages(facts: SiteFacts): PageFacts[] {
  return [facts.home!, ...facts.pages];
}

/** Set (or, with null, remove) a response header. */
export function setHeader(res: HttpResponse | undefined, name: string, value: string | null): void {
  if (!res) throw new Error("no response");
  res.headers = res.headers.filter((h: Header) => h.name !== name);
  if (value !== null) res.headers.push({ name, value });
}

/**
 * Findings of a clean whole-site crawl two days before the run: 40 HTML pages among 50 URLs, at
 * most 3 clicks deep, sitemap compared, 10 external links checked, nothing wrong. `patch` adds what a test needs found.
 */
export function cleanCrawl(patch: Partial<CrawlFindings> = {}): CrawlFindings {
  return CrawlFindings.fromPartial({ present: true, jobId: 7, crawledAt: NOW - 2 * DAY, pages: 40, urls: 50, maxDepth: 3, sitemapListed: true, externalChecked: 10, ...patch });
}
