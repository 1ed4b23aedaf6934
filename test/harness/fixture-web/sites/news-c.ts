import { htmlPage, prose, urlset, type LinkSpec, type PageSpec } from "../html.ts";
import { TEXT, XML, assets, mx, notFoundPage, page, type SiteDefinition } from "../site-definition.ts";
import type { Resource } from "../site-server.ts";

const NEWS = [
  "The council confirmed on Monday that the new tram line will open next spring.",
  "Markets closed higher after the central bank left interest rates unchanged.",
  "Thousands gathered in the old town square for the opening night of the festival.",
  "The home side came from behind to win the derby with two goals in the final ten minutes.",
  "Officials said the count would continue through the night in the outlying districts.",
  "Shares in the regional airline rose sharply after it reported record summer bookings.",
  "Critics praised the orchestra for a bold programme that mixed new works with old favourites.",
  "Residents have until the end of the month to comment on the planning application.",
  "The coach said the squad was tired but proud after a long and difficult season.",
  "Weather forecasters expect the warm spell to last until the middle of next week.",
];

/**
 * news-c.test: a news site on plain http whose https certificate has expired. SPF +all, no DMARC,
 * a TXT set too big for UDP, soft 404s, www serving the same pages, no compression, a broken
 * JSON-LD block on one article.
 */
export function newsC(): SiteDefinition {
  const domain = "news-c.test";
  const siteName = "News C Daily";
  const articles = [
    { path: "/world/election-count-continues", title: "Election count continues through the night" },
    { path: "/business/markets-close-higher", title: "Markets close higher as rates stay on hold" },
    { path: "/sport/home-side-wins-derby", title: "Home side comes from behind to win the derby" },
    { path: "/culture/festival-opens", title: "Festival opens with a packed old town square" },
  ];
  // Years of verification records for tools nobody uses any more: an answer too big for UDP.
  const verifications = Array.from({ length: 14 }, (_, i) => `site-verification-${String(i + 1).padStart(2, "0")}=${"c0ffee42beef".repeat(6)}${i}`);
  return {
    key: "news",
    domain,
    address: "127.0.0.4",
    certificate: "expired",
    httpToHttps: false,
    www: "duplicate",
    hsts: null,
    gzip: false,
    delayMs: 0,
    servedOver: "http",
    zone: {
      origin: domain,
      names: {
        "@": { A: ["127.0.0.4"], NS: [`ns1.${domain}`, `ns2.${domain}`], MX: mx(`mail.${domain}`), TXT: ["v=spf1 +all", ...verifications] },
        www: { A: ["127.0.0.4"] },
        ns1: { A: ["127.0.0.4"] },
        ns2: { A: ["127.0.0.4"] },
        mail: { A: ["127.0.0.4"] },
        // No _dmarc record at all.
      },
    },
    content(origin) {
      const nav: LinkSpec[] = [
        { href: "/world/", text: "World" },
        { href: "/business/", text: "Business" },
        { href: "/sport/", text: "Sport" },
        { href: "/culture/", text: "Culture" },
      ];
      const base = { lang: "en", siteName, nav, favicon: "/favicon.ico", ogImage: `${origin}/images/front.jpg` };
      const pages = new Map<string, PageSpec>();
      pages.set("/", {
        ...base,
        url: `${origin}/`,
        title: "News C Daily – local news, business and sport",
        description: "Local news, business, sport and culture, updated through the day.",
        h1: "Today's top stories",
        images: [{ src: "/images/front.jpg", alt: "The old town square at dusk", size: [1200, 675] }],
        paragraphs: prose(NEWS, 120),
        links: articles.map((a) => ({ href: a.path, text: a.title })),
        jsonLd: [{ "@context": "https://schema.org", "@type": "NewsMediaOrganization", name: siteName, url: `${origin}/` }],
      });
      articles.forEach((a, i) => {
        const article = { "@context": "https://schema.org", "@type": "NewsArticle", headline: a.title, datePublished: "2024-05-06T08:00:00Z" };
        pages.set(a.path, {
          ...base,
          url: `${origin}${a.path}`,
          title: a.title,
          description: `${a.title}. Read the full report from our newsroom.`,
          h1: a.title,
          ogType: "article",
          paragraphs: prose(NEWS, 260, i * 2),
          links: [{ href: "/", text: "Back to the front page" }],
          // The sport desk's template leaves a trailing comma in its JSON-LD.
          jsonLd: [i === 2 ? JSON.stringify(article).replace(/}$/, ',}') : article],
        });
      });
      const resources = new Map<string, Resource>([...pages].map(([path, spec]) => [path, page(htmlPage(spec))]));
      for (const [path, r] of assets(["/images/front.jpg"], true)) resources.set(path, r);
      resources.set("/robots.txt", { type: TEXT, body: `User-agent: *\nDisallow: /search\n\nSitemap: ${origin}/sitemap.xml\n` });
      resources.set("/sitemap.xml", { type: XML, body: urlset(["/", ...articles.map((a) => a.path)].map((p) => `${origin}${p}`)) });
      // Unknown URLs answer 200 with a "not found" page: a soft 404.
      return { resources, notFound: notFoundPage(siteName, origin, 200) };
    },
    expectations: ({ standardPorts }) => ({
      checks: {
        home_status: { status: "pass", value: 200 },
        https_available: { status: "pass", value: "TLSv1.3" },
        tls_cert_valid: { status: "fail", value: "CERT_HAS_EXPIRED" },
        tls_cert_expiry: { status: "na", value: null },
        https_redirect: standardPorts ? { status: "fail", value: 200 } : { status: "na", value: null },
        hsts: { status: "na", value: null },
        not_found_status: { status: "fail", value: 200 },
        // www.news-c.test serves the same pages instead of redirecting.
        host_canonical: standardPorts ? { status: "fail", value: 200 } : { status: "na", value: null },
        spf: { status: "fail", value: "v=spf1 +all" },
        dmarc: { status: "fail", value: null },
        dns_resolves: { status: "pass", value: 1 },
        compression: { status: "fail" },
        jsonld_syntax: { status: "fail", value: 1 },
        sitemap_present: { status: "pass", value: 1 },
      },
      caps: standardPorts ? [{ code: "tls_cert_valid", cap: 39 }, { code: "https_redirect", cap: 79 }] : [{ code: "tls_cert_valid", cap: 39 }],
      rank: 39,
      neverFetched: [],
    }),
  };
}
