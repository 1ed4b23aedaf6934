import { createRequire } from "node:module";
import { UtilityError, defineUtility } from "../utility.ts";
import { readZipEntry, zipEntries } from "../shared/zip.ts";
import { wordsOf } from "../shared/words.ts";
import { exampleDocx } from "./docx-example.ts";

interface Input {
  file: Uint8Array;
  to: "text" | "html" | "markdown";
}

interface Run {
  readonly text: string;
  readonly href: string | null;
}
type Block =
  | { readonly kind: "heading"; readonly level: number; readonly runs: Run[] }
  | { readonly kind: "paragraph"; readonly runs: Run[] }
  | { readonly kind: "item"; readonly runs: Run[] }
  | { readonly kind: "table"; readonly rows: string[][] };

interface Para {
  style: string | null;
  list: boolean;
  runs: Run[];
}

/** Heading level of a paragraph style (Heading1, heading 2, Title, Заголовок1), or 0. */
function headingLevel(style: string | null): number {
  if (!style) return 0;
  if (/^title$/i.test(style)) return 1;
  const m = /^(?:heading|заголовок)\s*(\d)$/i.exec(style);
  return m ? Math.min(6, Number(m[1])) : 0;
}

function relationships(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]*)"/.exec(m[0])?.[1];
    const target = /\bTarget="([^"]*)"/.exec(m[0])?.[1];
    if (id && target) out.set(id, target.replace(/&amp;/g, "&"));
  }
  return out;
}

