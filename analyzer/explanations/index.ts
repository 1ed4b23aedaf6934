// Explanation texts for every catalogued check (spec GET /explain/{code}), one file per display group.
// Pure data: hint in Russian and English, plain in Russian, no guide pages yet (guide null).
import { CONTENT } from "./content.ts";
import { DOMAIN } from "./domain.ts";
import { INDEXING } from "./indexing.ts";
import { INTERNATIONAL } from "./international.ts";
import { LINKS } from "./links.ts";
import { MOBILE } from "./mobile.ts";
import { PERFORMANCE } from "./performance.ts";
import { SECURITY } from "./security.ts";
import { SOCIAL } from "./social.ts";
import { STRUCTURED_DATA } from "./structured-data.ts";
import { TECHNICAL } from "./technical.ts";
import type { Explanation } from "./types.ts";

export const EXPLANATIONS: Readonly<Record<string, Explanation>> = Object.freeze({
  ...INDEXING,
  ...TECHNICAL,
  ...SECURITY,
  ...DOMAIN,
  ...PERFORMANCE,
  ...CONTENT,
  ...LINKS,
  ...MOBILE,
  ...INTERNATIONAL,
  ...STRUCTURED_DATA,
  ...SOCIAL,
});

export type { Explanation, GuideRef, HintText, PlainText } from "./types.ts";
