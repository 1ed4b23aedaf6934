import { defineUtility, type Warning } from "../utility.ts";

interface Input {
  preset: Preset;
  disallow?: string[];
  allow?: string[];
  ai_policy: "allow" | "block_training" | "block_all";
  sitemaps?: string[];
  clean_params?: string[];
  crawl_delay?: number;
}

type Preset = "none" | "wordpress" | "bitrix" | "joomla" | "drupal" | "opencart" | "modx";

/** Service paths each CMS keeps out of search (their own documentation and common practice). */
const PRESETS: Record<Preset, { disallow: string[]; allow: string[] }> = {
  none: { disallow: [], allow: [] },
  wordpress: { disallow: ["/wp-admin/", "/wp-login.php", "/?s=", "/search/", "/*?replytocom="], allow: ["/wp-admin/admin-ajax.php", "/wp-content/uploads/"] },
  bitrix: { disallow: ["/bitrix/", "/auth/", "/personal/", "/search/", "/*?print=", "/*&print=", "/*?back_url_admin=", "/*?bxajaxid="], allow: ["/bitrix/components/", "/bitrix/cache/", "/bitrix/js/", "/bitrix/templates/", "/bitrix/panel/"] },
  joomla: { disallow: ["/administrator/", "/cache/", "/includes/", "/installation/", "/language/", "/libraries/", "/logs/", "/tmp/", "/component/search/"], allow: ["/media/", "/templates/", "/images/"] },
  drupal: { disallow: ["/admin/", "/user/", "/search/", "/node/add/", "/*?q=admin/", "/*?q=user/"], allow: ["/core/*.css$", "/core/*.js$", "/misc/", "/modules/*.css$", "/modules/*.js$"] },
  opencart: { disallow: ["/admin/", "/system/", "/index.php?route=account/", "/index.php?route=checkout/", "/index.php?route=product/search", "/*&sort=", "/*?sort=", "/*&limit="], allow: ["/catalog/view/", "/image/"] },
  modx: { disallow: ["/manager/", "/assets/components/", "/core/", "/connectors/", "/index.php?id="], allow: ["/assets/images/", "/assets/templates/"] },
};

/** Crawlers that collect training data for AI models, and the assistants that fetch pages for answers. */
const AI_TRAINING = ["GPTBot", "ClaudeBot", "Google-Extended", "CCBot", "Applebot-Extended", "Bytespider", "meta-externalagent"];
const AI_ASSISTANTS = ["ChatGPT-User", "OAI-SearchBot", "PerplexityBot", "Claude-User"];

function pathOk(p: string): boolean {
  return p.startsWith("/") || p.startsWith("*");
}

export const robotsTxtGenerator = defineUtility<Input>({
  id: "robots_txt_generator",
  group: "seo",
  title: "robots.txt generator",
  description:
    "Builds robots.txt from a CMS preset (WordPress, 1C-Bitrix, Joomla, Drupal, OpenCart, MODX), paths, an AI-crawler policy (allow, block training bots, block all), Clean-param for Yandex, Crawl-delay and Sitemap lines. Lints the result",
  net: false,
  file: false,
  fields: [
    { name: "preset", type: "sel", label: "CMS preset", options: Object.keys(PRESETS), default: "none" },
    { name: "disallow", type: "list", label: "Disallow paths", max: 500 },
    { name: "allow", type: "list", label: "Allow paths", max: 500 },
    { name: "ai_policy", type: "sel", label: "AI crawlers", options: ["allow", "block_training", "block_all"], default: "allow" },
    { name: "sitemaps", type: "list", label: "Sitemap URLs", max: 50 },
    { name: "clean_params", type: "list", label: 'Clean-param lines for Yandex ("utm_source&utm_medium /catalog/")', max: 50 },
    { name: "crawl_delay", type: "num", label: "Crawl-delay, s", min: 0.1, max: 60 },
  ],
  example: { preset: "wordpress", disallow: ["/cart/"], ai_policy: "block_training", sitemaps: ["https://example.com/sitemap.xml"], clean_params: ["utm_source&utm_medium&utm_campaign"] },
  run(i) {
    const warnings: Warning[] = [];
    const p = PRESETS[i.preset];
    const disallow = [...new Set([...p.disallow, ...(i.disallow ?? [])])];
    const allow = [...new Set([...p.allow, ...(i.allow ?? [])])];
    for (const path of [...disallow, ...allow]) if (!pathOk(path)) warnings.push({ code: "path", text: `"${path}" does not start with / or *: crawlers ignore it` });
    if (disallow.includes("/")) warnings.push({ code: "blocks_all", text: "Disallow: / keeps the whole site out of search" });
    const main = ["User-agent: *", ...disallow.map((d) => `Disallow: ${d}`), ...allow.map((a) => `Allow: ${a}`)];
    if (i.crawl_delay !== undefined) {
      main.push(`Crawl-delay: ${i.crawl_delay}`);
      warnings.push({ code: "crawl_delay", text: "Google ignores Crawl-delay; Yandex has ignored it since 2018 (set the crawl rate in Webmaster)" });
    }
    for (const c of i.clean_params ?? []) {
      if (!/^[\w&.-]+(\s+\/\S*)?$/.test(c)) warnings.push({ code: "clean_param", text: `Clean-param "${c}" is not "p1&p2 /path"` });
      main.push(`Clean-param: ${c}`);
    }
    const groups = [main.join("\n")];
    const blocked = i.ai_policy === "block_all" ? [...AI_TRAINING, ...AI_ASSISTANTS] : i.ai_policy === "block_training" ? AI_TRAINING : [];
    if (blocked.length > 0) groups.push([...blocked.map((b) => `User-agent: ${b}`), "Disallow: /"].join("\n"));
    const sitemaps = (i.sitemaps ?? []).map((s) => {
      if (!/^https?:\/\//.test(s)) warnings.push({ code: "sitemap", text: `Sitemap must be an absolute URL: "${s}"` });
      return `Sitemap: ${s}`;
    });
    if (sitemaps.length === 0) warnings.push({ code: "sitemap_missing", text: "no Sitemap line: crawlers find a sitemap sooner when robots.txt names it" });
    const text = `${groups.join("\n\n")}${sitemaps.length > 0 ? `\n\n${sitemaps.join("\n")}` : ""}\n`;
    return { result: { text, warnings }, blocks: { code: [{ lang: "text", text, filename: "robots.txt" }] }, warnings };
  },
});
