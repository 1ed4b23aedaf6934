import { htmlPage, prose, urlset, type LinkSpec, type PageSpec } from "../html.ts";
import { TEXT, XML, assets, mx, notFoundPage, page, type SiteDefinition } from "../site-definition.ts";
import type { Resource } from "../site-server.ts";

const FURNITURE = [
  "Each table is made to order from solid oak grown in sustainably managed forests.",
  "Our chairs are assembled by hand and finished with natural oils and hard wax.",
  "Delivery takes four to six weeks, and our team carries everything to the room you choose.",
  "Oak darkens slowly in daylight and develops a warm honey colour over the years.",
  "Every piece comes with a ten year guarantee on joints and frames.",
  "Visit our workshop showroom on Saturdays to see and touch the finishes in person.",
];

/**
 * slow-f.test: a healthy shop on an overloaded backend: every answer takes 300 ms (long enough to
 * kill the service in the middle of its analysis).
 */
export function slowF(): SiteDefinition {
  const domain = "slow-f.test";
  const siteName = "Slow F Furniture Workshop";
  const items = Array.from({ length: 12 }, (_, i) => `oak-${["table", "chair", "bench", "shelf", "desk", "stool"][i % 6]}-${i + 1}`);
  return {
    key: "slow",
    domain,
    address: "127.0.0.7",
    certificate: "valid",
    httpToHttps: true,
    www: "redirect-301",
    hsts: "max-age=31536000",
    gzip: true,
    // An overloaded shop backend: every answer takes 300 ms.
    delayMs: 300,
    servedOver: "https",
    zone: {
      origin: domain,
      names: {
        "@": { A: ["127.0.0.7"], NS: [`ns1.${domain}`], MX: mx(`mail.${domain}`), TXT: ["v=spf1 mx -all"] },
        www: { A: ["127.0.0.7"] },
        ns1: { A: ["127.0.0.7"] },
        mail: { A: ["127.0.0.7"] },
        _dmarc: { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`] },
      },
    },
    content(origin) {
      const nav: LinkSpec[] = items.map((s) => ({ href: `/items/${s}`, text: s.replace(/-/g, " ") }));
      const base = { lang: "en", siteName, nav, favicon: "/favicon.ico", ogImage: `${origin}/images/workshop.jpg` };
      const pages = new Map<string, PageSpec>();
      pages.set("/", { ...base, url: `${origin}/`, title: "Slow F Furniture – solid oak, made to order", description: "Solid oak tables, chairs and shelves, made to order in our workshop.", h1: "Solid oak furniture", paragraphs: prose(FURNITURE, 120) });
      items.forEach((s, i) => pages.set(`/items/${s}`, { ...base, url: `${origin}/items/${s}`, title: `${s.replace(/-/g, " ")} – Slow F Furniture`, description: `The ${s.replace(/-/g, " ")}, made to order.`, h1: s.replace(/-/g, " "), paragraphs: prose(FURNITURE, 240, i) }));
      const resources = new Map<string, Resource>([...pages].map(([path, spec]) => [path, page(htmlPage(spec))]));
      for (const [path, r] of assets(["/images/workshop.jpg"], true)) resources.set(path, r);
      resources.set("/robots.txt", { type: TEXT, body: `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n` });
      resources.set("/sitemap.xml", { type: XML, body: urlset(["/", ...items.map((s) => `/items/${s}`)].map((p) => `${origin}${p}`)) });
      return { resources, notFound: notFoundPage(siteName, origin, 404) };
    },
    expectations: ({ issuer }) => ({
      checks: {
        home_status: { status: "pass", value: 200 },
        tls_cert_valid: { status: "pass", value: issuer },
        robots_txt_fetch: { status: "pass", value: 200 },
        sitemap_present: { status: "pass", value: 1 },
      },
      caps: [],
      neverFetched: [],
    }),
  };
}
