// Which paths robots.txt closes to the search crawlers the catalogue judges by, with the same
// matcher the crawler obeys for itself (analyzer/robots-match.ts).
import type { RobotsFacts } from "../../proto/index.ts";
import { isAllowed } from "../robots-match.ts";

/** The search crawlers whose rules decide indexing (catalogue: Googlebot and Yandex). */
export const SEARCH_CRAWLERS = ["googlebot", "yandex"] as const;

/** The search crawlers (of SEARCH_CRAWLERS) robots.txt keeps away from a URL's path. */
export function blockedFor(robots: RobotsFacts, url: URL): string[] {
  return SEARCH_CRAWLERS.filter((token) => !isAllowed(robots, token, url.pathname + url.search));
}
