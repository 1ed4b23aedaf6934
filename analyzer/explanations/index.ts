// Explanation texts for every catalogued check (spec GET /explain/{code}), one file per display group
// (the larger groups in several files, one per theme).
// Pure data: hint in Russian and English, plain in Russian, no guide pages yet (guide null).
import { CONTENT } from "./content.ts";
import { CONTENT_MARKUP } from "./content-markup.ts";
import { DOMAIN } from "./domain.ts";
import { INDEXING } from "./indexing.ts";
import { INDEXING_ROBOTS_SITEMAPS } from "./indexing-robots-sitemaps.ts";
import { INDEXING_URLS } from "./indexing-urls.ts";
import { INTERNATIONAL } from "./international.ts";
import { LINKS } from "./links.ts";
import { MOBILE } from "./mobile.ts";
import { PERFORMANCE } from "./performance.ts";
import { PERFORMANCE_BROWSER } from "./performance-browser.ts";
import { SECURITY } from "./security.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";
import { SOCIAL } from "./social.ts";
import { STRUCTURED_DATA } from "./structured-data.ts";
import { TECHNICAL } from "./technical.ts";
import type { Explanation } from "./types.ts";

export const EXPLANATIONS: Readonly<Record<string, Explanation>> = Object.freeze({
  ...INDEXING,
  ...INDEXING_ROBOTS_SITEMAPS,
  ...INDEXING_URLS,
  ...TECHNICAL,
  ...SECURITY,
  ...SECURITY_HEADERS,
  ...DOMAIN,
  ...PERFORMANCE,
  ...PERFORMANCE_BROWSER,
  ...CONTENT,
  ...CONTENT_MARKUP,
  ...LINKS,
  ...MOBILE,
  ...INTERNATIONAL,
  ...STRUCTURED_DATA,
  ...SOCIAL,
});

export type { Explanation, GuideRef, HintText, PlainText } from "./types.ts";
