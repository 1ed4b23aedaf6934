import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "0.0.0.0", "[::1]"]);

function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost");
}

/**
 * Whether a link leads to a local development host other than the page's own. A site served from
 * loopback (a test or intranet install) links to itself on that address, and that is no mistake;
 * a link to localhost from anywhere else, or to another local host or port, is a leftover.
 */
function strayLocal(href: string, pageHost: string, ownPrefixes: readonly string[]): boolean {
  // A link into the page's own origin is never stray: most of a page's links, told without parsing.
  for (const prefix of ownPrefixes) if (href.startsWith(prefix)) return false;
  const url = httpUrl(href);
  return url !== undefined && isLocalHost(url.hostname) && url.host !== pageHost;
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
      ({ page, url }) => {
        if (page.links.length === 0) return "na";
        const own = httpUrl(url)?.host ?? "";
        const ownPrefixes = own ? [`http://${own}/`, `https://${own}/`] : [];
        const local = page.links.find((l) => strayLocal(l.href, own, ownPrefixes));
        return local ? { verdict: "fail", why: local.href } : "pass";
      },
      { problem: "links to localhost", none: "no page has links" },
    );
  },
};
