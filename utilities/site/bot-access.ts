import { defineUtility, type NetResponse } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { bodyText, netOf, redirectTarget } from "./net-util.ts";
import { isAllowed, parseRobots } from "../../analyzer/index.ts";

const BOT_IDS = ["googlebot", "googlebot_mobile", "yandexbot", "bingbot", "gptbot", "claudebot", "perplexitybot", "ccbot"] as const;
type BotId = (typeof BOT_IDS)[number];

/** Each bot's User-Agent and the robots.txt token it obeys. */
const BOT_UA: Readonly<Record<BotId, { ua: string; token: string }>> = {
  googlebot: { ua: USER_AGENTS.googlebot, token: "Googlebot" },
  googlebot_mobile: { ua: USER_AGENTS.googlebot_mobile, token: "Googlebot" },
  yandexbot: { ua: USER_AGENTS.yandexbot, token: "YandexBot" },
  bingbot: { ua: USER_AGENTS.bingbot, token: "Bingbot" },
  gptbot: { ua: USER_AGENTS.gptbot, token: "GPTBot" },
  claudebot: { ua: USER_AGENTS.claudebot, token: "ClaudeBot" },
  perplexitybot: { ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", token: "PerplexityBot" },
  ccbot: { ua: "CCBot/2.0 (https://commoncrawl.org/faq/)", token: "CCBot" },
};

interface Input {
  url: string;
  bots: BotId[];
}

interface Seen {
  status: number;
  bytes: number;
  title: string | null;
  location: string | null;
  challenge: boolean;
}

function titleOf(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? (m[1] as string).replace(/\s+/g, " ").trim() : null;
}

/** A WAF or CDN challenge page instead of the content (Cloudflare, DDoS-Guard, Qrator, captchas). */
const CHALLENGE = /cf-chl|challenge-platform|just a moment\.\.\.|attention required|ddos-guard|qrator|captcha|access denied/i;

function seen(res: NetResponse): Seen {
  const html = bodyText(res).slice(0, 500_000);
  return { status: res.status, bytes: res.body.length, title: titleOf(html), location: redirectTarget(res), challenge: CHALLENGE.test(html.slice(0, 20_000)) };
}

export const botAccess = defineUtility<Input>({
  id: "bot_access",
  group: "site",
  title: "Search & AI bot access",
  description:
    "Requests one URL as a browser and as search and AI bots, then compares the robots.txt verdict, status, size and title for each. Finds WAF/CDN blocks of crawlers (403, 429, challenge pages) and cloaking",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL", required: true },
    { name: "bots", type: "multi", label: "Bots", options: BOT_IDS, default: ["googlebot", "yandexbot", "bingbot", "gptbot"] },
  ],
  example: { url: "https://example.com/", bots: ["googlebot", "yandexbot", "gptbot"] },
  async run(input, ports) {
    const net = netOf(ports);
    const page = new URL(input.url);
    const robotsRes = await net.fetch(new URL("/robots.txt", page).href, { maxBytes: 500 * 1024 });
    const robots = parseRobots(robotsRes.status >= 500 ? "User-agent: *\nDisallow: /" : robotsRes.status >= 200 && robotsRes.status < 300 ? bodyText(robotsRes) : "");
    const browser = seen(await net.fetch(input.url, { headers: { "user-agent": USER_AGENTS.browser } }));
    const rows = [];
    for (const bot of input.bots) {
      const { ua, token } = BOT_UA[bot];
      const got = seen(await net.fetch(input.url, { headers: { "user-agent": ua } }));
      const allowed = isAllowed(robots, token, page.pathname + page.search);
      // The same page: same status and title, and a size within a fifth of the browser's.
      const same = got.status === browser.status && got.title === browser.title && Math.abs(got.bytes - browser.bytes) <= Math.max(512, browser.bytes * 0.2);
      const problems: string[] = [];
      if (got.status === 403 || got.status === 429 || got.status === 503) problems.push(`answers ${got.status} to this bot${browser.status < 400 ? " but not to a browser: a WAF or CDN rule blocks it" : ""}`);
      if (got.challenge && !browser.challenge) problems.push("gets a challenge page instead of the content");
      if (!same && got.status === browser.status && !got.challenge) problems.push("sees different content than a browser (cloaking or bot-specific rendering)");
      if (!allowed) problems.push(`robots.txt disallows this URL for ${token}`);
      const verdictText = problems.length === 0 ? "ok" : !allowed && problems.length === 1 ? "disallowed" : "blocked";
      rows.push({ bot, robots_allowed: allowed, status: got.status, bytes: got.bytes, title: got.title, same_as_browser: same, problems, verdict: verdictText });
    }
    return {
      result: { url: input.url, robots_status: robotsRes.status, browser: { status: browser.status, bytes: browser.bytes, title: browser.title }, rows },
      blocks: {
        pairs: [
          { label: "As a browser", value: `${browser.status}, ${browser.bytes} bytes, "${browser.title ?? ""}"` },
          { label: "Bots blocked", value: `${rows.filter((r) => r.verdict === "blocked").length} of ${rows.length}`, status: rows.some((r) => r.verdict === "blocked") ? "bad" : "good" },
        ],
        tables: [
          {
            title: "Each bot",
            columns: ["Bot", "robots.txt", "Status", "Bytes", "Title", "Same as browser", "Problems"],
            rows: rows.map((r) => [r.bot, r.robots_allowed ? "allowed" : "disallowed", r.status, r.bytes, r.title, r.same_as_browser, r.problems.join("; ")]),
          },
        ],
      },
    };
  },
});
