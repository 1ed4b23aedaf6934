// Which paths robots.txt closes to a search crawler (RFC 9309 §2.2): the analyzer's own reading of
// RobotsFacts, the same rules the crawler obeys for itself (crawler/robots.ts isAllowed).
import type { RobotsFacts, RobotsGroupRules } from "../../proto/index.ts";

/** The search crawlers whose rules decide indexing (catalogue: Googlebot and Yandex). */
export const SEARCH_CRAWLERS = ["googlebot", "yandex"] as const;

/** The product token of a user-agent line: `Googlebot/2.1` → `googlebot`. */
function productToken(userAgent: string): string {
  return (/^[a-zA-Z_-]+/.exec(userAgent.trim())?.[0] ?? "").toLowerCase();
}

/** The groups a crawler obeys: every group naming its token, else the `*` groups. */
function groupsFor(robots: RobotsFacts, token: string): RobotsGroupRules[] {
  const named = robots.groups.filter((g) => g.userAgents.some((ua) => ua !== "*" && productToken(ua) === token));
  return named.length > 0 ? named : robots.groups.filter((g) => g.userAgents.includes("*"));
}

/** Percent-escapes upper-cased and non-ASCII encoded, so `/ä` and `/%c3%a4` compare equal. */
function normalise(s: string): string {
  return s.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase()).replace(/[^\x20-\x7e]+/g, (m) => encodeURIComponent(m));
}

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`, "s").test(path);
}

/** Whether `token` may fetch `path` (path and query): the longest matching rule wins, Allow on a tie. */
export function mayFetch(robots: RobotsFacts, token: string, path: string): boolean {
  const target = normalise(path || "/");
  let best = -1;
  let allowed = true;
  for (const group of groupsFor(robots, token)) {
    for (const [patterns, allow] of [[group.allow, true], [group.disallow, false]] as const) {
      for (const raw of patterns) {
        const pattern = normalise(raw);
        if (!matches(pattern, target)) continue;
        if (pattern.length > best || (pattern.length === best && allow)) {
          best = pattern.length;
          allowed = allow;
        }
      }
    }
  }
  return allowed;
}

/** The search crawlers (of SEARCH_CRAWLERS) robots.txt keeps away from a URL's path. */
export function blockedFor(robots: RobotsFacts, url: URL): string[] {
  return SEARCH_CRAWLERS.filter((token) => !mayFetch(robots, token, url.pathname + url.search));
}
