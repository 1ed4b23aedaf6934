// Robots directives of a page: the robots metas and the X-Robots-Tag header, as one list of directives.
import type { PageFacts } from "../../proto/index.ts";

/** Lower-case directives, with a user-agent prefix ("googlebot: nosnippet") removed. */
export function robotsDirectives(page: PageFacts): string[] {
  const text = [page.metaRobots, page.xRobotsTag].filter(Boolean).join(",").toLowerCase();
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const match = /^([a-z0-9_-]+)\s*:\s*(.+)$/.exec(item);
      // "googlebot: nosnippet" names a user agent; "max-snippet: 0" is a directive with a value.
      if (match && !/^(max-snippet|max-image-preview|max-video-preview|unavailable_after)$/.test(match[1] ?? "")) return (match[2] ?? "").trim();
      return item.replace(/\s*:\s*/, ":");
    });
}
