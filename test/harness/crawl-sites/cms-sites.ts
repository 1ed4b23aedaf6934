import { HTML_TYPE, type CrawlSite, type Route } from "./serve-crawl-site.ts";

// Two small sites built like the CMSs of findings real-sites.md (issue 33), with their real markup
// patterns and a few planted faults, and what a correct crawl of each finds.
//
// WordPress 6 (Twenty Twenty-Three): posts with comment-reply links (`?replytocom=N`, nofollow) and
// the hidden "cancel reply" self-link (nofollow), home pagination linked only by "next", an
// attachment page, an author archive listed only in the sitemap with its own pagination, a
// broken <img>, a link to a missing PDF and to a missing post.
//
// MediaWiki 1.39 (Vector legacy): short URLs /wiki/Title_Case, the robots.txt mediawiki.org
// recommends, the "Printable version" link (`javascript:print();`), the nofollowed
// Special:RecentChangesLinked link, red links (`class="new"`, `…&action=edit&redlink=1`), File:
// description pages (HTML under a .png name) and the uploaded file itself.

const TEXT =
  "Debian packages this program with care. The maintainers follow upstream releases, apply the " +
  "patches the distribution needs and write the manual pages that upstream lacks, so that every " +
  "user gets the same documented behaviour on every architecture the archive supports. ";

function body(paragraphs: number): string {
  return Array.from({ length: paragraphs }, (_, i) => `<p>${TEXT}Paragraph ${i + 1}.</p>`).join("\n");
}

const page = (html: string): Route => ({ type: HTML_TYPE, body: html });
const PNG: Route = { type: "image/png", body: Buffer.from("89504e470d0a1a0a0000000d49484452", "hex") };

// --- WordPress ---------------------------------------------------------------------------------

/** Home pagination pages (/page/2/ … /page/N/) and author pagination pages. */
export const WP_HOME_PAGES = 5;
export const WP_AUTHOR_PAGES = 6;

const WP_POSTS = ["hello-world", "plank-stupidly-simple", "weekly-roundup"] as const;

function wpLayout(origin: string, title: string, main: string, canonical?: string): string {
  return `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Debian Notes</title>
${canonical ? `<link rel="canonical" href="${canonical}">` : ""}
<link rel="stylesheet" id="twentytwentythree-style-css" href="${origin}/wp-content/themes/twentytwentythree/style.css?ver=1.0" media="all">
<script src="${origin}/wp-includes/js/comment-reply.min.js?ver=6.1.9" id="comment-reply-js" async></script>
<link rel="alternate" type="application/rss+xml" title="Debian Notes » Feed" href="${origin}/feed/">
</head><body class="wp-site-blocks">
<header><p class="wp-block-site-title"><a href="${origin}" rel="home">Debian Notes</a></p>
<nav><a href="${origin}/about/">About</a> <a href="${origin}/category/games/">Games</a> <a href="${origin}/2022/11/">November 2022</a></nav></header>
<main>${main}</main>
<footer><p>Proudly powered by <a href="https://wordpress.org" rel="nofollow">WordPress</a></p></footer>
</body></html>`;
}

function wpPost(origin: string, slug: string, extra: string): string {
  const url = `${origin}/2022/11/${slug}/`;
  const comments = [11, 12]
    .map(
      (id) =>
        `<li id="comment-${id}"><p>Thanks, this helped.</p><a rel="nofollow" class="comment-reply-link" href="${url}?replytocom=${id}#respond" data-commentid="${id}" aria-label="Reply to reader ${id}">Reply</a></li>`,
    )
    .join("");
  const main = `<h1>${slug.replace(/-/g, " ")}</h1>${body(4)}${extra}
<p>Filed under <a href="${origin}/category/games/" rel="category tag">Games</a>.</p>
<ol class="commentlist">${comments}</ol>
<div id="respond"><h3>Leave a Reply <small><a rel="nofollow" id="cancel-comment-reply-link" href="${url}#respond" style="display:none;">Cancel reply</a></small></h3>
<form action="${origin}/wp-comments-post.php" method="post"><textarea name="comment"></textarea></form></div>`;
  return wpLayout(origin, slug.replace(/-/g, " "), main, url);
}

function wpArchive(origin: string, title: string, links: string[], next?: string): string {
  const list = links.map((l) => `<li><a href="${l}">${l.replace(origin, "")}</a></li>`).join("");
  return wpLayout(origin, title, `<h1>${title}</h1>${body(1)}<ul>${list}</ul>${next ? `<a class="next" href="${next}">Older posts</a>` : ""}`);
}

