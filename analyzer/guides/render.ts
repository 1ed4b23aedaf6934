// The guide pages as HTML: a self-contained document per guide and an index. Pure: the same data
// always gives the same text, every piece of data is escaped, and the pages load nothing (one
// inline style sheet, no script, no image), so a strict Content-Security-Policy can serve them.
import type { Guide, GuideSection, Snippet } from "./types.ts";

/** Where the pages live at the service's origin: /guides and /guides/{id}. */
export const GUIDES_PATH = "/guides";

const DESCRIPTION_CHARS = 160;

// How any fix reaches Svc's report: said once per page rather than at the end of every section.
const AFTER_FIX =
  "После исправления проверьте сайт в Svc заново (<code>POST /analyze</code> с <code>fresh: true</code>: отчёт моложе часа иначе берётся из кэша) " +
  "или дождитесь плановой проверки: задача закроется, когда проверка пройдёт. Проверки по полному обходу сайта пересчитываются " +
  "в первом анализе после нового обхода (<code>POST /crawl/{host}</code>).";

const STYLE = [
  "body{margin:0;font:16px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d1d1f;background:#fff}",
  "header,main{max-width:52rem;margin:0 auto;padding:0 1rem}",
  "header{padding-top:1rem}",
  "h1{font-size:1.9rem;line-height:1.25}",
  "h2{margin-top:2.5rem;padding-top:1rem;border-top:1px solid #ddd;font-size:1.4rem}",
  "h3{margin-bottom:.25rem;font-size:1.05rem}",
  "code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f3f5;padding:0 .2em;border-radius:3px}",
  "pre{overflow-x:auto;background:#f3f3f5;padding:.75rem;border-radius:4px}",
  "pre code{padding:0;background:none}",
  "figure{margin:1rem 0}",
  "figcaption{font-size:.85rem;color:#555}",
  ".check{color:#555;font-size:.9rem}",
  "a{color:#0b57d0}",
].join("");

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** Prose of the guides: escaped, `backticks` as <code>, blank lines between paragraphs. */
function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`)
    .join("\n");
}

/** Prose without its code marks, for plain-text places such as the meta description. */
function plain(text: string): string {
  return text.replace(/`([^`]+)`/g, "$1").replace(/\s+/g, " ").trim();
}

/** A text as a meta description: whole when short, else cut at a word before DESCRIPTION_CHARS code points. */
function description(text: string): string {
  const chars = [...plain(text)];
  if (chars.length <= DESCRIPTION_CHARS) return chars.join("");
  const cut = chars.slice(0, DESCRIPTION_CHARS - 1).join("");
  return `${cut.slice(0, cut.lastIndexOf(" ")).replace(/[\s,.;:—-]+$/, "")}…`;
}

/** "1 проверка", "3 проверки", "11 проверок": Russian plural of a count. */
export function checksCount(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const word = tens >= 11 && tens <= 14 ? "проверок" : ones === 1 ? "проверка" : ones >= 2 && ones <= 4 ? "проверки" : "проверок";
  return `${n} ${word}`;
}

function document(title: string, about: string, body: string): string {
  return [
    "<!DOCTYPE html>",
    '<html lang="ru">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(about)}">`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function snippet(s: Snippet): string {
  return `<figure><figcaption>${escapeHtml(s.caption)}</figcaption><pre><code>${escapeHtml(s.code.replace(/^\n+|\s+$/g, ""))}</code></pre></figure>`;
}

function section(s: GuideSection): string {
  return [
    `<section id="${escapeHtml(s.code)}">`,
    `<h2>${escapeHtml(s.heading)}</h2>`,
    `<p class="check">Проверка <a href="#${escapeHtml(s.code)}"><code>${escapeHtml(s.code)}</code></a></p>`,
    "<h3>В чём проблема</h3>",
    paragraphs(s.problem),
    "<h3>Как Svc это проверяет</h3>",
    paragraphs(s.rule),
    "<h3>Как исправить</h3>",
    paragraphs(s.fix),
    ...s.examples.map(snippet),
    "<h3>Как убедиться, что исправлено</h3>",
    paragraphs(s.verify),
    "</section>",
  ].join("\n");
}

/** The page of one guide: its intro, a list of its checks, and a section anchored by each check's code. */
export function renderGuidePage(guide: Guide): string {
  const contents = guide.sections
    .map((s) => `<li><a href="#${escapeHtml(s.code)}">${escapeHtml(s.heading)}</a> <code>${escapeHtml(s.code)}</code></li>`)
    .join("\n");
  const body = [
    `<header><nav><a href="${GUIDES_PATH}">Все руководства Svc</a></nav></header>`,
    "<main>",
    "<article>",
    `<h1>${escapeHtml(guide.title)}</h1>`,
    paragraphs(guide.intro),
    `<nav aria-label="Проверки"><p>${checksCount(guide.sections.length)} в этом руководстве:</p>`,
    `<ul>\n${contents}\n</ul></nav>`,
    `<p>${AFTER_FIX}</p>`,
    ...guide.sections.map(section),
    "</article>",
    "</main>",
  ].join("\n");
  return document(`${guide.title} — руководства Svc`, description(guide.intro), body);
}

/** The index of the guides: each with a link, its intro's first words and links to its checks. */
export function renderGuideIndex(guides: readonly Guide[]): string {
  const items = guides.map((g) => {
    const checks = g.sections.map((s) => `<li><a href="${GUIDES_PATH}/${escapeHtml(g.id)}#${escapeHtml(s.code)}">${escapeHtml(s.heading)}</a></li>`).join("\n");
    return [
      `<li><h2><a href="${GUIDES_PATH}/${escapeHtml(g.id)}">${escapeHtml(g.title)}</a></h2>`,
      `<p>${escapeHtml(description(g.intro))} <span class="check">(${checksCount(g.sections.length)})</span></p>`,
      `<ul>\n${checks}\n</ul></li>`,
    ].join("\n");
  });
  const total = guides.reduce((n, g) => n + g.sections.length, 0);
  const body = [
    "<main>",
    "<h1>Руководства Svc</h1>",
    "<p>Как Svc проверяет сайт и как исправить то, что он нашёл. У каждой проверки свой раздел: в чём проблема, " +
      "по какому правилу Svc её находит, как её исправить и как убедиться, что исправлено.</p>",
    `<p>Руководств: ${guides.length}, проверок в них: ${total}.</p>`,
    `<ul>\n${items.join("\n")}\n</ul>`,
    "</main>",
  ].join("\n");
  return document("Руководства Svc по проверкам сайта", "Как Svc проверяет сайт и как исправить найденное: руководства по каждой проверке.", body);
}
