// The three sites of the golden rank tests. Their expected numbers are worked out by hand in rank.test.ts.
import type { SiteFacts } from "../../../proto/index.ts";
import { DAY, NOW, ORIGIN, allPages, healthySite, response, setHeader } from "./site-builder.ts";

export { healthySite };

/**
 * Many everyday faults, no cap. It landed in "fair" (68) with the 72-check catalogue; the checks added
 * since pass or do not apply on it (but bimi, which DMARC p=none defeats), so it now lands in "good" (72).
 */
export function mediocreSite(): SiteFacts {
  return healthySite((f) => {
    Object.assign(f.robots!, { response: response(`${ORIGIN}/robots.txt`, { status: 503 }), present: false, groups: [] });
    f.sitemaps = [];
    f.dns!.spf = "";
    f.dns!.dmarc = "v=DMARC1; p=none";
    f.securityTxt = response(`${ORIGIN}/.well-known/security.txt`, { status: 404 });
    setHeader(f.home!.response, "strict-transport-security", null);
    for (const p of allPages(f)) {
      p.response!.ttfbMs = 900;
      p.response!.contentEncoding = "";
      p.canonicals = [];
      p.metaDescription = "";
      p.openGraph = [];
      p.renderBlockingScripts = 1;
      p.images.forEach((img) => Object.assign(img, { hasAlt: false, width: 0, height: 0 }));
    }
    for (const p of f.pages) p.headings = [{ level: 2, text: "Details" }];
    f.home!.links.push({ href: `${ORIGIN}/blog/`, text: "read more", nofollow: false, internal: true });
    f.home!.metaViewport = "";
  });
}

/** Closed to crawlers, expired certificate, no http→https redirect: three caps. */
export function brokenSite(): SiteFacts {
  return healthySite((f) => {
    f.robots!.groups[0]!.disallow = ["/"];
    Object.assign(f.tls!, { validTo: NOW - 3 * DAY, authorized: false, authorizationError: "CERT_HAS_EXPIRED" });
    f.httpVariant = response("http://example.com/");
  });
}
