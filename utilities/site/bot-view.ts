import { defineUtility, type Pair, type Warning } from "../utility.ts";
import { uaFields, userAgentOf, type UaName } from "../shared/user-agents.ts";
import { fetchFollowing, netOf, requireHtml } from "./net-util.ts";

interface Input {
  url: string;
  ua: UaName;
  ua_custom?: string;
  show_text: boolean;
}

/** Visible text shown at most (the word count covers all of it). */
const TEXT_SHOWN = 20_000;

/** Yandex's `<noindex>` zones: text inside them is left out of Yandex's index. */
function noindexZones(html: string): number {
  return (html.match(/<noindex\b/gi) ?? []).length;
}

export const botView = defineUtility<Input>({
  id: "bot_view",
  group: "site",
  title: "Spider simulator",
  description:
    "The page as a crawler sees it without JavaScript: title, description, robots meta and X-Robots-Tag, canonical, h1–h6 outline, visible text, text/HTML ratio, link counts, <noindex> zones. Unlike GET /check and /full it gives no score, stores nothing, takes any UA and shows the raw text",
  net: true,
  file: false,
  fields: [{ name: "url", type: "url", label: "URL", required: true }, ...uaFields("googlebot_mobile"), { name: "show_text", type: "bool", label: "Show the visible text", default: true }],
  example: { url: "https://example.com/", ua: "googlebot" },
  async run(input, ports) {
    const net = netOf(ports);
    const { res, hops } = await fetchFollowing(net, input.url, { headers: { "user-agent": userAgentOf(input) } });
    requireHtml(res, res.url);
    const { facts, text } = net.page(res);
    const html = new TextDecoder().decode(res.body);
    const words = facts.wordCount;
    const textBytes = Buffer.byteLength(text);
    const ratio = res.body.length === 0 ? 0 : Math.round((textBytes / res.body.length) * 1000) / 10;
    const internal = facts.links.filter((l) => l.internal).length;
    const nofollow = facts.links.filter((l) => l.nofollow).length;
    const meta = {
      title: facts.title || null,
      description: facts.metaDescription || null,
      robots: facts.metaRobots || null,
      x_robots_tag: facts.xRobotsTag || null,
      canonical: facts.canonicals[0] ?? (facts.canonicalHeader || null),
      lang: facts.lang || null,
      viewport: facts.metaViewport || null,
    };
    const noindex = /\bnoindex\b/.test(`${facts.metaRobots} ${facts.xRobotsTag}`.toLowerCase());
    const zones = noindexZones(html);
    const warnings: Warning[] = [];
    if (res.truncated) warnings.push({ code: "truncated", text: "the page is larger than 5 MB; only its start was read" });
    if (input.show_text && text.length > TEXT_SHOWN) warnings.push({ code: "text_cut", text: `the visible text is ${text.length} characters; the first ${TEXT_SHOWN} are shown` });
    const result = {
      url: input.url,
      final_url: res.url,
      status: res.status,
      redirects: hops,
      meta,
      noindex,
      headings: facts.headings.map((h) => ({ level: h.level, text: h.text })),
      text: input.show_text ? text.slice(0, TEXT_SHOWN) : null,
      words,
      text_ratio_pct: ratio,
      html_bytes: res.body.length,
      links: { internal, external: facts.links.length - internal, nofollow },
      noindex_zones: zones,
    };
    const pairs: Pair[] = [
      { label: "Status", value: String(res.status), status: "good" },
      ...(hops.length > 0 ? [{ label: "Redirected to", value: res.url, status: "info" as const }] : []),
      { label: "Title", value: meta.title ?? "(none)", status: meta.title ? "good" : "bad" },
      { label: "Description", value: meta.description ?? "(none)", status: meta.description ? "good" : "warn" },
      { label: "Robots", value: [meta.robots, meta.x_robots_tag && `X-Robots-Tag: ${meta.x_robots_tag}`].filter(Boolean).join("; ") || "(none)", status: noindex ? "bad" : "info" },
      { label: "Canonical", value: meta.canonical ?? "(none)" },
      { label: "Words", value: String(words) },
      { label: "Text / HTML", value: `${ratio}%` },
      { label: "Links", value: `${internal} internal, ${result.links.external} external, ${nofollow} nofollow` },
      ...(zones > 0 ? [{ label: "<noindex> zones", value: String(zones), status: "info" as const }] : []),
    ];
    return {
      result,
      blocks: {
        pairs,
        tables: [{ title: "Headings", columns: ["Level", "Text"], rows: facts.headings.map((h) => [`h${h.level}`, h.text]) }],
        code: input.show_text ? [{ lang: "text", text: result.text ?? "" }] : [],
      },
      warnings,
    };
  },
});
