import { gzipSync } from "node:zlib";
import { UtilityError, defineUtility, type Warning } from "../utility.ts";
import { detectDelimiter, parseCsv } from "../shared/csv.ts";
import { zipFiles } from "../shared/zip.ts";

interface Input {
  urls?: string[];
  file?: Uint8Array;
  base?: string;
  gzip: boolean;
}

/** The sitemaps.org limits of one file. */
const MAX_URLS = 50_000;
const FREQ = new Set(["always", "hourly", "daily", "weekly", "monthly", "yearly", "never"]);

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

interface Row {
  loc: string;
  lastmod?: string;
  changefreq?: string;
  priority?: string;
}

function rowOf(cells: string[], base: string | undefined, warnings: Warning[]): Row | null {
  const [raw, lastmod, changefreq, priority] = cells.map((c) => c.trim());
  if (!raw) return null;
  let loc: string;
  try {
    loc = new URL(raw, base).href;
  } catch {
    warnings.push({ code: "bad_url", text: `skipped "${raw.slice(0, 100)}": not a URL${base ? "" : " (relative paths need input.base)"}` });
    return null;
  }
  const row: Row = { loc };
  if (lastmod) {
    if (/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/.test(lastmod)) row.lastmod = lastmod;
    else warnings.push({ code: "lastmod", text: `"${lastmod}" is not a W3C date; lastmod left out for ${loc}` });
  }
  if (changefreq) {
    if (FREQ.has(changefreq)) row.changefreq = changefreq;
    else warnings.push({ code: "changefreq", text: `"${changefreq}" is not a changefreq value` });
  }
  if (priority) {
    const n = Number(priority);
    if (n >= 0 && n <= 1) row.priority = n.toFixed(1);
    else warnings.push({ code: "priority", text: `priority "${priority}" is not between 0.0 and 1.0` });
  }
  return row;
}

function urlset(rows: Row[]): string {
  const items = rows.map((r) => {
    const parts = [`    <loc>${esc(r.loc)}</loc>`];
    if (r.lastmod) parts.push(`    <lastmod>${r.lastmod}</lastmod>`);
    if (r.changefreq) parts.push(`    <changefreq>${r.changefreq}</changefreq>`);
    if (r.priority) parts.push(`    <priority>${r.priority}</priority>`);
    return `  <url>\n${parts.join("\n")}\n  </url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</urlset>\n`;
}

export const sitemapGenerator = defineUtility<Input>({
  id: "sitemap_generator",
  group: "seo",
  title: "XML sitemap generator",
  description:
    "Builds sitemap.xml from a URL list, as text or a .txt/.csv file (url, lastmod, changefreq, priority per row). Splits at 50,000 URLs with an index file and returns the XML plus a ZIP of the files (gzipped when asked)",
  net: false,
  file: true,
  fileKinds: ["text"],
  fields: [
    { name: "urls", type: "list", label: "URLs (url[,lastmod[,changefreq[,priority]]] per line)", max: 200_000 },
    { name: "file", type: "file", label: "A .txt or .csv file of the same rows" },
    { name: "base", type: "url", label: "Base URL for relative paths" },
    { name: "gzip", type: "bool", label: "Gzip the files in the ZIP", default: true },
  ],
  oneOf: [["urls", "file"]],
  example: { urls: ["https://example.com/,2024-05-01,daily,1.0", "/catalog/,2024-04-20,weekly,0.8", "/catalog/divany?sort=price&page=2"], base: "https://example.com/", gzip: false },
  run(i) {
    const warnings: Warning[] = [];
    const lines = i.file ? Buffer.from(i.file).toString("utf8") : (i.urls ?? []).join("\n");
    const delimiter = detectDelimiter(lines);
    const rows: Row[] = [];
    const seen = new Set<string>();
    for (const cells of parseCsv(lines, delimiter)) {
      if (rows.length === 0 && /^(url|loc)$/i.test(cells[0]?.trim() ?? "")) continue;
      const row = rowOf(cells, i.base, warnings);
      if (!row) continue;
      if (seen.has(row.loc)) {
        warnings.push({ code: "duplicate", text: `${row.loc} is listed twice; kept once` });
        continue;
      }
      seen.add(row.loc);
      rows.push(row);
    }
    if (rows.length === 0) throw new UtilityError("tool_failed", "no usable URL in the input");
    const chunks: Row[][] = [];
    for (let k = 0; k < rows.length; k += MAX_URLS) chunks.push(rows.slice(k, k + MAX_URLS));
    const origin = new URL(rows[0]!.loc).origin;
    const files: { name: string; urls: number; text: string }[] =
      chunks.length === 1 ? [{ name: "sitemap.xml", urls: rows.length, text: urlset(rows) }] : chunks.map((c, n) => ({ name: `sitemap-${n + 1}.xml`, urls: c.length, text: urlset(c) }));
    if (chunks.length > 1) {
      const entries = files.map((f) => `  <sitemap>\n    <loc>${esc(`${origin}/${f.name}${i.gzip ? ".gz" : ""}`)}</loc>\n  </sitemap>`).join("\n");
      files.unshift({ name: "sitemap.xml", urls: 0, text: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n` });
    }
    const packed: Record<string, Uint8Array | string> = {};
    for (const f of files) {
      if (i.gzip && f.urls > 0 && chunks.length > 1) packed[`${f.name}.gz`] = gzipSync(Buffer.from(f.text));
      else if (i.gzip && chunks.length === 1) packed[`${f.name}.gz`] = gzipSync(Buffer.from(f.text));
      else packed[f.name] = f.text;
    }
    const zip = zipFiles(packed);
    const first = files[0]!;
    return {
      result: {
        files: files.map((f) => ({ name: f.name, urls: f.urls, bytes: Buffer.byteLength(f.text) })),
        urls: rows.length,
        data_base64: zip.toString("base64"),
        mime: "application/zip",
        file_name: "sitemap.zip",
        bytes: zip.length,
      },
      blocks: { code: [{ lang: "xml", text: first.text.length > 100_000 ? `${first.text.slice(0, 100_000)}\n<!-- … -->` : first.text, filename: first.name }], pairs: [{ label: "URLs", value: String(rows.length) }, { label: "Files", value: String(files.length) }] },
      warnings,
    };
  },
});