function wpRoutes(origin: string): Map<string, Route> {
  const routes = new Map<string, Route>();
  const post = (slug: string) => `${origin}/2022/11/${slug}/`;
  const extras: Record<(typeof WP_POSTS)[number], string> = {
    "hello-world": `<p>See the <a href="${origin}/2022/05/nonexistent-article/">old article</a> and the <a href="${origin}/wp-content/uploads/2022/03/annual-report.pdf">annual report</a>; the <a href="http://127.0.0.1:9/old-site/">old site</a> is gone.</p>`,
    "plank-stupidly-simple": `<figure><a href="${post("plank-stupidly-simple")}screenshot-10/"><img src="${origin}/wp-content/uploads/2022/11/screenshot-10.png" alt="Plank on the desktop" width="640" height="400"></a></figure>`,
    "weekly-roundup": `<figure><img src="${origin}/wp-content/uploads/2023/01/missing-diagram.png" alt="How the parts fit"></figure><p>Write to <a href="http://localhost:${new URL(origin).port}/about/">us</a>.</p>`,
  };
  for (const slug of WP_POSTS) routes.set(`/2022/11/${slug}/`, page(wpPost(origin, slug, extras[slug])));
  // The attachment page of the screenshot: linked from its post, kept out of the sitemap by WordPress.
  routes.set(
    "/2022/11/plank-stupidly-simple/screenshot-10/",
    page(wpLayout(origin, "screenshot-10", `<h1>screenshot-10</h1><p><a href="${origin}/wp-content/uploads/2022/11/screenshot-10.png"><img src="${origin}/wp-content/uploads/2022/11/screenshot-10.png" alt="" width="640" height="400"></a></p>`)),
  );
  routes.set("/wp-content/uploads/2022/11/screenshot-10.png", PNG);
  routes.set("/about/", page(wpLayout(origin, "About", `<h1>About</h1>${body(3)}`, `${origin}/about/`)));
  routes.set("/category/games/", page(wpArchive(origin, "Games", WP_POSTS.map(post))));
  // The month's archive: a listing WordPress keeps out of its sitemap.
  routes.set("/2022/11/", page(wpArchive(origin, "Month: November 2022", WP_POSTS.map(post))));
  // Home pagination: each page links only to the next one (Twenty Twenty-Three's query loop).
  const homeNext = (n: number) => (n < WP_HOME_PAGES ? `${origin}/page/${n + 1}/` : undefined);
  routes.set("/", page(wpArchive(origin, "Debian Notes", WP_POSTS.map(post), homeNext(1))));
  for (let n = 2; n <= WP_HOME_PAGES; n++) routes.set(`/page/${n}/`, page(wpArchive(origin, `Debian Notes – Page ${n}`, [post("hello-world")], homeNext(n))));
  // The author archive: only wp-sitemap-users-1.xml lists it; the theme links it from nowhere.
  const authorNext = (n: number) => (n < WP_AUTHOR_PAGES ? `${origin}/author/editor/page/${n + 1}/` : undefined);
  routes.set("/author/editor/", page(wpArchive(origin, "editor", WP_POSTS.map(post), authorNext(1))));
  for (let n = 2; n <= WP_AUTHOR_PAGES; n++) routes.set(`/author/editor/page/${n}/`, page(wpArchive(origin, `editor – Page ${n}`, [post("weekly-roundup")], authorNext(n))));
  routes.set("/wp-content/themes/twentytwentythree/style.css", { type: "text/css", body: "body{margin:0}" });
  routes.set("/wp-includes/js/comment-reply.min.js", { type: "application/javascript", body: "/* comment reply */" });
  routes.set("/robots.txt", { type: "text/plain; charset=utf-8", body: `User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: ${origin}/wp-sitemap.xml\n` });
  const urlset = (urls: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`;
  routes.set("/wp-sitemap.xml", {
    type: "application/xml",
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/wp-sitemap-posts-post-1.xml</loc></sitemap><sitemap><loc>${origin}/wp-sitemap-users-1.xml</loc></sitemap></sitemapindex>`,
  });
  routes.set("/wp-sitemap-posts-post-1.xml", { type: "application/xml", body: urlset([`${origin}/`, ...WP_POSTS.map(post), `${origin}/about/`]) });
  routes.set("/wp-sitemap-users-1.xml", { type: "application/xml", body: urlset([`${origin}/author/editor/`]) });
  return routes;
}

