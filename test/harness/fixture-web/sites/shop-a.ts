import { gzipSync } from "node:zlib";
import { htmlPage, prose, sitemapIndex, urlset, type LinkSpec, type PageSpec } from "../html.ts";
import { TEXT, XML, assets, mx, notFoundPage, page, type SiteDefinition } from "../site-definition.ts";
import type { Resource } from "../site-server.ts";

const COFFEE = [
  "Every grinder we sell is tested in our roastery before it leaves the building.",
  "Burr grinders give an even particle size, which is the secret to a balanced cup.",
  "A gooseneck kettle lets you pour slowly and evenly over the whole coffee bed.",
  "We roast small batches on Tuesdays and Fridays and ship them the same afternoon.",
  "Ceramic drippers hold heat well, so the brew temperature stays steady from start to finish.",
  "Fresh beans lose their aroma within weeks, so buy little and buy often.",
  "Our customer team answers every message within one working day, usually much sooner.",
  "Paper filters remove most oils and leave a clean, bright cup with clear fruit notes.",
  "Water makes up almost all of your coffee, so filtered water is worth the effort.",
  "Free shipping applies to every order over forty euros within the European Union.",
  "Descale your kettle every month if you live in an area with hard tap water.",
  "We publish the farm, altitude and harvest date of every coffee we roast.",
];

/**
 * shop-a.test: the healthy shop. A valid certificate for it and www, http→https and www→apex
 * with 301, HSTS, gzip, a sitemap index with a gzipped child, security.txt, JSON-LD and Open Graph
 * everywhere, SPF, DMARC p=reject and BIMI; robots.txt keeps crawlers out of the cart.
 */
