// Two keys for one URL. The strict key decides what a crawl fetches: RFC 3986 normalisation only
// (scheme and host case, default port, dot segments, percent-encoding case — what WHATWG URL
// parsing does), fragment removed; `/a` and `/a/`, `?a=1&b=2` and `?b=2&a=1` stay different URLs,
// because a server may answer them differently. The loose key groups URLs a search engine would
// likely treat as one page, so the duplicates a site creates can be reported rather than hidden.

/** Query parameters that only track a visit (they never change the page). */
export const TRACKING_PARAMETERS: ReadonlySet<string> = new Set([
  "gclid",
  "dclid",
  "gbraid",
  "wbraid",
  "fbclid",
  "msclkid",
  "yclid",
  "ysclid",
  "_openstat",
  "mc_cid",
  "mc_eid",
  "igshid",
  "_ga",
  "_gl",
  "ref_src",
]);

/** The strict key: the absolute URL without its fragment, or null when it is not an http(s) URL. */
export function strictKey(href: string, base?: string): string | null {
  let u: URL;
  try {
    u = base === undefined ? new URL(href) : new URL(href, base);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  u.hash = "";
  return u.href;
}

/**
 * The loose key: the strict key without a trailing slash (but the root's), without a trailing
 * index.html/index.php, without tracking parameters (utm_* and TRACKING_PARAMETERS), with the
 * remaining parameters sorted and an empty query dropped. Scheme and host are kept.
 */
export function looseKey(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  u.hash = "";
  let path = u.pathname.replace(/\/index\.(html?|php)$/i, "/");
  if (path.length > 1 && path.endsWith("/")) path = path.replace(/\/+$/, "") || "/";
  u.pathname = path;
  const params = [...u.searchParams.entries()].filter(([k]) => !isTracking(k));
  params.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  u.search = params.length > 0 ? `?${new URLSearchParams(params).toString()}` : "";
  return u.href;
}

export function isTracking(parameter: string): boolean {
  const p = parameter.toLowerCase();
  return p.startsWith("utm_") || TRACKING_PARAMETERS.has(p);
}
