import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";
import { schemaNodes } from "./schema-nodes.ts";

// Social networks and code hosts whose profile pages a site links to as its own presence.
const NETWORKS = [
  "facebook.com",
  "instagram.com",
  "x.com",
  "twitter.com",
  "linkedin.com",
  "youtube.com",
  "tiktok.com",
  "pinterest.com",
  "threads.net",
  "vk.com",
  "ok.ru",
  "t.me",
  "dzen.ru",
  "rutube.ru",
  "github.com",
];
// Paths that share the current page rather than point to a profile.
const SHARE_PATH = /^\/(sharer|share|intent|dialog\/share|shareArticle)\b|^\/share\.php/i;

/** The network of a profile URL, or undefined (share buttons are not profiles). */
export function profileNetwork(href: string): string | undefined {
  const url = httpUrl(href);
  if (!url || url.pathname === "/" || SHARE_PATH.test(url.pathname)) return undefined;
  const host = url.hostname.replace(/^(www|m|mobile)\./, "");
  return NETWORKS.find((n) => host === n || host.endsWith(`.${n}`));
}

export const socialProfiles: CheckDef = {
  code: "social_profiles",
  title: "Home page links the site's social profiles",
  group: "social",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Link your social network profiles from the home page (header or footer), and list them in the Organization's sameAs in JSON-LD.",
  run(facts) {
    const home = htmlPages(facts).find((p) => p.isHome);
    if (!home) return notApplicable("the home page did not answer 200 with HTML");
    const sameAs = schemaNodes(home.page.jsonLd)
      .flatMap((n): unknown[] => (Array.isArray(n.sameAs) ? (n.sameAs as unknown[]) : [n.sameAs]))
      .filter((v): v is string => typeof v === "string");
    const networks = [...new Set([...home.page.links.map((l) => l.href), ...sameAs].map(profileNetwork).filter((n): n is string => n !== undefined))];
    if (networks.length === 0) return fail(0, "the home page links no social network profile and declares no sameAs");
    return pass(networks.length, `profiles on ${networks.join(", ")}`);
  },
};
