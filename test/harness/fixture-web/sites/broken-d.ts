import { htmlPage, prose, type ImageSpec, type LinkSpec, type PageSpec } from "../html.ts";
import { assets, mx, notFoundPage, page, type SiteDefinition } from "../site-definition.ts";
import type { Resource } from "../site-server.ts";

const PLUMBING = [
  "We repair leaking taps, blocked drains and broken boilers across the whole city.",
  "Our engineers carry common spare parts, so most jobs are finished on the first visit.",
  "Call us before nine in the morning and we will usually be with you the same day.",
  "Every boiler service includes a safety check and a written report for your records.",
  "We give a fixed price before any work starts, so there are never any surprises.",
  "Frozen pipes can burst when they thaw, so insulate any pipes in unheated spaces.",
  "A dripping tap can waste more than five thousand litres of water in a single year.",
  "We have served local families and businesses for more than twenty five years.",
];

/**
 * broken-d.test: a small business behind a CDN certificate for another name (cdn-edge.test).
 * No robots.txt, sitemap, favicon, SPF or Open Graph; unsized images; www redirects with 302.
 */
export function brokenD(): SiteDefinition {
  const domain = "broken-d.test";
  const siteName = "Broken D Plumbing & Heating";
  const services = ["boiler-repair", "blocked-drains", "bathroom-fitting"];
  return {
    key: "broken",
    domain,
    address: "127.0.0.5",
    certificate: "wrong-name",
    httpToHttps: false,
    www: "redirect-302",
    hsts: null,
    gzip: true,
    delayMs: 0,
    servedOver: "http",
    zone: {
      origin: domain,
      names: {
        // No SPF record, only a verification token; DMARC quarantines.
        "@": { A: ["127.0.0.5"], NS: [`ns1.${domain}`], MX: mx(`mail.${domain}`), TXT: ["MS=ms48120937"] },
        www: { A: ["127.0.0.5"] },
        ns1: { A: ["127.0.0.5"] },
        mail: { A: ["127.0.0.5"] },
        _dmarc: { TXT: ["v=DMARC1; p=quarantine; pct=100"] },
      },
    },
    content(origin) {
      const nav: LinkSpec[] = [{ href: "/", text: "Home" }, ...services.map((s) => ({ href: `/services/${s}`, text: s.replace(/-/g, " ") })), { href: "/contact", text: "Contact" }];
      // No favicon, no Open Graph, images without width and height.
      const base = { lang: "en", siteName, nav };
      const pages = new Map<string, PageSpec>();
      const vanImage: ImageSpec = { src: "/images/van.jpg", alt: "Our van outside a customer's house" };
      pages.set("/", {
        ...base,
        url: `${origin}/`,
        title: "Broken D Plumbing & Heating – emergency plumbers",
        description: "Emergency plumbers and heating engineers, seven days a week.",
        h1: "Plumbers you can count on",
        images: [vanImage],
        paragraphs: prose(PLUMBING, 120),
        jsonLd: [{ "@context": "https://schema.org", "@type": "Plumber", name: siteName, telephone: "+44 20 7946 0000" }],
      });
      services.forEach((s, i) => {
        const name = s.replace(/-/g, " ");
        pages.set(`/services/${s}`, {
          ...base,
          url: `${origin}/services/${s}`,
          title: `${name[0]?.toUpperCase()}${name.slice(1)} – Broken D Plumbing`,
          description: `Fixed-price ${name} by qualified engineers.`,
          h1: name,
          images: [{ src: `/images/${s}.jpg`, alt: name }],
          paragraphs: prose(PLUMBING, 240, i * 2),
        });
      });
      pages.set("/contact", { ...base, url: `${origin}/contact`, title: "Contact Broken D Plumbing & Heating", description: "Call, write or book a visit.", h1: "Contact", paragraphs: prose(PLUMBING, 220, 5) });
      const resources = new Map<string, Resource>([...pages].map(([path, spec]) => [path, page(htmlPage(spec))]));
      for (const [path, r] of assets(["/images/van.jpg", ...services.map((s) => `/images/${s}.jpg`)], false)) resources.set(path, r);
      // No robots.txt, no sitemap, no favicon: all 404.
      return { resources, notFound: notFoundPage(siteName, origin, 404) };
    },
    expectations: ({ standardPorts }) => ({
      checks: {
        home_status: { status: "pass", value: 200 },
        https_available: { status: "pass", value: "TLSv1.3" },
        tls_cert_valid: { status: "fail", value: "ERR_TLS_CERT_ALTNAME_INVALID" },
        https_redirect: standardPorts ? { status: "fail", value: 200 } : { status: "na", value: null },
        // A missing robots.txt means "everything allowed": nothing to fail.
        robots_txt_fetch: { status: "na", value: null },
        sitemap_present: { status: "fail", value: 0 },
        sitemap_valid: { status: "na", value: null },
        favicon: { status: "fail", value: 404 },
        not_found_status: { status: "pass", value: 404 },
        host_canonical: standardPorts ? { status: "fail", value: 302 } : { status: "na", value: null },
        spf: { status: "fail", value: null },
        dmarc: { status: "pass", value: "quarantine" },
        image_dimensions: { status: "fail", value: 4 },
        og_required: { status: "fail", value: 5 },
      },
      caps: standardPorts ? [{ code: "tls_cert_valid", cap: 39 }, { code: "https_redirect", cap: 79 }] : [{ code: "tls_cert_valid", cap: 39 }],
      rank: 39,
      neverFetched: [],
    }),
  };
}
