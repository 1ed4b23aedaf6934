import { UtilityError, defineUtility, type Warning } from "../utility.ts";

interface Input {
  pages: string[];
  x_default?: string;
  formats: ("html" | "header" | "sitemap")[];
}

/** Codes people write that are not ISO 639-1 / 3166-1, and what they mean. */
const MISTAKES: Record<string, string> = { uk: "GB (the United Kingdom is GB; uk is Ukrainian)", jp: "ja (Japanese)", ua: "uk (Ukrainian; UA is the country)", cn: "zh (Chinese)", kz: "kk (Kazakh)", by: "be (Belarusian)", se: "sv (Swedish)", dk: "da (Danish)", gr: "el (Greek)", cz: "cs (Czech)", ee: "et (Estonian)", il: "he (Hebrew)", eng: "en", rus: "ru" };
const languages = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

function checkCode(code: string, warnings: Warning[]): string | null {
  const [lang = "", region, ...rest] = code.split("-");
  if (rest.length > 0 && !/^[A-Za-z]{4}$/.test(region ?? "")) return `"${code}" has too many parts: use language or language-REGION`;
  const l = lang.toLowerCase();
  if (MISTAKES[l] && !languages.of(l)) return `"${lang}" is not a language code; did you mean ${MISTAKES[l]}?`;
  if (!/^[a-z]{2,3}$/.test(l) || !languages.of(l)) return `"${lang}" is not an ISO 639-1 language code`;
  if (region !== undefined && !/^[A-Za-z]{4}$/.test(region)) {
    const r = region.toUpperCase();
    if (r === "UK") return `"${code}": the United Kingdom is GB, write ${l}-GB`;
    if (!/^[A-Z]{2}$/.test(r) || !regions.of(r)) return `"${region}" is not an ISO 3166-1 country code`;
    if (region !== r) warnings.push({ code: "case", text: `${code}: regions are written in capitals (${l}-${r}); search engines accept either` });
  }
  return null;
}

export const hreflangGenerator = defineUtility<Input>({
  id: "hreflang_generator",
  group: "seo",
  title: "hreflang tag generator",
  description:
    "Builds hreflang annotations for language/region → URL pairs (+x-default) as HTML link tags, HTTP Link headers or sitemap xhtml:link entries. Checks ISO 639-1 and 3166-1 codes and common mistakes (en-UK, jp)",
  net: false,
  file: false,
  fields: [
    { name: "pages", type: "list", label: '"ru-RU https://…" per line', required: true, max: 500 },
    { name: "x_default", type: "url", label: "x-default URL" },
    { name: "formats", type: "multi", label: "Formats", options: ["html", "header", "sitemap"], default: ["html"] },
  ],
  example: { pages: ["ru https://example.com/ru/", "en-GB https://example.com/uk/", "en-US https://example.com/us/"], x_default: "https://example.com/", formats: ["html", "sitemap"] },
  run(i) {
    const warnings: Warning[] = [];
    const pairs: { hreflang: string; href: string }[] = [];
    for (const line of i.pages) {
      const m = /^(\S+)\s+(\S+)$/.exec(line.trim());
      if (!m) throw new UtilityError("bad_param", `input.pages has "${line}"; each line is "ru-RU https://…"`, "input.pages");
      const [, code, href] = m as unknown as [string, string, string];
      const problem = code.toLowerCase() === "x-default" ? null : checkCode(code, warnings);
      if (problem) throw new UtilityError("bad_param", `input.pages: ${problem}`, "input.pages");
      try {
        new URL(href);
      } catch {
        throw new UtilityError("bad_param", `input.pages: "${href}" is not an absolute URL`, "input.pages");
      }
      if (pairs.some((p) => p.hreflang.toLowerCase() === code.toLowerCase())) warnings.push({ code: "duplicate", text: `${code} is listed twice` });
      pairs.push({ hreflang: code, href });
    }
    if (i.x_default && !pairs.some((p) => p.hreflang === "x-default")) pairs.push({ hreflang: "x-default", href: i.x_default });
    if (!pairs.some((p) => p.hreflang === "x-default")) warnings.push({ code: "x_default", text: "no x-default: users of other languages get no fallback" });
    const per: Record<string, string> = {};
    const code: { lang: string; text: string; filename?: string }[] = [];
    if (i.formats.includes("html")) {
      per.html = pairs.map((p) => `<link rel="alternate" hreflang="${p.hreflang}" href="${p.href}">`).join("\n");
      code.push({ lang: "html", text: per.html });
    }
    if (i.formats.includes("header")) {
      per.header = `Link: ${pairs.map((p) => `<${p.href}>; rel="alternate"; hreflang="${p.hreflang}"`).join(", ")}`;
      code.push({ lang: "http", text: per.header });
    }
    if (i.formats.includes("sitemap")) {
      // Every page of the set lists all alternates, itself included.
      const links = pairs.map((p) => `    <xhtml:link rel="alternate" hreflang="${p.hreflang}" href="${p.href}"/>`).join("\n");
      const urls = pairs.filter((p) => p.hreflang !== "x-default").map((p) => `  <url>\n    <loc>${p.href}</loc>\n${links}\n  </url>`);
      per.sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
      code.push({ lang: "xml", text: per.sitemap, filename: "sitemap.xml" });
    }
    return { result: { per_format: per, pairs, warnings }, blocks: { code }, warnings };
  },
});
