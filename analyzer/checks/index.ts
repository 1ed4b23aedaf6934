// The check table: every catalogued check the analyzer runs, in catalogue order (seo-anchors §2).
// Adding a check = one file implementing CheckDef plus one line here; codes never change.
import type { CheckDef } from "./check.ts";
import { aiCrawlersBlocked } from "./ai-crawlers-blocked.ts";
import { brokenInternal } from "./broken-internal.ts";
import { caa } from "./caa.ts";
import { canonicalPresent } from "./canonical-present.ts";
import { canonicalTarget } from "./canonical-target.ts";
import { canonicalValid } from "./canonical-valid.ts";
import { charset } from "./charset.ts";
import { compression } from "./compression.ts";
import { crawlDepth } from "./crawl-depth.ts";
import { descriptionDuplicate } from "./description-duplicate.ts";
import { descriptionLength } from "./description-length.ts";
import { descriptionPresent } from "./description-present.ts";
import { dmarc } from "./dmarc.ts";
import { dnsResolves } from "./dns-resolves.ts";
import { doctype } from "./doctype.ts";
import { documentRedirects } from "./document-redirects.ts";
import { domSize } from "./dom-size.ts";
import { duplicateContent } from "./duplicate-content.ts";
import { duplicateIds } from "./duplicate-ids.ts";
import { duplicateUrls } from "./duplicate-urls.ts";
import { favicon } from "./favicon.ts";
import { h1Multiple } from "./h1-multiple.ts";
import { h1Present } from "./h1-present.ts";
import { homeStatus } from "./home-status.ts";
import { hostCanonical } from "./host-canonical.ts";
import { hreflangCodes } from "./hreflang-codes.ts";
import { hreflangReturn } from "./hreflang-return.ts";
import { hsts } from "./hsts.ts";
import { htmlLang } from "./html-lang.ts";
import { htmlSize } from "./html-size.ts";
import { httpsAvailable } from "./https-available.ts";
import { httpsRedirect } from "./https-redirect.ts";
import { imageDimensions } from "./image-dimensions.ts";
import { imgAltMissing } from "./img-alt-missing.ts";
import { insecureForm } from "./insecure-form.ts";
import { internalNofollow } from "./internal-nofollow.ts";
import { internalRedirects } from "./internal-redirects.ts";
import { jsonldSyntax } from "./jsonld-syntax.ts";
import { linkText } from "./link-text.ts";
import { localhostLinks } from "./localhost-links.ts";
import { metaInBody } from "./meta-in-body.ts";
import { mixedContent } from "./mixed-content.ts";
import { mx } from "./mx.ts";
import { nearDuplicate } from "./near-duplicate.ts";
import { noimageindex } from "./noimageindex.ts";
import { noindex } from "./noindex.ts";
import { nosnippet } from "./nosnippet.ts";
import { notFoundStatus } from "./not-found-status.ts";
import { nsRedundancy } from "./ns-redundancy.ts";
import { ogRequired } from "./og-required.ts";
import { orphanPages } from "./orphan-pages.ts";
import { redirectChain } from "./redirect-chain.ts";
import { renderBlocking } from "./render-blocking.ts";
import { robotsBlocksAll } from "./robots-blocks-all.ts";
import { robotsTxtFetch } from "./robots-txt-fetch.ts";
import { robotsTxtSyntax } from "./robots-txt-syntax.ts";
import { securityTxt } from "./security-txt.ts";
import { sitemapMissingPages } from "./sitemap-missing-pages.ts";
import { sitemapPresent } from "./sitemap-present.ts";
import { sitemapUrlStatus } from "./sitemap-url-status.ts";
import { sitemapValid } from "./sitemap-valid.ts";
import { spf } from "./spf.ts";
import { textLength } from "./text-length.ts";
import { titleDuplicate } from "./title-duplicate.ts";
import { titleLength } from "./title-length.ts";
import { titleMultiple } from "./title-multiple.ts";
import { titlePresent } from "./title-present.ts";
import { tlsCertExpiry } from "./tls-cert-expiry.ts";
import { tlsCertValid } from "./tls-cert-valid.ts";
import { ttfb } from "./ttfb.ts";
import { twitterCard } from "./twitter-card.ts";
import { viewport } from "./viewport.ts";

export const CHECKS: readonly CheckDef[] = Object.freeze([
  // indexing
  robotsTxtFetch,
  robotsTxtSyntax,
  robotsBlocksAll,
  aiCrawlersBlocked,
  sitemapPresent,
  sitemapValid,
  sitemapUrlStatus,
  sitemapMissingPages,
  homeStatus,
  noindex,
  nosnippet,
  noimageindex,
  metaInBody,
  canonicalPresent,
  canonicalValid,
  canonicalTarget,
  redirectChain,
  notFoundStatus,
  hostCanonical,
  duplicateUrls,
  // technical
  ttfb,
  compression,
  charset,
  doctype,
  htmlSize,
  domSize,
  duplicateIds,
  favicon,
  // security (security and domain display groups)
  httpsAvailable,
  httpsRedirect,
  tlsCertValid,
  tlsCertExpiry,
  hsts,
  mixedContent,
  insecureForm,
  securityTxt,
  dnsResolves,
  nsRedundancy,
  caa,
  mx,
  spf,
  dmarc,
  // performance (diagnostics block D; the metric block needs a browser run)
  renderBlocking,
  imageDimensions,
  documentRedirects,
  // content
  titlePresent,
  titleLength,
  titleMultiple,
  titleDuplicate,
  descriptionPresent,
  descriptionLength,
  descriptionDuplicate,
  h1Present,
  h1Multiple,
  textLength,
  duplicateContent,
  nearDuplicate,
  imgAltMissing,
  // links
  brokenInternal,
  internalRedirects,
  orphanPages,
  crawlDepth,
  linkText,
  localhostLinks,
  internalNofollow,
  // presentation (mobile, international, structured_data, social)
  viewport,
  htmlLang,
  hreflangCodes,
  hreflangReturn,
  jsonldSyntax,
  ogRequired,
  twitterCard,
]);

export type { CheckDef, CheckOutcome, CheckStatus, DisplayGroup, Level, RankGroup } from "./check.ts";
