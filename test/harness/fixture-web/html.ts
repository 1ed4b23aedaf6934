// HTML of the fixture sites: pages shaped like the ones real sites serve (head metadata, Open
// Graph, JSON-LD, navigation, prose, images), built from a few options so that each site can get
// its particular defects on purpose.

export interface ImageSpec {
  readonly src: string;
  /** undefined: no alt attribute at all (the defect img_alt_missing looks for). */
  readonly alt?: string;
  /** Both or neither: an image without them is unsized. */
  readonly size?: readonly [number, number];
}

export interface LinkSpec {
  readonly href: string;
  readonly text: string;
}

export interface PageSpec {
  readonly lang: string;
  readonly title: string;
  readonly description?: string;
  /** Absolute URL of the page itself (canonical, og:url). */
  readonly url: string;
  readonly siteName: string;
  readonly h1: string;
  readonly paragraphs: readonly string[];
  readonly nav: readonly LinkSpec[];
  readonly links?: readonly LinkSpec[];
  readonly images?: readonly ImageSpec[];
  /** JSON-LD blocks: objects are serialised, strings are sent as they are (broken ones too). */
  readonly jsonLd?: readonly (object | string)[];
  readonly hreflang?: readonly { readonly lang: string; readonly href: string }[];
  /** og:image; without it no Open Graph tags are sent. */
  readonly ogImage?: string;
  readonly ogType?: string;
  readonly favicon?: string;
  readonly canonical?: boolean;
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => escapes[c] ?? c);

/** A complete HTML document. */
export function htmlPage(p: PageSpec): string {
  const head = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(p.title)}</title>`,
    p.description ? `<meta name="description" content="${esc(p.description)}">` : "",
    p.canonical === false ? "" : `<link rel="canonical" href="${esc(p.url)}">`,
    ...(p.hreflang ?? []).map((h) => `<link rel="alternate" hreflang="${h.lang}" href="${esc(h.href)}">`),
    p.favicon ? `<link rel="icon" href="${esc(p.favicon)}" type="image/x-icon">` : "",
    `<link rel="stylesheet" href="/assets/site.css">`,
    `<script src="/assets/site.js" defer></script>`,
    ...(p.ogImage
      ? [
          `<meta property="og:site_name" content="${esc(p.siteName)}">`,
          `<meta property="og:title" content="${esc(p.title)}">`,
          `<meta property="og:type" content="${p.ogType ?? "website"}">`,
          `<meta property="og:url" content="${esc(p.url)}">`,
          `<meta property="og:image" content="${esc(p.ogImage)}">`,
          `<meta name="twitter:card" content="summary_large_image">`,
        ]
      : []),
    ...(p.jsonLd ?? []).map((j) => `<script type="application/ld+json">${typeof j === "string" ? j : JSON.stringify(j)}</script>`),
  ].filter(Boolean);
  const images = (p.images ?? []).map((img) => {
    const alt = img.alt === undefined ? "" : ` alt="${esc(img.alt)}"`;
    const size = img.size ? ` width="${img.size[0]}" height="${img.size[1]}"` : "";
    return `<figure><img src="${esc(img.src)}"${alt}${size} loading="lazy"></figure>`;
  });
  const list = (links: readonly LinkSpec[]) => links.map((l) => `<li><a href="${esc(l.href)}">${esc(l.text)}</a></li>`).join("");
  return `<!DOCTYPE html>
<html lang="${p.lang}">
<head>
${head.join("\n")}
</head>
<body>
<header><a class="logo" href="/">${esc(p.siteName)}</a><nav><ul>${list(p.nav)}</ul></nav></header>
<main>
<h1>${esc(p.h1)}</h1>
${images.join("\n")}
${p.paragraphs.map((t) => `<p>${esc(t)}</p>`).join("\n")}
${p.links && p.links.length > 0 ? `<section><h2>Read next</h2><ul>${list(p.links)}</ul></section>` : ""}
</main>
<footer><p>&copy; 2024 ${esc(p.siteName)}. All rights reserved.</p></footer>
</body>
</html>
`;
}

/** Paragraphs of about `words` words, cycling through the sentences (each paragraph five of them). */
export function prose(sentences: readonly string[], words: number, offset = 0): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let count = 0;
  for (let i = offset; count < words; i++) {
    const sentence = sentences[i % sentences.length] as string;
    current.push(sentence);
    count += sentence.split(/\s+/).length;
    if (current.length === 5) {
      out.push(current.join(" "));
      current = [];
    }
  }
  if (current.length > 0) out.push(current.join(" "));
  return out;
}

/** A sitemaps.org urlset. */
export function urlset(urls: readonly string[], lastmod = "2024-05-01"): string {
  const entries = urls.map((u) => `  <url><loc>${esc(u)}</loc><lastmod>${lastmod}</lastmod></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

/** A sitemaps.org sitemap index. */
export function sitemapIndex(urls: readonly string[], lastmod = "2024-05-01"): string {
  const entries = urls.map((u) => `  <sitemap><loc>${esc(u)}</loc><lastmod>${lastmod}</lastmod></sitemap>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}
