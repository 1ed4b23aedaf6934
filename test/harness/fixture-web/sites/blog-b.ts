import { htmlPage, prose, urlset, type LinkSpec, type PageSpec } from "../html.ts";
import { TEXT, XML, assets, mx, notFoundPage, page, type SiteDefinition } from "../site-definition.ts";
import type { Resource } from "../site-server.ts";

const GARDEN = [
  "Tomatoes in containers need a pot of at least twenty litres and a sunny wall.",
  "Compost is simply kitchen scraps and garden waste given time, air and a little water.",
  "Prune roses in late winter, just as the buds begin to swell along the stems.",
  "A thick layer of mulch keeps the soil moist and the weeds down all summer long.",
  "Water early in the morning so the leaves dry before the heat of the day.",
  "Companion planting with basil and marigolds keeps many pests away from the vegetables.",
  "Raised beds warm up faster in spring and drain better after heavy rain.",
  "Save seeds from your best plants and label the envelopes with the year and variety.",
  "Slugs are most active on damp evenings, which is the best time to go looking for them.",
  "A rain barrel under the downpipe collects hundreds of litres over a single season.",
];

/**
 * blog-b.test: a good blog with everyday slips. Two SPF records, DMARC p=none, a www name that
 * does not resolve, a short HSTS max-age, images without alt, "Read more" links, no security.txt;
 * an English and a German home page tied by hreflang.
 */
