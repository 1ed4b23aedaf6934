// robots.txt as the diagnosis compares it: the parsed rules as canonical lines, one
// per rule and user agent ("Disallow: /blog/ (User-agent: *)"), sorted and unique, so that two
// versions differ exactly where a rule was added or removed (not where a comment or the order
// changed). The scheduler stores them per change (storage/sites/robots-repo.ts); the index-drop rule
// reads the lines a change added.
import type { RobotsFacts } from "../../proto/index.ts";

/** At most this many lines are kept of one robots.txt (a file of more is cut; its hash still tells a change). */
export const ROBOTS_LINES_MAX = 2000;

/**
 * The user agents whose rules decide what search engines index: `*` and the search engines' own
 * tokens (lower case, as the parser stores them).
 */
export const SEARCH_AGENTS: ReadonlySet<string> = new Set(["*", "googlebot", "bingbot", "yandex", "yandexbot", "duckduckbot", "baiduspider", "slurp"]);

/** The canonical lines of a parsed robots.txt. */
export function robotsLines(robots: RobotsFacts): string[] {
  const lines = new Set<string>();
  for (const group of robots.groups) {
    for (const agent of group.userAgents) {
      for (const path of group.disallow) if (path !== "") lines.add(`Disallow: ${path} (User-agent: ${agent})`);
      for (const path of group.allow) if (path !== "") lines.add(`Allow: ${path} (User-agent: ${agent})`);
    }
  }
  for (const sitemap of robots.sitemaps) lines.add(`Sitemap: ${sitemap}`);
  return [...lines].sort().slice(0, ROBOTS_LINES_MAX);
}

/** What a version of robots.txt added and removed against the one before it. */
export function robotsDiff(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  const was = new Set(before);
  const is = new Set(after);
  return { added: after.filter((l) => !was.has(l)), removed: before.filter((l) => !is.has(l)) };
}

const DISALLOW = /^Disallow: (.+) \(User-agent: (.+)\)$/;

/** A line that closes paths to a search engine: a Disallow for `*` or a search engine's own token. */
export function blockingRule(line: string): { path: string; agent: string } | null {
  const m = DISALLOW.exec(line);
  if (!m || !SEARCH_AGENTS.has(m[2]!)) return null;
  return { path: m[1]!, agent: m[2]! };
}
