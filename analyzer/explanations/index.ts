// Explanation texts for every catalogued check (spec GET /explain/{code}), one file per display
// group (the larger groups in several files, one per theme). Pure data: hint in Russian and
// English, plain in Russian. The guide reference is not written there but derived from the guides
// catalogue (analyzer/guides), which places every check in exactly one guide.
import { GUIDE_OF, GUIDES_PATH } from "../guides/index.ts";
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
import type { Explanation, ExplanationText, GuideRef } from "./types.ts";

const TEXTS: Readonly<Record<string, ExplanationText>> = {
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
};

function guideRef(code: string): GuideRef {
  const guide = GUIDE_OF.get(code);
  // A check with texts but no guide section is a catalogue error (test/unit/analyzer/guides.test.ts):
  // it stops the process at load rather than answer a contract without the guide.
  if (!guide) throw new Error(`no guide covers the check ${code}: add a section to analyzer/guides/`);
  return Object.freeze({ id: guide.id, title: guide.title, url: `${GUIDES_PATH}/${guide.id}#${code}` });
}

export const EXPLANATIONS: Readonly<Record<string, Explanation>> = Object.freeze(
  Object.fromEntries(Object.entries(TEXTS).map(([code, text]) => [code, Object.freeze({ ...text, guide: guideRef(code) })])),
);

export type { Explanation, ExplanationText, GuideRef, HintText, PlainText } from "./types.ts";
