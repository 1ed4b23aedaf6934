import { UtilityError, defineUtility } from "../utility.ts";
import { bodyText, netOf } from "./net-util.ts";

const BOTS = ["Googlebot", "Googlebot-Image", "YandexBot", "Bingbot", "GPTBot", "ClaudeBot", "PerplexityBot", "Google-Extended", "CCBot", "*"] as const;

interface Input {
  url: string;
  robots_text?: string;
  test_urls?: string[];
  bots: string[];
}

interface Rule {
  allow: boolean;
  path: string;
  line: number;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawl_delay: number | null;
  line: number;
}

export interface ParsedRobots {
  groups: Group[];
  sitemaps: string[];
  clean_params: string[];
  host: string | null;
  errors: { line: number; text: string; problem: string }[];
}

const KNOWN = new Set(["user-agent", "allow", "disallow", "sitemap", "crawl-delay", "clean-param", "host"]);

/** robots.txt as RFC 9309 reads it, plus Yandex's Clean-param and Host and the common Crawl-delay. */
export function parseRobots(text: string): ParsedRobots {
  const out: ParsedRobots = { groups: [], sitemaps: [], clean_params: [], host: null, errors: [] };
  let current: Group | null = null;
  let lastWasAgent = false;
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = i + 1;
    const content = raw.replace(/#.*$/, "").trim();
    if (content === "") return;
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(content);
    if (!m) {
      out.errors.push({ line, text: raw.slice(0, 200), problem: "not a \"field: value\" line" });
      return;
    }
    const field = (m[1] as string).toLowerCase();
    const value = (m[2] as string).trim();
    if (!KNOWN.has(field)) {
      out.errors.push({ line, text: raw.slice(0, 200), problem: `unknown field ${m[1]}` });
      return;
    }
    if (field === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawl_delay: null, line };
        out.groups.push(current);
      }
      current.agents.push(value);
      lastWasAgent = true;
      return;
    }
    lastWasAgent = false;
    if (field === "sitemap") {
      if (!/^https?:\/\//i.test(value)) out.errors.push({ line, text: raw.slice(0, 200), problem: "Sitemap needs an absolute URL" });
      else out.sitemaps.push(value);
    } else if (field === "clean-param") out.clean_params.push(value);
    else if (field === "host") out.host = value;
    else if (!current) out.errors.push({ line, text: raw.slice(0, 200), problem: `${m[1]} before any User-agent line is ignored` });
    else if (field === "crawl-delay") {
      const n = Number(value.replace(",", "."));
      if (!Number.isFinite(n) || n < 0) out.errors.push({ line, text: raw.slice(0, 200), problem: "Crawl-delay must be a number of seconds" });
      else current.crawl_delay = n;
    } else {
      if (value !== "" && !value.startsWith("/") && !value.startsWith("*")) out.errors.push({ line, text: raw.slice(0, 200), problem: "a path should start with / or *" });
      // An empty Disallow allows everything: it is no rule.
      if (value !== "") current.rules.push({ allow: field === "allow", path: value, line });
    }
  });
  return out;
}

/** The groups that apply to a bot: its own (by product token), a family group (Googlebot-Image → Googlebot, YandexBot → Yandex), else *. */
export function groupsFor(parsed: ParsedRobots, bot: string): Group[] {
  const token = bot.toLowerCase();
  const named = (name: string) => parsed.groups.filter((g) => g.agents.some((a) => a.toLowerCase() === name));
  if (token !== "*") {
    const own = named(token);
    if (own.length > 0) return own;
    const family = token.startsWith("googlebot-") ? "googlebot" : token.startsWith("yandex") ? "yandex" : null;
    if (family) {
      const fam = named(family);
      if (fam.length > 0) return fam;
    }
  }
  return named("*");
}

/** Whether a robots.txt path pattern (with * and $) matches a path. */
function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const re = new RegExp(`^${body.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}${anchored ? "$" : ""}`);
  return re.test(path);
}

/** The verdict for a path: the longest matching rule wins, allow on a tie; no rule allows. */
export function verdict(groups: readonly Group[], path: string): { allowed: boolean; rule: Rule | null } {
  let best: Rule | null = null;
  for (const rule of groups.flatMap((g) => g.rules)) {
    if (!matches(rule.path, path)) continue;
    if (!best || rule.path.length > best.path.length || (rule.path.length === best.path.length && rule.allow && !best.allow)) best = rule;
  }
  return { allowed: best ? best.allow : true, rule: best };
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
    const parsed = parseRobots(text);
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
        const v = verdict(groupsFor(parsed, bot), t.path);
        return { url: t.input, bot, allowed: v.allowed, line: v.rule?.line ?? null, rule: v.rule ? `${v.rule.allow ? "Allow" : "Disallow"}: ${v.rule.path}` : null };
      }),
    );
    const groups = parsed.groups.map((g) => ({ agents: g.agents, line: g.line, allow: g.rules.filter((r) => r.allow).length, disallow: g.rules.filter((r) => !r.allow).length, crawl_delay: g.crawl_delay }));
    return {
      result: { status, source: input.robots_text === undefined ? "fetched" : "pasted", errors: parsed.errors, groups, sitemaps: parsed.sitemaps, clean_params: parsed.clean_params, host: parsed.host, verdicts },
      blocks: {
        pairs: [
          { label: "robots.txt", value: status === null ? "pasted text" : `HTTP ${status}`, status: status === null || (status >= 200 && status < 300) ? "good" : status >= 500 ? "bad" : "warn" },
          { label: "Groups", value: String(groups.length) },
          { label: "Sitemaps", value: parsed.sitemaps.join(", ") || "none", status: parsed.sitemaps.length > 0 ? "good" : "warn" },
          { label: "Syntax problems", value: String(parsed.errors.length), status: parsed.errors.length === 0 ? "good" : "warn" },
        ],
        tables: [
          { title: "Verdicts", columns: ["URL", "Bot", "Allowed", "Line", "Rule"], rows: verdicts.map((v) => [v.url, v.bot, v.allowed, v.line, v.rule]) },
          { title: "Groups", columns: ["User-agents", "Line", "Allow", "Disallow", "Crawl-delay"], rows: groups.map((g) => [g.agents.join(", "), g.line, g.allow, g.disallow, g.crawl_delay]) },
          ...(parsed.errors.length > 0 ? [{ title: "Problems", columns: ["Line", "Text", "Problem"], rows: parsed.errors.map((e) => [e.line, e.text, e.problem]) }] : []),
        ],
        code: [{ lang: "text", text, filename: "robots.txt" }],
      },
    };
  },
});
