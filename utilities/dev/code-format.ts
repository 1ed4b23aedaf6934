import { gzipSync } from "node:zlib";
import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  code: string;
  language: "html" | "css" | "js" | "xml" | "sql";
  mode: "minify" | "beautify";
  indent: number;
}

/** SQL without comments and with whitespace collapsed outside quoted strings and identifiers. */
function minifySql(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"' || c === "`") {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (/\s/.test(c)) {
      while (i < sql.length && /\s/.test(sql[i] as string)) i++;
      if (out !== "" && !/[(,;=<>+\-*/]$/.test(out) && !/^[),;=<>+\-*/]/.test(sql.slice(i))) out += " ";
    } else {
      out += c;
      i++;
    }
  }
  return out.trim();
}

type XmlFormat = ((xml: string, options?: Record<string, unknown>) => string) & { minify(xml: string, options?: Record<string, unknown>): string };

/** Default exports of CommonJS packages: at run time module.exports itself. */
function cjs<T>(mod: unknown): T {
  return ((mod as { default?: unknown }).default ?? mod) as T;
}

/** The formatters, loaded on first use (the catalogue, and so the CLI, loads without them). */
async function libraries() {
  const [terser, csso, htmlMinifier, beautify, sql, xml] = await Promise.all([import("terser"), import("csso"), import("html-minifier-terser"), import("js-beautify"), import("sql-formatter"), import("xml-formatter")]);
  return {
    minifyJs: terser.minify,
    minifyCss: csso.minify,
    minifyHtml: htmlMinifier.minify,
    js: cjs<typeof import("js-beautify")>(beautify),
    formatSql: sql.format,
    xmlFormat: cjs<XmlFormat>(xml.default),
  };
}

async function transform(i: Input): Promise<string> {
  const { minifyJs, minifyCss, minifyHtml, js, formatSql, xmlFormat } = await libraries();
  const opts = { indent_size: i.indent, indent_char: " ", end_with_newline: false };
  if (i.mode === "minify") {
    switch (i.language) {
      case "js": {
        const out = await minifyJs(i.code, { compress: true, mangle: true });
        return out.code ?? "";
      }
      case "css":
        return minifyCss(i.code).css;
      case "html":
        return minifyHtml(i.code, { collapseWhitespace: true, removeComments: true, minifyCSS: true, minifyJS: true, removeRedundantAttributes: true, collapseBooleanAttributes: true });
      case "xml":
        return xmlFormat.minify(i.code, { collapseContent: true });
      case "sql":
        return minifySql(i.code);
    }
  }
  switch (i.language) {
    case "js":
      return js.js(i.code, opts);
    case "css":
      return js.css(i.code, opts);
    case "html":
      return js.html(i.code, opts);
    case "xml":
      return xmlFormat(i.code, { indentation: " ".repeat(i.indent), collapseContent: true, lineSeparator: "\n" });
    case "sql":
      return formatSql(i.code, { tabWidth: i.indent, keywordCase: "upper" });
  }
}

export const codeFormat = defineUtility<Input>({
  id: "code_format",
  group: "dev",
  title: "Minify / beautify HTML, CSS, JS",
  description: "Minifies or beautifies HTML, CSS, JavaScript, XML or SQL and shows the size before and after, the savings and the gzip size",
  net: false,
  file: false,
  fields: [
    { name: "code", type: "text", label: "Code", required: true },
    { name: "language", type: "sel", label: "Language", required: true, options: ["html", "css", "js", "xml", "sql"] },
    { name: "mode", type: "sel", label: "Mode", required: true, options: ["minify", "beautify"] },
    { name: "indent", type: "int", label: "Indent (beautify)", default: 2, min: 1, max: 8 },
  ],
  example: { code: "/* header */\n.menu  a:hover {\n  color: #ff0000;\n  margin: 0px 0px 0px 0px;\n}\n", language: "css", mode: "minify" },
  async run(i) {
    let text: string;
    try {
      text = await transform(i);
    } catch (err) {
      const e = err as Error & { line?: number; col?: number };
      throw new UtilityError("tool_failed", `the ${i.language.toUpperCase()} does not parse: ${e.message.split("\n")[0]}${e.line ? ` (line ${e.line}, column ${e.col ?? 0})` : ""}`);
    }
    const before = Buffer.byteLength(i.code);
    const after = Buffer.byteLength(text);
    const gzip = (s: string) => gzipSync(Buffer.from(s), { level: 9 }).length;
    const result = { text, bytes_before: before, bytes_after: after, saved_pct: before === 0 ? 0 : Math.round(((before - after) / before) * 1000) / 10, gzip_before: gzip(i.code), gzip_after: gzip(text) };
    return {
      result,
      blocks: {
        code: [{ lang: i.language, text }],
        pairs: [
          { label: "Bytes", value: `${before} → ${after}` },
          { label: "Saved", value: `${result.saved_pct} %` },
          { label: "Gzip", value: `${result.gzip_before} → ${result.gzip_after}` },
        ],
      },
    };
  },
});
