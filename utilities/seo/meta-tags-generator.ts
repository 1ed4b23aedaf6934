import { defineUtility, type Warning } from "../utility.ts";
import { textWidthPx } from "../shared/text-width.ts";

interface Input {
  title: string;
  description?: string;
  url?: string;
  image?: string;
  site_name?: string;
  locale?: string;
  type: "website" | "article" | "product";
  robots?: string[];
  twitter_site?: string;
  theme_color?: string;
  google_verification?: string;
  yandex_verification?: string;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const metaTagsGenerator = defineUtility<Input>({
  id: "meta_tags_generator",
  group: "seo",
  title: "Meta tag generator",
  description:
    "Generates head tags: title, description, canonical, robots (noindex, max-snippet, max-image-preview), viewport, charset, Open Graph, Twitter card, theme-color and Google/Yandex verification tags, and warns about lengths",
  net: false,
  file: false,
  fields: [
    { name: "title", type: "str", label: "Title", required: true, max: 300 },
    { name: "description", type: "str", label: "Description", max: 1000 },
    { name: "url", type: "url", label: "Canonical URL" },
    { name: "image", type: "url", label: "Share image URL" },
    { name: "site_name", type: "str", label: "Site name", max: 200 },
    { name: "locale", type: "str", label: "Locale (ru_RU)", max: 10 },
    { name: "type", type: "sel", label: "og:type", options: ["website", "article", "product"], default: "website" },
    { name: "robots", type: "multi", label: "Robots", options: ["noindex", "nofollow", "noarchive", "max-snippet:-1", "max-image-preview:large", "max-video-preview:-1"] },
    { name: "twitter_site", type: "str", label: "Twitter/X account (@name)", max: 50 },
    { name: "theme_color", type: "color", label: "Theme colour" },
    { name: "google_verification", type: "str", label: "google-site-verification", max: 100 },
    { name: "yandex_verification", type: "str", label: "yandex-verification", max: 100 },
  ],
  example: {
    title: "Угловые диваны — МебельПро",
    description: "Угловые диваны от фабрики с доставкой за 1 день.",
    url: "https://mebelpro.ru/divany/uglovye/",
    image: "https://mebelpro.ru/og/uglovye.jpg",
    site_name: "МебельПро",
    locale: "ru_RU",
    robots: ["max-image-preview:large"],
  },
  run(i) {
    const lines = ['<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">', `<title>${esc(i.title)}</title>`];
    if (i.description) lines.push(`<meta name="description" content="${esc(i.description)}">`);
    if (i.url) lines.push(`<link rel="canonical" href="${esc(i.url)}">`);
    if (i.robots) lines.push(`<meta name="robots" content="${esc(i.robots.join(", "))}">`);
    if (i.theme_color) lines.push(`<meta name="theme-color" content="${esc(i.theme_color)}">`);
    if (i.google_verification) lines.push(`<meta name="google-site-verification" content="${esc(i.google_verification)}">`);
    if (i.yandex_verification) lines.push(`<meta name="yandex-verification" content="${esc(i.yandex_verification)}">`);
    const og: [string, string | undefined][] = [
      ["og:type", i.type],
      ["og:title", i.title],
      ["og:description", i.description],
      ["og:url", i.url],
      ["og:image", i.image],
      ["og:site_name", i.site_name],
      ["og:locale", i.locale],
    ];
    for (const [p, v] of og) if (v) lines.push(`<meta property="${p}" content="${esc(v)}">`);
    lines.push(`<meta name="twitter:card" content="${i.image ? "summary_large_image" : "summary"}">`);
    if (i.twitter_site) lines.push(`<meta name="twitter:site" content="${esc(i.twitter_site.startsWith("@") ? i.twitter_site : `@${i.twitter_site}`)}">`);
    const html = lines.join("\n");
    const warnings: Warning[] = [];
    const titlePx = textWidthPx(i.title, 20);
    if (titlePx > 512) warnings.push({ code: "title_length", text: `the title is ${Math.round(titlePx)} px wide; search results cut it near 512 px` });
    if (i.description && (i.description.length < 70 || i.description.length > 160)) warnings.push({ code: "description_length", text: `the description has ${i.description.length} characters; 70-160 is the usual range` });
    if (!i.description) warnings.push({ code: "description_missing", text: "no description: search engines will pick a piece of the page" });
    if (!i.image) warnings.push({ code: "og_image", text: "no share image: social networks show a plain link" });
    if (i.locale && !/^[a-z]{2}_[A-Z]{2}$/.test(i.locale)) warnings.push({ code: "og_locale", text: `og:locale is written like ru_RU, not ${i.locale}` });
    return { result: { html, warnings }, blocks: { code: [{ lang: "html", text: html }] }, warnings };
  },
});