export function shopA(): SiteDefinition {
  const domain = "shop-a.test";
  const siteName = "Shop A Coffee Supply";
  const products = [
    { slug: "burr-grinder", name: "Conical Burr Grinder", price: "149.00" },
    { slug: "gooseneck-kettle", name: "Gooseneck Pour-Over Kettle", price: "69.00" },
    { slug: "ceramic-dripper", name: "Ceramic Dripper, Size 02", price: "29.00" },
    { slug: "paper-filters", name: "Unbleached Paper Filters", price: "6.50" },
  ];
  const images = [...products.map((p) => `/images/${p.slug}.jpg`), "/images/roastery.jpg", "/og/shop.jpg"];
  return {
    key: "shop",
    domain,
    address: "127.0.0.2",
    certificate: "valid",
    httpToHttps: true,
    www: "redirect-301",
    hsts: "max-age=63072000; includeSubDomains; preload",
    gzip: true,
    delayMs: 0,
    servedOver: "https",
    zone: {
      origin: domain,
      names: {
        "@": {
          A: ["127.0.0.2"],
          NS: [`ns1.${domain}`, `ns2.${domain}`],
          MX: mx(`mx1.${domain}`, `mx2.${domain}`),
          TXT: ["v=spf1 mx -all", "google-site-verification=5xQmT0b1u8n3f2P9sKq7cHwL4dVvYr6Ze1oJgAiN"],
          CAA: [
            { tag: "issue", value: "letsencrypt.org" },
            { tag: "iodef", value: `mailto:security@${domain}` },
          ],
        },
        www: { A: ["127.0.0.2"] },
        ns1: { A: ["127.0.0.2"] },
        ns2: { A: ["127.0.0.2"] },
        mx1: { A: ["127.0.0.2"] },
        mx2: { A: ["127.0.0.2"] },
        _dmarc: { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${domain}; adkim=s; aspf=s`] },
        "default._bimi": { TXT: [`v=BIMI1; l=https://${domain}/bimi/logo.svg`] },
      },
    },
    content(origin) {
      const nav: LinkSpec[] = [
        { href: "/products/", text: "All products" },
        { href: "/journal/pour-over-guide", text: "Pour-over guide" },
        { href: "/about", text: "About the roastery" },
        { href: "/contact", text: "Contact us" },
        { href: "/cart", text: "Your cart" },
      ];
      const base = { lang: "en", siteName, nav, favicon: "/favicon.ico", ogImage: `${origin}/og/shop.jpg` };
      const org = { "@context": "https://schema.org", "@type": "Organization", name: siteName, url: `${origin}/`, logo: `${origin}/images/roastery.jpg` };
      const pages = new Map<string, PageSpec>();
      pages.set("/", {
        ...base,
        url: `${origin}/`,
        title: "Shop A Coffee Supply – Grinders, Kettles, Drippers",
        description: "Specialty coffee equipment and fresh beans, roasted twice a week and shipped across Europe.",
        h1: "Brew better coffee at home",
        images: [{ src: "/images/roastery.jpg", alt: "Our roastery in the morning light", size: [1200, 630] }],
        paragraphs: prose(COFFEE, 120),
        links: products.map((p) => ({ href: `/products/${p.slug}`, text: p.name })),
        jsonLd: [org, { "@context": "https://schema.org", "@type": "WebSite", name: siteName, url: `${origin}/` }],
      });
      pages.set("/products/", {
        ...base,
        url: `${origin}/products/`,
        title: "All coffee equipment – Shop A Coffee Supply",
        description: "Grinders, kettles, drippers and filters we use in our own roastery.",
        h1: "All products",
        images: products.map((p) => ({ src: `/images/${p.slug}.jpg`, alt: p.name, size: [600, 600] as const })),
        paragraphs: prose(COFFEE, 240, 3),
        links: products.map((p) => ({ href: `/products/${p.slug}`, text: p.name })),
      });
      products.forEach((p, i) => {
        pages.set(`/products/${p.slug}`, {
          ...base,
          url: `${origin}/products/${p.slug}`,
          title: `${p.name} – Shop A Coffee Supply`,
          description: `${p.name}: why we chose it, how to use it, and what it costs (${p.price} EUR).`,
          h1: p.name,
          ogType: "product",
          images: [{ src: `/images/${p.slug}.jpg`, alt: p.name, size: [600, 600] }],
          paragraphs: prose(COFFEE, 240, i + 1),
          links: [{ href: "/products/", text: "Back to all products" }],
          jsonLd: [
            {
              "@context": "https://schema.org",
              "@type": "Product",
              name: p.name,
              image: `${origin}/images/${p.slug}.jpg`,
              offers: { "@type": "Offer", price: p.price, priceCurrency: "EUR", availability: "https://schema.org/InStock" },
            },
          ],
        });
      });
      pages.set("/journal/pour-over-guide", {
        ...base,
        url: `${origin}/journal/pour-over-guide`,
        title: "How to brew pour-over coffee, step by step",
        description: "Grind size, water temperature and pouring technique for a clean, sweet pour-over.",
        h1: "The pour-over guide",
        ogType: "article",
        paragraphs: prose(COFFEE, 300, 5),
        jsonLd: [{ "@context": "https://schema.org", "@type": "Article", headline: "The pour-over guide", author: { "@type": "Person", name: "Mara Lind" } }],
      });
      pages.set("/about", { ...base, url: `${origin}/about`, title: "About the Shop A roastery and its people", description: "Who we are, where we roast and how we choose our coffees.", h1: "About us", paragraphs: prose(COFFEE, 240, 7) });
      pages.set("/contact", { ...base, url: `${origin}/contact`, title: "Contact Shop A Coffee Supply", description: "Write to us, call us or visit the roastery shop.", h1: "Contact us", paragraphs: prose(COFFEE, 220, 9) });
      pages.set("/cart", { ...base, url: `${origin}/cart`, title: "Your cart – Shop A Coffee Supply", h1: "Your cart", paragraphs: ["Your cart is empty."] });

      const resources = new Map<string, Resource>([...pages].map(([path, spec]) => [path, page(htmlPage(spec))]));
      for (const [path, r] of assets(images, true)) resources.set(path, r);
      resources.set("/robots.txt", {
        type: TEXT,
        body: `# robots.txt for ${domain}\nUser-agent: *\nDisallow: /cart\nDisallow: /checkout\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: ${origin}/sitemap_index.xml\n`,
      });
      resources.set("/sitemap_index.xml", { type: XML, body: sitemapIndex([`${origin}/sitemap-pages.xml`, `${origin}/sitemap-products.xml.gz`]) });
      resources.set("/sitemap-pages.xml", { type: XML, body: urlset(["/", "/journal/pour-over-guide", "/about", "/contact"].map((p) => `${origin}${p}`)) });
      resources.set("/sitemap-products.xml.gz", { type: "application/gzip", body: gzipSync(urlset(["/products/", ...products.map((p) => `/products/${p.slug}`)].map((p) => `${origin}${p}`))) });
      resources.set("/.well-known/security.txt", {
        type: TEXT,
        body: `Contact: mailto:security@${domain}\nExpires: 2030-12-31T23:00:00.000Z\nPreferred-Languages: en, de\nCanonical: ${origin}/.well-known/security.txt\n`,
      });
      return { resources, notFound: notFoundPage(siteName, origin, 404) };
    },
    expectations: ({ standardPorts, issuer }) => ({
      checks: {
        robots_txt_fetch: { status: "pass", value: 200 },
        robots_blocks_all: { status: "pass" },
        sitemap_present: { status: "pass", value: 3 },
        sitemap_valid: { status: "pass", value: 0 },
        home_status: { status: "pass", value: 200 },
        not_found_status: { status: "pass", value: 404 },
        host_canonical: standardPorts ? { status: "pass", value: 301 } : { status: "na", value: null },
        https_available: { status: "pass", value: "TLSv1.3" },
        https_redirect: standardPorts ? { status: "pass", value: 301 } : { status: "na", value: null },
        tls_cert_valid: { status: "pass", value: issuer },
        tls_cert_expiry: { status: "pass", value: 89 },
        hsts: { status: "pass", value: 63072000 },
        security_txt: { status: "pass", value: 200 },
        favicon: { status: "pass", value: 200 },
        dns_resolves: { status: "pass", value: 1 },
        spf: { status: "pass", value: "v=spf1 mx -all" },
        dmarc: { status: "pass", value: "reject" },
        compression: { status: "pass", value: 0 },
        img_alt_missing: { status: "pass", value: 0 },
        image_dimensions: { status: "pass", value: 0 },
        og_required: { status: "pass", value: 0 },
        jsonld_syntax: { status: "pass", value: 0 },
        mixed_content: { status: "pass", value: 0 },
      },
      caps: [],
      minRank: 90,
      neverFetched: ["/cart", "/checkout"],
    }),
  };
}
