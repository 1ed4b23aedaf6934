import { readRobots, robotsVerdict, type RobotsReading } from "../../analyzer/index.ts";
import { UtilityError, defineUtility } from "../utility.ts";
import { bodyText, netOf } from "./net-util.ts";

const BOTS = ["Googlebot", "Googlebot-Image", "YandexBot", "Bingbot", "GPTBot", "ClaudeBot", "PerplexityBot", "Google-Extended", "CCBot", "*"] as const;

interface Input {
  url: string;
  robots_text?: string;
  test_urls?: string[];
  bots: string[];
}

/** One syntax problem of the file: its line, the line's text and what is wrong with it. */
interface Problem {
  line: number;
  text: string;
  problem: string;
}

/** The parser's problems ("line N: what"), each with the text of its line. */
function problemsOf(reading: RobotsReading, text: string): Problem[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  return reading.facts.syntaxErrors.map((error) => {
    const m = /^line (\d+): (.*)$/s.exec(error);
    const line = m ? Number(m[1]) : 0;
    return { line, text: (lines[line - 1] ?? "").slice(0, 200), problem: m ? (m[2] as string) : error };
  });
}

/** The verdict for one bot and path, with the rule and line that decided: the crawler's own matcher (analyzer/robots-match.ts). */
export function botVerdict(reading: RobotsReading, bot: string, path: string): { allowed: boolean; line: number | null; rule: string | null } {
  const { allowed, rule } = robotsVerdict(reading.facts, bot, path);
  if (!rule) return { allowed, line: null, rule: null };
  const line = reading.lines.groups[rule.group]?.rules.find((r) => r.allow === rule.allow && r.pattern === rule.pattern)?.line ?? null;
  return { allowed, line, rule: `${rule.allow ? "Allow" : "Disallow"}: ${rule.pattern}` };
}

export const robotsTxtCheck = defineUtility<Input>({
  id: "robots_txt_check",
  group: "site",
  title: "robots.txt analyzer & URL tester",
  description:
    "Fetches /robots.txt or checks pasted text. Shows syntax problems, groups, Sitemap/Clean-param/Crawl-delay lines, and the allow/disallow verdict for each test URL and bot, with the line that matched",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "Site or page URL", required: true },
    { name: "robots_text", type: "text", label: "robots.txt text (instead of fetching it)", max: 500_000 },
    { name: "test_urls", type: "list", label: "URLs or paths to test", max: 100 },
    { name: "bots", type: "multi", label: "Bots", options: BOTS, default: ["Googlebot", "YandexBot"] },
  ],
  example: { url: "https://example.com/", test_urls: ["/", "/admin/", "/search?q=1"], bots: ["Googlebot", "YandexBot", "GPTBot"] },
  async run(input, ports) {
    const base = new URL(input.url);
    let text = input.robots_text;
    let status: number | null = null;
    if (text === undefined) {
      const res = await netOf(ports).fetch(new URL("/robots.txt", base).href, { maxBytes: 500 * 1024 });
      status = res.status;
      // RFC 9309 §2.3.1: 4xx means no rules (everything allowed); 5xx means crawlers assume everything disallowed.
      if (res.status >= 500) text = "User-agent: *\nDisallow: /";
      else text = res.status >= 200 && res.status < 300 ? bodyText(res) : "";
    }
    // The crawler's own parser and matcher (analyzer/robots-parse.ts, robots-match.ts): what this
    // reports is what a crawl of the site obeys and its report says.
    const reading = readRobots(text);
    const { facts } = reading;
    const errors = problemsOf(reading, text);
    const tests = (input.test_urls && input.test_urls.length > 0 ? input.test_urls : [base.pathname + base.search]).map((u) => {
      try {
        const url = new URL(u, base);
        return { input: u, path: url.pathname + url.search };
      } catch {
        throw new UtilityError("bad_param", `"${u.slice(0, 100)}" is not a URL or path`, "input.test_urls");
      }
    });
    const verdicts = tests.flatMap((t) =>
      input.bots.map((bot) => {
        const v = botVerdict(reading, bot, t.path);
        return { url: t.input, bot, allowed: v.allowed, line: v.line, rule: v.rule };
      }),
    );
    const groups = facts.groups.map((g, i) => {
      const lines = reading.lines.groups[i];
      return { agents: lines?.agents ?? g.userAgents, line: lines?.line ?? null, allow: g.allow.length, disallow: g.disallow.length, crawl_delay: g.crawlDelayS > 0 ? g.crawlDelayS : null };
    });
    const sitemaps = facts.sitemaps;
    const host = facts.hostDirective || null;
    return {
      result: { status, source: input.robots_text === undefined ? "fetched" : "pasted", errors, groups, sitemaps, clean_params: facts.cleanParams, host, verdicts },
      blocks: {
        pairs: [
          { label: "robots.txt", value: status === null ? "pasted text" : `HTTP ${status}`, status: status === null || (status >= 200 && status < 300) ? "good" : status >= 500 ? "bad" : "warn" },
          { label: "Groups", value: String(groups.length) },
          { label: "Sitemaps", value: sitemaps.join(", ") || "none", status: sitemaps.length > 0 ? "good" : "warn" },
          { label: "Syntax problems", value: String(errors.length), status: errors.length === 0 ? "good" : "warn" },
        ],
        tables: [
          { title: "Verdicts", columns: ["URL", "Bot", "Allowed", "Line", "Rule"], rows: verdicts.map((v) => [v.url, v.bot, v.allowed, v.line, v.rule]) },
          { title: "Groups", columns: ["User-agents", "Line", "Allow", "Disallow", "Crawl-delay"], rows: groups.map((g) => [g.agents.join(", "), g.line, g.allow, g.disallow, g.crawl_delay]) },
          ...(errors.length > 0 ? [{ title: "Problems", columns: ["Line", "Text", "Problem"], rows: errors.map((e) => [e.line, e.text, e.problem]) }] : []),
        ],
        code: [{ lang: "text", text, filename: "robots.txt" }],
      },
    };
  },
});
