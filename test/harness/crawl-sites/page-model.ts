// One HTML page of a generated site as data, and its rendering. The manifest reads the same data
// the renderer writes, so what a page links to is known without parsing it; the self-tests parse
// the rendered pages independently and must find the same.

export const SITE_NAME = "Acme Outdoor";

export interface LinkSpec {
  /** As the model means it: a path ("/blog?x=1#top"), an absolute URL, or another scheme (mailto:). */
  readonly href: string;
  readonly text: string;
  readonly rel?: string;
  /** Written as origin + href (a path), as some sites write their own links. */
  readonly absolute?: boolean;
}

export interface PageModel {
  /** The path it is served at. */
  path: string;
  /** Other paths serving the very same bytes (a trailing-slash twin). */
  aliases: string[];
  lang: string;
  title: string;
  description: string | null;
  /** A path (written as an absolute URL on the site's origin), an absolute URL of another host, or null for none. */
  canonical: string | null;
  /** Alternates by language: paths on this site. */
  hreflang: { lang: string; path: string }[];
  h1: string;
  paragraphs: string[];
  /** The links of the main content ("Read next"); header and footer links come from the template. */
  links: LinkSpec[];
  /** Bytes of a parts table appended to the content (the oversized page). */
  bulkBytes?: number;
  /** Hand-written HTML instead of the template; `links` then lists every link a lenient parser finds in it. */
  raw?: (origin: string) => string;
}

export const NAV: readonly LinkSpec[] = [
  { href: "/", text: SITE_NAME },
  { href: "/", text: "Home" },
  { href: "/blog", text: "Blog" },
  { href: "/guides", text: "Guides" },
  { href: "/products", text: "Products" },
  { href: "/news", text: "News" },
  { href: "/about", text: "About us", absolute: true },
  { href: "/contact#form", text: "Contact" },
];

export const FOOTER: readonly LinkSpec[] = [
  { href: "/privacy", text: "Privacy" },
  { href: "https://social.invalid/acme-outdoor", text: "Follow us" },
  { href: "mailto:hello@acme-outdoor.invalid", text: "Write to us" },
];

/** The links every page of a site carries: the header's (the first is the logo) and the footer's. */
export interface Chrome {
  readonly siteName: string;
  readonly nav: readonly LinkSpec[];
  readonly footer: readonly LinkSpec[];
}

export const ACME_CHROME: Chrome = { siteName: SITE_NAME, nav: NAV, footer: FOOTER };

/** Every link of a page in document order: header, content, footer (or, for a hand-written page, its list). */
export function pageLinks(page: PageModel, chrome: Chrome = ACME_CHROME): readonly LinkSpec[] {
  return page.raw ? page.links : [...chrome.nav, ...page.links, ...chrome.footer];
}

/** The main text: the words near-duplicate detection compares. */
export function mainText(page: PageModel): string {
  return [page.h1, ...page.paragraphs].join(" ");
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
export const esc = (s: string) => s.replace(/[&<>"]/g, (c) => escapes[c] ?? c);

function absolute(path: string, origin: string): string {
  return path.startsWith("/") ? origin + path : path;
}

function anchor(link: LinkSpec, origin: string): string {
  const href = link.absolute ? origin + link.href : link.href;
  const rel = link.rel ? ` rel="${esc(link.rel)}"` : "";
  return `<a href="${esc(href)}"${rel}>${esc(link.text)}</a>`;
}

/** Rows of a parts table until `bytes` are reached: the bulk of the oversized page. */
function partsTable(bytes: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const row = `<tr><td>AC-${String(i).padStart(7, "0")}</td><td>Replacement part ${i % 977} for series ${i % 31}</td><td>${(i % 9000) / 100 + 1}</td></tr>\n`;
    rows.push(row);
    size += row.length;
  }
  return `<table class="parts"><thead><tr><th>Part</th><th>Description</th><th>Price</th></tr></thead><tbody>\n${rows.join("")}</tbody></table>`;
}

/** The page as the server sends it. */
export function renderPage(page: PageModel, origin: string, chrome: Chrome = ACME_CHROME): string {
  if (page.raw) return page.raw(origin);
  const head = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(page.title)}</title>`,
    page.description === null ? "" : `<meta name="description" content="${esc(page.description)}">`,
    page.canonical === null ? "" : `<link rel="canonical" href="${esc(absolute(page.canonical, origin))}">`,
    ...page.hreflang.map((h) => `<link rel="alternate" hreflang="${h.lang}" href="${esc(origin + h.path)}">`),
    `<link rel="stylesheet" href="/assets/site.css">`,
  ].filter(Boolean);
  const [logo, ...nav] = chrome.nav;
  const related = page.links.length === 0 ? "" : `\n<section class="related"><h2>Read next</h2>\n<ul>\n${page.links.map((l) => `<li>${anchor(l, origin)}</li>`).join("\n")}\n</ul>\n</section>`;
  return `<!DOCTYPE html>
<html lang="${page.lang}">
<head>
${head.join("\n")}
</head>
<body>
<header>${logo ? anchor(logo, origin) : ""}<nav><ul>${nav.map((l) => `<li>${anchor(l, origin)}</li>`).join("")}</ul></nav></header>
<main>
<article>
<h1>${esc(page.h1)}</h1>
${page.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("\n")}
${page.bulkBytes ? partsTable(page.bulkBytes) : ""}
</article>${related}
</main>
<footer><p>&copy; 2026 ${esc(chrome.siteName)}. ${chrome.footer.map((l) => anchor(l, origin)).join(" · ")}</p></footer>
</body>
</html>
`;
}
