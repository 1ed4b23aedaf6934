// Which paths a robots.txt lets a crawler fetch (RFC 9309 §2.2), read from RobotsFacts: the one
// matcher the crawler obeys for itself and the checks judge search crawlers by. Pure.
import type { RobotsFacts, RobotsGroupRules } from "../proto/index.ts";

/** The product token of a user agent or a robots.txt user-agent line: `SvcBot/0.1 (+…)` → `svcbot`. */
export function productToken(userAgent: string): string {
  return (/^[a-zA-Z_-]+/.exec(userAgent.trim())?.[0] ?? "").toLowerCase();
}

/** The groups that apply to a crawler: every group naming its token (merged), else the `*` groups. */
export function matchingGroups(robots: RobotsFacts, userAgent: string): RobotsGroupRules[] {
  const token = productToken(userAgent);
  const named = robots.groups.filter((g) => g.userAgents.some((ua) => ua !== "*" && productToken(ua) === token));
  return named.length > 0 ? named : robots.groups.filter((g) => g.userAgents.includes("*"));
}

/**
 * Whether robots.txt lets `userAgent` fetch `path` (path and query): the longest matching pattern
 * wins, Allow on a tie; `*` matches any characters and a final `$` anchors the end (RFC 9309 §2.2.2).
 */
export function isAllowed(robots: RobotsFacts, userAgent: string, path: string): boolean {
  const target = normalizeEncoding(path || "/");
  if (target === "/robots.txt") return true;
  let best = -1;
  let allowed = true;
  for (const group of matchingGroups(robots, userAgent)) {
    for (const [patterns, allow] of [[group.allow, true], [group.disallow, false]] as const) {
      for (const pattern of patterns) {
        const p = normalizeEncoding(pattern);
        if (!patternMatches(p, target)) continue;
        if (p.length > best || (p.length === best && allow)) {
          best = p.length;
          allowed = allow;
        }
      }
    }
  }
  return allowed;
}

/** The Crawl-delay, in seconds, of the groups that apply to `userAgent` (0 when none). */
export function crawlDelaySeconds(robots: RobotsFacts, userAgent: string): number {
  return Math.max(0, ...matchingGroups(robots, userAgent).map((g) => g.crawlDelayS));
}

const patternCache = new Map<string, RegExp>();

function patternMatches(pattern: string, path: string): boolean {
  let re = patternCache.get(pattern);
  if (!re) {
    const anchored = pattern.endsWith("$");
    const body = (anchored ? pattern.slice(0, -1) : pattern)
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    re = new RegExp(`^${body}${anchored ? "$" : ""}`, "s");
    if (patternCache.size > 10_000) patternCache.clear();
    patternCache.set(pattern, re);
  }
  return re.test(path);
}

/** Percent-encodes non-ASCII as UTF-8 and upper-cases escapes, so `/ä` and `/%c3%a4` compare equal. */
function normalizeEncoding(s: string): string {
  return s.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase()).replace(/[^\x20-\x7e]+/g, (m) => encodeURIComponent(m));
}
