import { createRequire } from "node:module";

// HTML to plain text that keeps the paragraphs: block elements become line breaks, scripts and
// styles are dropped, entities decoded.

const BLOCK = new Set(["p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr", "blockquote", "pre", "figure", "form", "dl", "dt", "dd"]);
const SKIP = new Set(["script", "style", "noscript", "template", "head"]);

export function htmlToText(html: string): string {
  // Required on first use: the catalogue loads without the parser.
  const { Parser } = createRequire(import.meta.url)("htmlparser2") as typeof import("htmlparser2");
  let out = "";
  let skip = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skip++;
        else if (name === "br") out += "\n";
        else if (BLOCK.has(name)) out += "\n\n";
        else if (name === "td" || name === "th") out += "\t";
      },
      ontext(text) {
        if (skip === 0) out += text.replace(/\s+/g, " ");
      },
      onclosetag(name) {
        if (SKIP.has(name)) skip = Math.max(0, skip - 1);
        else if (BLOCK.has(name)) out += "\n\n";
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out
    .split("\n")
    .map((l) => l.replace(/[ \t]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Whether a text looks like HTML (has tags). */
export function looksLikeHtml(text: string): boolean {
  return /<\/?[a-z][a-z0-9]*(\s[^>]*)?>/i.test(text);
}