export function blogB(): SiteDefinition {
  const domain = "blog-b.test";
  const siteName = "Blog B – A Gardener's Notebook";
  const posts = [
    { slug: "tomatoes-in-containers", title: "Growing tomatoes in containers on a balcony" },
    { slug: "composting-basics", title: "Composting basics for small gardens" },
    { slug: "pruning-roses", title: "When and how to prune climbing roses" },
  ];
  return {
    key: "blog",
    domain,
    address: "127.0.0.3",
    certificate: "valid",
    httpToHttps: true,
    www: "absent",
    hsts: "max-age=86400",
    gzip: true,
    delayMs: 0,
    servedOver: "https",
    zone: {
      origin: domain,
      names: {
        // Two SPF records: a second one was added for a newsletter service instead of merging them.
        "@": {
          A: ["127.0.0.3"],
          NS: [`ns1.${domain}`],
          MX: mx(`mail.${domain}`),
          TXT: ["v=spf1 include:_spf.mailhost.test ~all", "v=spf1 a mx ~all", "facebook-domain-verification=q8w7e6r5t4y3u2i1o0p9a8s7d6f5"],
        },
        ns1: { A: ["127.0.0.3"] },
        mail: { A: ["127.0.0.3"] },
        _dmarc: { TXT: [`v=DMARC1; p=none; rua=mailto:reports@${domain}`] },
      },
    },
    content(origin) {
      const nav: LinkSpec[] = [
        { href: "/", text: "Latest posts" },
        { href: "/about", text: "About this notebook" },
        { href: "/de/", text: "Deutsch" },
      ];
      const hreflang = [
        { lang: "en", href: `${origin}/` },
        { lang: "de", href: `${origin}/de/` },
        { lang: "x-default", href: `${origin}/` },
      ];
      const base = { siteName, nav, favicon: "/favicon.ico", ogImage: `${origin}/images/garden.jpg` };
      const pages = new Map<string, PageSpec>();
      pages.set("/", {
        ...base,
        lang: "en",
        url: `${origin}/`,
        hreflang,
        title: "Blog B – notes from a small city garden",
        description: "Seasonal notes on vegetables, roses and compost from a small city garden.",
        h1: "Notes from a small city garden",
        // The header photo has no alt text.
        images: [{ src: "/images/garden.jpg", size: [1600, 900] }],
        paragraphs: prose(GARDEN, 100),
        links: posts.flatMap((p) => [
          { href: `/posts/${p.slug}`, text: p.title },
          { href: `/posts/${p.slug}`, text: "Read more" },
        ]),
        jsonLd: [{ "@context": "https://schema.org", "@type": "Blog", name: siteName, url: `${origin}/` }],
      });
      pages.set("/de/", {
        ...base,
        lang: "de",
        url: `${origin}/de/`,
        hreflang,
        title: "Blog B – Notizen aus einem kleinen Stadtgarten",
        description: "Notizen über Gemüse, Rosen und Kompost aus einem kleinen Stadtgarten.",
        h1: "Notizen aus einem kleinen Stadtgarten",
        paragraphs: [
          "Dieser Blog erscheint vor allem auf Englisch. Hier finden Sie eine kurze Übersicht auf Deutsch über die Themen, die im Garten gerade anstehen, vom Rückschnitt der Rosen bis zum Umsetzen des Komposts. Jede Woche kommt ein neuer Beitrag hinzu, und ältere Beiträge werden ergänzt, wenn sich im Garten etwas Neues zeigt.",
          ...prose(GARDEN, 200, 2),
        ],
      });
      posts.forEach((p, i) => {
        pages.set(`/posts/${p.slug}`, {
          ...base,
          lang: "en",
          url: `${origin}/posts/${p.slug}`,
          title: p.title,
          description: `${p.title}: what worked, what did not, and what we would do differently next year.`,
          h1: p.title,
          ogType: "article",
          images: [{ src: `/images/${p.slug}.jpg`, size: [800, 600], ...(i === 0 ? {} : { alt: p.title }) }],
          paragraphs: prose(GARDEN, 260, i * 3),
          links: [{ href: "/", text: "All posts" }],
          jsonLd: [{ "@context": "https://schema.org", "@type": "BlogPosting", headline: p.title, datePublished: `2024-0${i + 3}-12`, author: { "@type": "Person", name: "Jonas Berg" } }],
        });
      });
      pages.set("/about", { ...base, lang: "en", url: `${origin}/about`, title: "About Blog B and the garden behind it", description: "Who writes this notebook, and about which garden.", h1: "About this notebook", paragraphs: prose(GARDEN, 220, 5) });

      const resources = new Map<string, Resource>([...pages].map(([path, spec]) => [path, page(htmlPage(spec))]));
      for (const [path, r] of assets(["/images/garden.jpg", ...posts.map((p) => `/images/${p.slug}.jpg`)], true)) resources.set(path, r);
      resources.set("/robots.txt", { type: TEXT, body: `User-agent: *\nDisallow: /wp-admin/\n\nSitemap: ${origin}/sitemap.xml\n` });
      resources.set("/sitemap.xml", { type: XML, body: urlset(["/", "/de/", "/about", ...posts.map((p) => `/posts/${p.slug}`)].map((p) => `${origin}${p}`)) });
      return { resources, notFound: notFoundPage(siteName, origin, 404) };
    },
    expectations: ({ standardPorts, issuer }) => ({
      checks: {
        robots_txt_fetch: { status: "pass", value: 200 },
        sitemap_present: { status: "pass", value: 1 },
        not_found_status: { status: "pass", value: 404 },
        // The www twin does not resolve: visitors who type it find nothing.
        host_canonical: standardPorts ? { status: "fail", value: "dns" } : { status: "na", value: null },
        https_redirect: standardPorts ? { status: "pass", value: 301 } : { status: "na", value: null },
        tls_cert_valid: { status: "pass", value: issuer },
        hsts: { status: "warn", value: 86400 },
        security_txt: { status: "fail", value: 404 },
        favicon: { status: "pass", value: 200 },
        spf: { status: "fail", value: 2 },
        dmarc: { status: "warn", value: "none" },
        hreflang_codes: { status: "pass", value: 0 },
        // The home page and the first post have an image without alt.
        img_alt_missing: { status: "fail", value: 2 },
        link_text: { status: "fail", value: 1 },
      },
      caps: [],
      minRank: 70,
      neverFetched: [],
    }),
  };
}