/** A WordPress-shaped blog. */
export function wordpressSite(): CrawlSite {
  return { name: "wordpress", routes: wpRoutes };
}

// --- MediaWiki ---------------------------------------------------------------------------------

export const MW_ARTICLES = ["Main_Page", "Ls", "Lslocks", "Category:User_commands"] as const;

function mwPage(origin: string, title: string, content: string): string {
  const href = (t: string) => `${origin}/wiki/${t}`;
  return `<!DOCTYPE html>
<html class="client-nojs" lang="en" dir="ltr"><head><meta charset="UTF-8"><title>${title.replace(/_/g, " ")} - Debian Manual Wiki</title>
<meta name="viewport" content="width=1000"><link rel="stylesheet" href="${origin}/load.php?lang=en&amp;modules=skins.vector.styles.legacy&amp;only=styles&amp;skin=vector">
</head><body class="mediawiki skin-vector-legacy">
<div id="content" class="mw-body"><h1 id="firstHeading" class="firstHeading">${title.replace(/_/g, " ")}</h1>
<div id="mw-content-text">${content}</div></div>
<div id="mw-navigation"><div id="p-navigation"><ul><li><a href="${href("Main_Page")}" title="Visit the main page">Main page</a></li>
<li><a href="${href("Special:RecentChanges")}">Recent changes</a></li><li><a href="${href("Special:Random")}">Random page</a></li></ul></div>
<div id="p-tb"><ul><li><a href="${href(`Special:WhatLinksHere/${title}`)}">What links here</a></li>
<li><a href="${href(`Special:RecentChangesLinked/${title}`)}" rel="nofollow">Related changes</a></li>
<li><a href="javascript:print();" rel="alternate" title="Printable version of this page">Printable version</a></li>
<li><a href="${origin}/index.php?title=${title}&amp;action=info">Page information</a></li></ul></div>
<div id="p-views"><a href="${origin}/index.php?title=${title}&amp;action=edit">Edit</a> <a href="${origin}/index.php?title=${title}&amp;action=history">View history</a></div></div>
<div id="footer"><ul id="footer-places"><li><a href="${href("Debian_Manual_Wiki:Privacy_policy")}">Privacy policy</a></li></ul></div>
</body></html>`;
}

function mwRoutes(origin: string): Map<string, Route> {
  const routes = new Map<string, Route>();
  const link = (t: string, text = t.replace(/_/g, " ")) => `<a href="${origin}/wiki/${t}" title="${text}">${text}</a>`;
  const red = (t: string) => `<a href="${origin}/index.php?title=${t}&amp;action=edit&amp;redlink=1" class="new" title="${t} (page does not exist)">${t}</a>`;
  const article = (t: string, content: string) => routes.set(`/wiki/${t}`, page(mwPage(origin, t, content)));
  article("Main_Page", `${body(2)}<p>Start with ${link("Ls")} and ${link("Category:User_commands")}.</p>`);
  article(
    "Ls",
    `${body(3)}<p>See also ${link("Lslocks")}, ${red("Dircolors")}(1) and ${red("Coreutils")}.</p><div class="thumb"><a href="${origin}/wiki/File:Terminal-0.png" class="image"><img alt="" src="${origin}/images/0/0a/Terminal-0.png" width="300" height="200"></a></div>`,
  );
  article("Lslocks", `${body(3)}<p>See also ${link("Ls")} and ${red("Dircolors")}(1).</p>`);
  article("Category:User_commands", `${body(1)}<ul><li>${link("Ls")}</li><li>${link("Lslocks")}</li></ul>`);
  // A File: description page: HTML under a .png name.
  article("File:Terminal-0.png", `<div class="fullImageLink"><a href="${origin}/images/0/0a/Terminal-0.png"><img alt="File:Terminal-0.png" src="${origin}/images/0/0a/Terminal-0.png" width="800" height="533"></a></div>${body(1)}`);
  routes.set("/images/0/0a/Terminal-0.png", PNG);
  routes.set("/load.php", { type: "text/css; charset=utf-8", body: ".mw-body{margin:0}" });
  routes.set("/", { status: 301, headers: { location: `${origin}/wiki/Main_Page` }, body: "" });
  routes.set("/robots.txt", { type: "text/plain; charset=utf-8", body: "User-agent: *\nDisallow: /index.php?\nDisallow: /index.php/\nDisallow: /wiki/Special:\n" });
  return routes;
}

/** A MediaWiki-shaped wiki. */
export function mediawikiSite(): CrawlSite {
  return { name: "mediawiki", routes: mwRoutes };
}
