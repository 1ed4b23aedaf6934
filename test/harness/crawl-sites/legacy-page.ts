import type { PageFactory } from "./page-factory.ts";
import { SITE_NAME, type LinkSpec, type PageModel } from "./page-model.ts";

// A hand-written page from 2009 that nobody validated: unquoted attributes, a tag missing its
// ">", an attribute with no value, a stray quote, misnested and unclosed elements, and a stray
// </html> in the middle with content and links after it. Browsers and lenient parsers (htmlparser2)
// find every link in `links`; the two in a comment and a script string are not links at all, and
// the pages they name are reachable by no crawler that parses HTML.

export interface LegacyPages {
  readonly page: PageModel;
  /** Reachable only through the legacy page. */
  readonly children: PageModel[];
  /** Served (200) but linked only from a comment and a script string. */
  readonly hidden: PageModel[];
}

const TITLE = `Legacy catalogue | ${SITE_NAME}`;
const DESCRIPTION = "The old catalogue page, kept since 2009 and never validated.";
const TEXT = [
  "This page predates the redesign and its markup was written by hand.",
  "Text after a stray end tag, which browsers and lenient parsers still read.",
];

// Every link a lenient parser finds, in document order (hrefs decoded).
const LINKS: LinkSpec[] = [
  { href: "/legacy/tents", text: "Tents" },
  { href: "/legacy/stoves", text: "Stoves" },
  { href: "/legacy/tents#top", text: "Tents again" },
  { href: "/legacy/lanterns", text: "Lanterns" },
  { href: "/legacy/maps?from=legacy&v=1", text: "Maps" },
  { href: "http://example.invalid/legacy-partner", text: "Our old partner", rel: "nofollow" },
  { href: "/", text: "Home" },
];

function html(): string {
  return `<!DOCTYPE html>
<html lang=en>
<head>
<meta charset=utf-8>
<title>${TITLE}</title>
<meta name=description content="${DESCRIPTION}">
<link rel=canonical href=/legacy/catalogue>
</head>
<body bgcolor=#ffffff>
<div id=top class=wrapper
<p>${TEXT[0]}
<table width=100% border=0><tr><td><a href=/legacy/tents>Tents</a><td><a href='/legacy/stoves' class=>Stoves</a>
<tr><td colspan=2><font face=Arial><b><i>Closing tags in the wrong order</b></i></font> <A HREF="/legacy/tents#top">Tents again</A>
</table>
<!-- <a href="/legacy/hidden-comment">Old link, commented out</a> -->
<script>document.write('<a href="/legacy/hidden-script">Written by a script</a>');</script>
</html>
<p>${TEXT[1]}
<a href="/legacy/lanterns" title="Lanterns"">Lanterns</a>
<a href=/legacy/maps?from=legacy&amp;v=1 >Maps</a>
<a href="http://example.invalid/legacy-partner" rel=nofollow>Our old partner</a>
<ul><li>Unclosed list item<li><a href="/">Home</a>
</body>
`;
}

export function legacyCatalogue(f: PageFactory): LegacyPages {
  const page: PageModel = {
    path: "/legacy/catalogue",
    aliases: [],
    lang: "en",
    title: TITLE,
    description: DESCRIPTION,
    canonical: "/legacy/catalogue",
    hreflang: [],
    h1: "",
    paragraphs: TEXT,
    links: LINKS,
    raw: html,
  };
  const children = ["tents", "stoves", "lanterns", "maps"].map((name) => f.page({ path: `/legacy/${name}`, h1: `Legacy ${name}` }));
  const hidden = ["hidden-comment", "hidden-script"].map((name) => f.page({ path: `/legacy/${name}`, h1: `Legacy ${name.replace("-", " ")}` }));
  return { page, children, hidden };
}
