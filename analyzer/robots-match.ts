// Which paths a robots.txt lets a crawler fetch (RFC 9309 §2.2), read from RobotsFacts: the one
// matcher the crawler obeys for itself and the checks judge search crawlers by. Pure.
import type { RobotsFacts, RobotsGroupRules } from "../proto/index.ts";

/** The product token of a user agent or a robots.txt user-agent line: `SvcBot/0.1 (+…)` → `svcbot`. */
export function productToken(userAgent: string): string {
  return (/^[a-zA-Z_-]+/.exec(userAgent.trim())?.[0] ?? "").toLowerCase();
}

/**
 * The groups that apply to a crawler: every group naming its token (merged), else every group
 * naming its family (Googlebot-Image and Googlebot-News obey `Googlebot`, YandexBot and
 * YandexImages obey `Yandex`, as Google and Yandex document), else the `*` groups.
 */
export function matchingGroups(robots: RobotsFacts, userAgent: string): RobotsGroupRules[] {
  const token = productToken(userAgent);
  const naming = (t: string) => (t === "" ? [] : robots.groups.filter((g) => g.userAgents.some((ua) => ua !== "*" && productToken(ua) === t)));
  const own = naming(token);
  if (own.length > 0) return own;
  const family = familyOf(token);
  const kin = family === token ? [] : naming(family);
  return kin.length > 0 ? kin : robots.groups.filter((g) => g.userAgents.includes("*"));
}

function familyOf(token: string): string {
  if (token.startsWith("googlebot-")) return "googlebot";
  if (token.startsWith("yandex")) return "yandex";
  return token;
}

/** Whether a path may be fetched, and the rule that decided: its group (an index into `robots.groups`), kind and pattern; null when none matched. */
export interface RobotsVerdict {
  readonly allowed: boolean;
  readonly rule: { readonly group: number; readonly allow: boolean; readonly pattern: string } | null;
}

/**
 * Whether robots.txt lets `userAgent` fetch `path` (path and query): the longest matching pattern
 * wins, Allow on a tie; `*` matches any characters and a final `$` anchors the end (RFC 9309 §2.2.2).
 */
export function isAllowed(robots: RobotsFacts, userAgent: string, path: string): boolean {
  return robotsVerdict(robots, userAgent, path).allowed;
}

/** isAllowed with the rule that decided. */
export function robotsVerdict(robots: RobotsFacts, userAgent: string, path: string): RobotsVerdict {
  const target = normalizeEncoding(path || "/");
  if (target === "/robots.txt") return { allowed: true, rule: null };
  let best = -1;
  let rule: RobotsVerdict["rule"] = null;
  for (const group of matchingGroups(robots, userAgent)) {
    for (const [patterns, allow] of [[group.allow, true], [group.disallow, false]] as const) {
      for (const pattern of patterns) {
        const p = normalizeEncoding(pattern);
        if (!patternMatches(p, target)) continue;
        if (p.length > best || (p.length === best && allow && !(rule?.allow ?? false))) {
          best = p.length;
          rule = { group: robots.groups.indexOf(group), allow, pattern };
        }
      }
    }
  }
  return { allowed: rule?.allow ?? true, rule };
}

/** The Crawl-delay, in seconds, of the groups that apply to `userAgent` (0 when none). */
export function crawlDelaySeconds(robots: RobotsFacts, userAgent: string): number {
  return Math.max(0, ...matchingGroups(robots, userAgent).map((g) => g.crawlDelayS));
}

/**
 * Whether a robots.txt pattern matches the start of a path (the whole path with a final `$`).
 * Wildcard matching without regular expressions: a backtracking RegExp of a pattern such as
 * `/*a*a*a*a*X` took 30 s for one 200-character path, on the crawler's thread, for every link.
 * This two-pointer matcher returns to the last `*` only, so a check costs at most
 * pattern length × path length steps (the bound of Google's robots.txt matcher).
 */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const p = anchored ? pattern.slice(0, -1) : pattern;
  let i = 0; // in p
  let j = 0; // in path
  let star = -1; // the last * of p met
  let resume = 0; // where in path that * was last made to end
  while (j < path.length) {
    if (i === p.length && !anchored) return true; // unanchored: a matched prefix is enough
    if (i < p.length && p[i] === "*") {
      star = i++;
      resume = j;
    } else if (i < p.length && p[i] === path[j]) {
      i++;
      j++;
    } else if (star >= 0) {
      // Let the last * swallow one more character and try again from there.
      i = star + 1;
      j = ++resume;
    } else return false;
  }
  while (i < p.length && p[i] === "*") i++;
  return i === p.length;
}

/** Percent-encodes non-ASCII as UTF-8 and upper-cases escapes, so `/ä` and `/%c3%a4` compare equal. */
function normalizeEncoding(s: string): string {
  return s.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase()).replace(/[^\x20-\x7e]+/g, (m) => encodeURIComponent(m));
}
