// The guide pages (GET /guides, GET /guides/{id}): topical guides in Russian, one section per
// catalogued check, every check in exactly one guide (test/unit/analyzer/guides.test.ts holds that
// and the texts' quality). Pure data and a renderer; the gateway serves what renderGuidePage makes.
import { BROKEN_LINKS } from "./broken-links.ts";
import { CANONICAL_URLS } from "./canonical-urls.ts";
import { COOKIES_AND_SCRIPTS } from "./cookies-and-scripts.ts";
import { CORE_WEB_VITALS } from "./core-web-vitals.ts";
import { DOMAIN_DNS } from "./domain-dns.ts";
import { DUPLICATES } from "./duplicates.ts";
import { EMAIL_DNS } from "./email-dns.ts";
import { HEADINGS } from "./headings.ts";
import { HREFLANG } from "./hreflang.ts";
import { HTML_BASICS } from "./html-basics.ts";
import { HTTPS_AND_TLS } from "./https-and-tls.ts";
import { IMAGES } from "./images.ts";
import { INDEXING_DIRECTIVES } from "./indexing-directives.ts";
import { LINK_TEXT } from "./link-text.ts";
import { MIXED_CONTENT } from "./mixed-content.ts";
import { MOBILE_AND_PWA } from "./mobile-and-pwa.ts";
import { OPEN_GRAPH } from "./open-graph.ts";
import { PAGE_SPEED } from "./page-speed.ts";
import { PAGE_TEXT } from "./page-text.ts";
import { REDIRECTS } from "./redirects.ts";
import { ROBOTS_TXT } from "./robots-txt.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";
import { SECURITY_TXT } from "./security-txt.ts";
import { SITE_STRUCTURE } from "./site-structure.ts";
import { SITEMAPS } from "./sitemaps.ts";
import { STATUS_CODES } from "./status-codes.ts";
import { STRUCTURED_DATA } from "./structured-data.ts";
import { TITLES_AND_DESCRIPTIONS } from "./titles-and-descriptions.ts";
import type { Guide } from "./types.ts";

/** The guides in reading order (roughly the catalogue's: indexing first, presentation last). */
export const GUIDES: readonly Guide[] = Object.freeze([
  ROBOTS_TXT,
  SITEMAPS,
  STATUS_CODES,
  INDEXING_DIRECTIVES,
  CANONICAL_URLS,
  REDIRECTS,
  DUPLICATES,
  PAGE_SPEED,
  CORE_WEB_VITALS,
  HTML_BASICS,
  HTTPS_AND_TLS,
  MIXED_CONTENT,
  SECURITY_HEADERS,
  COOKIES_AND_SCRIPTS,
  SECURITY_TXT,
  DOMAIN_DNS,
  EMAIL_DNS,
  TITLES_AND_DESCRIPTIONS,
  HEADINGS,
  PAGE_TEXT,
  IMAGES,
  BROKEN_LINKS,
  SITE_STRUCTURE,
  LINK_TEXT,
  MOBILE_AND_PWA,
  HREFLANG,
  STRUCTURED_DATA,
  OPEN_GRAPH,
]);

/** The guide covering each check code. */
export const GUIDE_OF: ReadonlyMap<string, Guide> = new Map(GUIDES.flatMap((g) => g.sections.map((s) => [s.code, g] as const)));

export { checksCount, escapeHtml, GUIDES_PATH, renderGuideIndex, renderGuidePage } from "./render.ts";
export type { Guide, GuideSection, Snippet } from "./types.ts";