/** The blocks of word/document.xml, read as a stream of tags. */
export function docxBlocks(documentXml: string, rels: Map<string, string>): { blocks: Block[]; images: number } {
  // Required on first use: the catalogue loads without the parser.
  const { Parser } = createRequire(import.meta.url)("htmlparser2") as typeof import("htmlparser2");
  const blocks: Block[] = [];
  const tables: { rows: string[][] }[] = [];
  let para: Para | null = null;
  let link: string | null = null;
  let inText = false;
  let images = 0;
  const append = (text: string) => {
    if (!para) return;
    const last = para.runs[para.runs.length - 1];
    if (last && last.href === link) para.runs[para.runs.length - 1] = { text: last.text + text, href: link };
    else para.runs.push({ text, href: link });
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        switch (name) {
          case "w:p":
            para = { style: null, list: false, runs: [] };
            break;
          case "w:pStyle":
            if (para) para.style = attrs["w:val"] ?? null;
            break;
          case "w:numPr":
            if (para) para.list = true;
            break;
          case "w:hyperlink":
            link = (attrs["r:id"] && rels.get(attrs["r:id"])) ?? (attrs["w:anchor"] ? `#${attrs["w:anchor"]}` : null);
            break;
          case "w:t":
            inText = true;
            break;
          case "w:tab":
            append("\t");
            break;
          case "w:br":
            append("\n");
            break;
          case "w:tbl":
            tables.push({ rows: [] });
            break;
          case "w:tr":
            tables[tables.length - 1]?.rows.push([]);
            break;
          case "w:tc":
            tables[tables.length - 1]?.rows[tables[tables.length - 1]!.rows.length - 1]?.push("");
            break;
          case "w:drawing":
          case "w:pict":
            images++;
            break;
        }
      },
      ontext(text) {
        if (inText) append(text);
      },
      onclosetag(name) {
        if (name === "w:t") inText = false;
        else if (name === "w:hyperlink") link = null;
        else if (name === "w:p" && para) {
          const p: Para = para;
          para = null;
          const table = tables[tables.length - 1];
          if (table) {
            const row = table.rows[table.rows.length - 1];
            if (row && row.length > 0) {
              const text = p.runs.map((r) => r.text).join("");
              row[row.length - 1] = row[row.length - 1] === "" ? text : `${row[row.length - 1]}\n${text}`;
            }
            return;
          }
          const level = headingLevel(p.style);
          if (p.runs.length === 0 || p.runs.every((r) => r.text.trim() === "")) return;
          blocks.push(level > 0 ? { kind: "heading", level, runs: p.runs } : p.list ? { kind: "item", runs: p.runs } : { kind: "paragraph", runs: p.runs });
        } else if (name === "w:tbl") {
          const table = tables.pop();
          if (table && tables.length === 0) blocks.push({ kind: "table", rows: table.rows });
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(documentXml);
  parser.end();
  return { blocks, images };
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const plain = (runs: Run[]) => runs.map((r) => r.text).join("");

function render(blocks: Block[], to: Input["to"]): string {
  const out: string[] = [];
  let inList = false;
  for (const b of blocks) {
    if (to === "html" && inList && b.kind !== "item") {
      out.push("</ul>");
      inList = false;
    }
    if (b.kind === "table") {
      if (to === "html") out.push(`<table>${b.rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("")}</table>`);
      else if (to === "markdown") {
        const width = Math.max(...b.rows.map((r) => r.length));
        const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => (r[i] ?? "").replace(/\n/g, " ").replace(/\|/g, "\\|")).join(" | ")} |`;
        out.push([line(b.rows[0] ?? []), `|${" --- |".repeat(width)}`, ...b.rows.slice(1).map(line)].join("\n"));
      } else out.push(b.rows.map((r) => r.join("\t")).join("\n"));
      continue;
    }
    const text =
      to === "html"
        ? b.runs.map((r) => (r.href ? `<a href="${esc(r.href)}">${esc(r.text)}</a>` : esc(r.text))).join("")
        : to === "markdown"
          ? b.runs.map((r) => (r.href ? `[${r.text}](${r.href})` : r.text)).join("")
          : plain(b.runs);
    if (b.kind === "heading") out.push(to === "html" ? `<h${b.level}>${text}</h${b.level}>` : to === "markdown" ? `${"#".repeat(b.level)} ${text}` : text);
    else if (b.kind === "item") {
      if (to === "html" && !inList) {
        out.push("<ul>");
        inList = true;
      }
      out.push(to === "html" ? `<li>${text}</li>` : `- ${text}`);
    } else out.push(to === "html" ? `<p>${text}</p>` : text);
  }
  if (inList) out.push("</ul>");
  return out.join(to === "html" ? "\n" : "\n\n").replace(/^(- .*)\n\n(?=- )/gm, "$1\n");
}

export const docxToText = defineUtility<Input>({
  id: "docx_to_text",
  group: "text",
  title: "Word (.docx) to text",
  description:
    "Converts a Word .docx to plain text, HTML or Markdown, keeping headings, lists, tables and links, and gives character and word counts. The archive's sizes are checked before it is unpacked (decompression bombs are refused)",
  net: false,
  file: true,
  fileKinds: ["docx", "zip"],
  fields: [
    { name: "file", type: "file", label: "Word document (.docx, base64)", required: true },
    { name: "to", type: "sel", label: "Output", options: ["text", "html", "markdown"], default: "text" },
  ],
  example: { file: exampleDocx().toString("base64"), file_name: "report.docx", to: "markdown" },
  run(input) {
    const buf = Buffer.from(input.file);
    const entries = zipEntries(buf);
    const doc = entries.find((e) => e.name === "word/document.xml");
    if (!doc) throw new UtilityError("tool_failed", "the archive is not a Word document: it has no word/document.xml");
    const relsEntry = entries.find((e) => e.name === "word/_rels/document.xml.rels");
    const rels = relsEntry ? relationships(readZipEntry(buf, relsEntry).toString("utf8")) : new Map<string, string>();
    const { blocks, images } = docxBlocks(readZipEntry(buf, doc).toString("utf8"), rels);
    const text = render(blocks, input.to);
    const plainText = render(blocks, "text");
    const chars = [...plainText].length;
    const charsNoSpaces = [...plainText.replace(/\s/gu, "")].length;
    const words = wordsOf(plainText).length;
    return {
      result: { text, chars, chars_no_spaces: charsNoSpaces, words, images, messages: images > 0 ? [`${images} image(s) left out`] : [] },
      blocks: {
        code: [{ lang: input.to === "markdown" ? "markdown" : input.to === "html" ? "html" : "text", text }],
        pairs: [
          { label: "Characters", value: String(chars) },
          { label: "Without spaces", value: String(charsNoSpaces) },
          { label: "Words", value: String(words) },
          { label: "Images", value: String(images) },
        ],
      },
    };
  },
});
