// The check table: every catalogued check the analyzer runs, in catalogue order (seo-anchors §2).
// Adding a check = one file implementing CheckDef plus one line here; codes never change.
import type { CheckDef } from "./check.ts";
import { canonicalPresent } from "./canonical-present.ts";
import { canonicalValid } from "./canonical-valid.ts";
import { charset } from "./charset.ts";
import { compression } from "./compression.ts";
import { descriptionPresent } from "./description-present.ts";
import { dmarc } from "./dmarc.ts";
import { dnsResolves } from "./dns-resolves.ts";
import { doctype } from "./doctype.ts";
import { documentRedirects } from "./document-redirects.ts";
import { favicon } from "./favicon.ts";
import { h1Multiple } from "./h1-multiple.ts";
import { h1Present } from "./h1-present.ts";
import { homeStatus } from "./home-status.ts";
import { hostCanonical } from "./host-canonical.ts";
import { hreflangCodes } from "./hreflang-codes.ts";
import { hsts } from "./hsts.ts";
import { htmlLang } from "./html-lang.ts";
import { htmlSize } from "./html-size.ts";
import { httpsAvailable } from "./https-available.ts";
import { httpsRedirect } from "./https-redirect.ts";
import { imageDimensions } from "./image-dimensions.ts";
import { imgAltMissing } from "./img-alt-missing.ts";
import { internalNofollow } from "./internal-nofollow.ts";
import { jsonldSyntax } from "./jsonld-syntax.ts";
import { linkText } from "./link-text.ts";
import { localhostLinks } from "./localhost-links.ts";
import { mixedContent } from "./mixed-content.ts";
import { noindex } from "./noindex.ts";
import { notFoundStatus } from "./not-found-status.ts";
import { ogRequired } from "./og-required.ts";
import { renderBlocking } from "./render-blocking.ts";
import { robotsBlocksAll } from "./robots-blocks-all.ts";
import { robotsTxtFetch } from "./robots-txt-fetch.ts";
import { securityTxt } from "./security-txt.ts";
import { sitemapPresent } from "./sitemap-present.ts";
import { sitemapValid } from "./sitemap-valid.ts";
import { spf } from "./spf.ts";
import { textLength } from "./text-length.ts";
import { titleDuplicate } from "./title-duplicate.ts";
import { titleLength } from "./title-length.ts";
import { titlePresent } from "./title-present.ts";
import { tlsCertExpiry } from "./tls-cert-expiry.ts";
import { tlsCertValid } from "./tls-cert-valid.ts";
import { ttfb } from "./ttfb.ts";
import { viewport } from "./viewport.ts";

export const CHECKS: readonly CheckDef[] = Object.freeze([
  // indexing
  robotsTxtFetch,
  robotsBlocksAll,
  sitemapPresent,
  sitemapValid,
  homeStatus,
  noindex,
  canonicalPresent,
  canonicalValid,
  notFoundStatus,
  hostCanonical,
  // technical
  ttfb,
  compression,
  charset,
  doctype,
  htmlSize,
  favicon,
  // security (security and domain display groups)
  httpsAvailable,
  httpsRedirect,
  tlsCertValid,
  tlsCertExpiry,
  hsts,
  mixedContent,
  securityTxt,
  dnsResolves,
  spf,
  dmarc,
  // performance (diagnostics block D; the metric block needs a browser run)
  renderBlocking,
  imageDimensions,
  documentRedirects,
  // content
  titlePresent,
  titleLength,
  titleDuplicate,
  descriptionPresent,
  h1Present,
  h1Multiple,
  textLength,
  imgAltMissing,
  // links
  linkText,
  localhostLinks,
  internalNofollow,
  // presentation (mobile, international, structured_data, social)
  viewport,
  htmlLang,
  hreflangCodes,
  jsonldSyntax,
  ogRequired,
]);

export type { CheckDef, CheckOutcome, CheckStatus, DisplayGroup, Level, RankGroup } from "./check.ts";
