import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "0.0.0.0", "[::1]"]);

function isLocal(href: string): boolean {
  const host = httpUrl(href)?.hostname;
  return host !== undefined && (LOCAL_HOSTS.has(host) || host.endsWith(".localhost"));
}

export const localhostLinks: CheckDef = {
  code: "localhost_links",
  title: "No links to localhost",
  group: "links",
  rankGroup: "links",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Replace links to localhost/127.0.0.1 (left over from development) with the public URLs.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.links.length === 0) return "na";
        const local = page.links.find((l) => isLocal(l.href));
        return local ? { verdict: "fail", why: local.href } : "pass";
      },
      { problem: "links to localhost", none: "no page has links" },
    );
  },
};
