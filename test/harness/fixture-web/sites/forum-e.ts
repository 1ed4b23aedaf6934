import { htmlPage, prose, urlset, type LinkSpec, type PageSpec } from "../html.ts";
import { HTML, XML, assets, mx, notFoundPage, page, type SiteDefinition } from "../site-definition.ts";
import type { Resource } from "../site-server.ts";

const FORUM = [
  "Welcome to the community board for people who build and repair their own bicycles.",
  "Please search the archive before posting, since most questions have been answered before.",
  "Threads about wheel building are the most popular part of the forum this year.",
  "Moderators remove advertising and personal attacks without warning.",
  "Members share photographs of their builds every Sunday in the weekly gallery thread.",
  "The annual meetup takes place in the first week of September near the river.",
];

/**
 * forum-e.test: a forum with a self-signed certificate whose robots.txt answers 500, so crawlers
 * must treat the whole site as disallowed.
 */
export function forumE(): SiteDefinition {
  const domain = "forum-e.test";
  const siteName = "Forum E – Bicycle Builders";
  return {
    key: "forum",
    domain,
    address: "127.0.0.6",
    certificate: "self-signed",
    httpToHttps: false,
    www: "absent",
    hsts: null,
    gzip: true,
    delayMs: 0,
    servedOver: "http",
    zone: {
      origin: domain,
      names: {
        "@": { A: ["127.0.0.6"], NS: [`ns1.${domain}`], MX: mx(`mail.${domain}`), TXT: ["v=spf1 mx ~all"] },
        ns1: { A: ["127.0.0.6"] },
        mail: { A: ["127.0.0.6"] },
        _dmarc: { TXT: [`v=DMARC1; p=quarantine; rua=mailto:dmarc@${domain}`] },
      },
    },
    content(origin) {
      const threads = ["wheel-building-for-beginners", "steel-frame-repair", "tubeless-tyre-setup"];
      const nav: LinkSpec[] = [{ href: "/", text: "Forum index" }, ...threads.map((t) => ({ href: `/threads/${t}`, text: t.replace(/-/g, " ") }))];
      const base = { lang: "en", siteName, nav, favicon: "/favicon.ico", ogImage: `${origin}/images/workshop.jpg` };
      const pages = new Map<string, PageSpec>();
      pages.set("/", {
        ...base,
        url: `${origin}/`,
        title: "Forum E – the bicycle builders' community",
        description: "A forum for people who build, repair and ride their own bicycles.",
        h1: "Bicycle builders' forum",
        images: [{ src: "/images/workshop.jpg", alt: "A workshop wall full of tools", size: [1200, 630] }],
        paragraphs: prose(FORUM, 150),
      });
      threads.forEach((t, i) => pages.set(`/threads/${t}`, { ...base, url: `${origin}/threads/${t}`, title: `${t.replace(/-/g, " ")} – Forum E`, h1: t.replace(/-/g, " "), paragraphs: prose(FORUM, 240, i) }));
      const resources = new Map<string, Resource>([...pages].map(([path, spec]) => [path, page(htmlPage(spec))]));
      for (const [path, r] of assets(["/images/workshop.jpg"], true)) resources.set(path, r);
      // The forum software's robots.txt handler is broken: 500.
      resources.set("/robots.txt", { status: 500, type: HTML, body: "<html><body><h1>500 Internal Server Error</h1></body></html>" });
      resources.set("/sitemap.xml", { type: XML, body: urlset(["/", ...threads.map((t) => `/threads/${t}`)].map((p) => `${origin}${p}`)) });
      return { resources, notFound: notFoundPage(siteName, origin, 404) };
    },
    expectations: ({ standardPorts }) => ({
      checks: {
        home_status: { status: "pass", value: 200 },
        https_available: { status: "pass", value: "TLSv1.3" },
        tls_cert_valid: { status: "fail", value: "DEPTH_ZERO_SELF_SIGNED_CERT" },
        https_redirect: standardPorts ? { status: "fail", value: 200 } : { status: "na", value: null },
        robots_txt_fetch: { status: "fail", value: 500 },
        sitemap_present: { status: "pass", value: 1 },
        host_canonical: standardPorts ? { status: "fail", value: "dns" } : { status: "na", value: null },
        spf: { status: "pass", value: "v=spf1 mx ~all" },
        dmarc: { status: "pass", value: "quarantine" },
        not_found_status: { status: "pass", value: 404 },
      },
      caps: standardPorts ? [{ code: "tls_cert_valid", cap: 39 }, { code: "https_redirect", cap: 79 }] : [{ code: "tls_cert_valid", cap: 39 }],
      rank: 39,
      // robots.txt answers 500: crawlers must treat the whole site as disallowed (RFC 9309).
      neverFetched: ["/threads/wheel-building-for-beginners", "/threads/steel-frame-repair", "/threads/tubeless-tyre-setup"],
    }),
  };
}
