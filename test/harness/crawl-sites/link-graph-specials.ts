import { WORDS, type Prng } from "./generated-text.ts";
import type { LinkGraphModel, Section } from "./link-graph-types.ts";
import type { PageFactory } from "./page-factory.ts";
import { SITE_NAME, type LinkSpec, type PageModel } from "./page-model.ts";
import { legacyCatalogue } from "./legacy-page.ts";

// The defects of the link-graph site, each placed on seeded-random "host" items: broken links,
// redirects, duplicates, canonicals, hreflang, robots-blocked pages, files behind .html names,
// an oversized page, malformed HTML and external links. Pages with a role (near-duplicates, the
// copied original, the URL-variant page) never host, so their links stay what the role needs.

export interface SpecialsContext {
  readonly home: PageModel;
  readonly about: PageModel;
  readonly items: ReadonlyMap<Section, PageModel[]>;
  readonly indexes: ReadonlyMap<Section, PageModel>;
  readonly largePageBytes: number;
}

const link = (page: PageModel, text = page.h1): LinkSpec => ({ href: page.path, text });

export function addSpecials(model: LinkGraphModel, f: PageFactory, ctx: SpecialsContext): void {
  const rng = f.rng;
  const { pages, redirects, errors, files, intended } = model;
  const add = (...ps: PageModel[]) => ps.forEach((p) => pages.set(p.path, p));
  const section = (s: Section) => ctx.items.get(s) ?? [];
  const at = (s: Section, i: number) => section(s)[i] as PageModel;

  // Roles first. Near-duplicate pairs: [section, a, b, words substituted]; b becomes a's text.
  const near: [Section, number, number, number][] = [
    ["guides", 4, 9, 1],
    ["blog", 6, 13, 2],
    ["products", 7, 20, 4],
  ];
  const original = at("products", 3);
  const variant = at("products", 1);
  const partial = [at("news", 5), at("news", 11)] as const;
  const reserved = new Set<PageModel>([original, variant, ...partial, ...near.flatMap(([s, a, b]) => [at(s, a), at(s, b)])]);
  const free = [...ctx.items.values()].flat().filter((p) => !reserved.has(p));
  const hosts = (n: number) => rng.sample(free, n);
  const linkFrom = (n: number, ...links: LinkSpec[]) => hosts(n).forEach((h) => h.links.push(...links));

  // Redirects: a two-hop chain (relative, then absolute Location), a loop, a single 301, one to
  // another site, and one only the sitemap lists. Every page linking /old-a links /new-a too, so
  // a crawler's depth is the same whether redirect hops count or not.
  const newA = f.page({ path: "/new-a", h1: "New arrivals" });
  add(newA);
  redirects.set("/old-a", { status: 301, location: "/old-b" });
  redirects.set("/old-b", { status: 302, location: "/new-a", absolute: true });
  redirects.set("/loop-1", { status: 301, location: "/loop-2" });
  redirects.set("/loop-2", { status: 301, location: "/loop-1" });
  redirects.set("/summer-sale", { status: 301, location: "/products" });
  redirects.set("/go/partner", { status: 302, location: "http://127.0.0.9:1/welcome" });
  redirects.set("/news/2023-recap", { status: 301, location: "/news" });
  linkFrom(3, { href: "/old-a", text: "Our old arrivals page" }, link(newA));
  linkFrom(1, { href: "/loop-1", text: "Gift cards" });
  linkFrom(1, { href: "/summer-sale", text: "Summer sale" });
  ctx.home.links.push({ href: "/summer-sale", text: "Summer sale" });
  linkFrom(2, { href: "/go/partner", text: "Our rental partner" });

  // Broken internal links: three 404s (not routed at all), a 500 and a 410.
  errors.set("/reports/live-status", 500);
  errors.set("/news/withdrawn-story", 410);
  const broken: [string, number][] = [
    ["/blog/deleted-post", 2],
    ["/products/discontinued-stove", 3],
    ["/guides/setup-guide-old", 1],
    ["/reports/live-status", 2],
    ["/news/withdrawn-story", 2],
  ];
  for (const [href, n] of broken) linkFrom(n, { href, text: `More about ${href.split("/").pop()?.replace(/-/g, " ")}` });

  // Duplicates by title and description, and pages without a description.
  const retitled = rng.sample(free, free.length);
  const take = (s: Section, n: number) => {
    const out = retitled.filter((p) => p.path.startsWith(`/${s}/`)).slice(0, n);
    out.forEach((p) => retitled.splice(retitled.indexOf(p), 1));
    return out;
  };
  for (const p of take("products", 3)) p.title = `Outdoor gear | ${SITE_NAME}`;
  for (const p of take("blog", 2)) p.title = `Untitled post | ${SITE_NAME}`;
  for (const p of take("news", 3)) p.description = `Read the latest news from ${SITE_NAME}.`;
  for (const p of take("guides", 2)) p.description = "Everything you need to know before your next trip.";
  for (const p of take("blog", 3)) p.description = null;

  // Canonicals beyond the self-referencing default: to a 404, and to another host (syndication).
  const [toMissing, toOtherHost] = take("guides", 2);
  if (toMissing) toMissing.canonical = "/guides/retired-guide";
  if (toOtherHost) toOtherHost.canonical = "http://example.invalid/articles/original-story";

  // URL variants: one page reachable by five URLs that a loose key folds into two.
  variant.aliases.push(`${variant.path}/`);
  const variants = [`${variant.path}/`, `${variant.path}?utm_source=newsletter`, `${variant.path}?b=2&a=1`, `${variant.path}?a=1&b=2`];
  hosts(variants.length).forEach((h, i) => h.links.push({ href: variants[i] as string, text: variant.h1 }));

  // hreflang: a pair that names each other, and a pair whose French page does not link back.
  const pricing = f.page({ path: "/en/pricing", h1: "Pricing" });
  const preise = f.page({ path: "/de/preise", h1: "Preise", lang: "de" });
  pricing.hreflang = preise.hreflang = [
    { lang: "en", path: "/en/pricing" },
    { lang: "de", path: "/de/preise" },
  ];
  const shipping = f.page({ path: "/en/shipping", h1: "Shipping" });
  const livraison = f.page({ path: "/fr/livraison", h1: "Livraison", lang: "fr" });
  shipping.hreflang = [
    { lang: "en", path: "/en/shipping" },
    { lang: "fr", path: "/fr/livraison" },
  ];
  add(pricing, preise, shipping, livraison);

  // robots.txt disallows /private/ but allows /private/press-kit.
  const privatePages = ["drafts", "staff", "reports"].map((name) => f.page({ path: `/private/${name}`, h1: `Internal ${name}` }));
  const pressKit = f.page({ path: "/private/press-kit", h1: "Press kit" });
  add(...privatePages, pressKit);
  for (const p of privatePages) linkFrom(1, link(p));

  // Malformed HTML whose links a lenient parser still finds; its children are reachable only through it.
  const legacy = legacyCatalogue(f);
  add(legacy.page, ...legacy.children, ...legacy.hidden);

  // Files: a PDF behind an .html name, and one with its proper name; and a page over the body limit.
  files.set("/downloads/brochure.html", { type: "application/pdf", body: pdf(rng) });
  files.set("/downloads/catalogue.pdf", { type: "application/pdf", body: pdf(rng) });
  linkFrom(1, { href: "/downloads/brochure.html", text: "Brochure" });
  const large = f.page({ path: "/guides/complete-parts-reference", h1: "Complete parts reference" });
  large.paragraphs = large.paragraphs.slice(0, 1);
  large.bulkBytes = ctx.largePageBytes;
  add(large);
  ctx.indexes.get("guides")?.links.push(link(large));

  ctx.about.links.push(
    link(pricing),
    link(preise),
    link(shipping),
    link(livraison),
    link(legacy.page, "Our old catalogue"),
    link(pressKit),
    { href: "/downloads/brochure.html", text: "Brochure" },
    { href: "/downloads/catalogue.pdf", text: "Catalogue (PDF)" },
    { href: "https://partner.invalid/", text: "Our partner", rel: "sponsored nofollow" },
  );

  // External links: five hosts, some nofollow, one protocol-relative.
  hosts(12).forEach((h, i) => h.links.push({ href: `https://example.invalid/reviews/${i + 1}`, text: "An independent review", ...(i % 3 === 0 ? { rel: "nofollow" } : {}) }));
  hosts(3).forEach((h, i) => h.links.push({ href: `https://partner.invalid/offers/${i + 1}`, text: "Partner offer", rel: "nofollow ugc" }));
  linkFrom(2, { href: "http://127.0.0.7:8080/status", text: "Service status" });
  hosts(4).forEach((h, i) => h.links.push({ href: `//forum.invalid/t/${100 + i}`, text: "Discuss on the forum" }));

  // Exact duplicates: two copies of one product page, self-canonical, each linked from one page.
  const copies = [`${original.path}-copy`, `/shop/${original.path.split("/").pop() ?? "item"}`].map((path): PageModel => ({ ...original, path, aliases: [], canonical: path, links: [...original.links] }));
  add(...copies);
  for (const c of copies) linkFrom(1, link(c, original.h1));
  intended.exactDuplicates = [original.path, ...copies.map((c) => c.path)];

  // Near-duplicates last: b takes a's final text and links, with a few words changed.
  for (const [s, ai, bi, n] of near) {
    const a = at(s, ai);
    const b = at(s, bi);
    b.h1 = a.h1;
    b.paragraphs = substitute(rng, a.paragraphs, n);
    b.links = [...a.links];
    intended.nearPairs.push({ a: a.path, b: b.path, substitutions: n });
  }
  const [pa, pb] = partial;
  const half = Math.ceil(pa.paragraphs.length / 2);
  pb.paragraphs = [...pa.paragraphs.slice(0, half), ...pb.paragraphs.slice(half)];
  intended.partialPair = { a: pa.path, b: pb.path };
}

/** The paragraphs with `count` lower-case words, spread over the text, replaced by other words. */
function substitute(rng: Prng, paras: readonly string[], count: number): string[] {
  const out = paras.map((p) => p.split(" "));
  for (let c = 1; c <= count; c++) {
    const para = out[Math.floor((c * out.length) / (count + 1))] as string[];
    let i = Math.floor(para.length / 2);
    while (!/^[a-z]+$/.test(para[i] ?? "")) i += 1;
    const before = para[i] as string;
    let after = before;
    while (after === before) after = rng.pick(WORDS);
    para[i] = after;
  }
  return out.map((words) => words.join(" "));
}

/** A small PDF-looking file: the header, seeded bytes, the trailer. */
function pdf(rng: Prng): Buffer {
  const bytes = Buffer.from(Array.from({ length: 2048 }, () => rng.int(256)));
  return Buffer.concat([Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1"), bytes, Buffer.from("\n%%EOF\n")]);
}
