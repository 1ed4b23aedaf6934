// The check table: every catalogued check the analyzer runs, in catalogue order (seo-anchors §2).
// Adding a check = one file implementing CheckDef plus one line here; codes never change.
import type { CheckDef } from "./check.ts";
import { aiCrawlersBlocked } from "./ai-crawlers-blocked.ts";
import { bimi } from "./bimi.ts";
import { brokenInternal } from "./broken-internal.ts";
import { caa } from "./caa.ts";
import { canonicalPresent } from "./canonical-present.ts";
import { canonicalTarget } from "./canonical-target.ts";
import { canonicalValid } from "./canonical-valid.ts";
import { charset } from "./charset.ts";
import { cls } from "./cls.ts";
import { compression } from "./compression.ts";
import { cookieFlags } from "./cookie-flags.ts";
import { crawlDepth } from "./crawl-depth.ts";
import { crawlableAnchors } from "./crawlable-anchors.ts";
import { csp } from "./csp.ts";
import { deprecatedTags } from "./deprecated-tags.ts";
import { descriptionDuplicate } from "./description-duplicate.ts";
import { descriptionLength } from "./description-length.ts";
import { descriptionMultiple } from "./description-multiple.ts";
import { descriptionPresent } from "./description-present.ts";
import { dmarc } from "./dmarc.ts";
import { dnsResolves } from "./dns-resolves.ts";
import { doctype } from "./doctype.ts";
import { documentRedirects } from "./document-redirects.ts";
import { domSize } from "./dom-size.ts";
import { duplicateContent } from "./duplicate-content.ts";
import { duplicateIds } from "./duplicate-ids.ts";
import { duplicateUrls } from "./duplicate-urls.ts";
import { emptyAnchorText } from "./empty-anchor-text.ts";
import { favicon } from "./favicon.ts";
import { fcp } from "./fcp.ts";
import { frameAncestors } from "./frame-ancestors.ts";
import { h1Multiple } from "./h1-multiple.ts";
import { h1Present } from "./h1-present.ts";
import { headingsEmpty } from "./headings-empty.ts";
import { headingsOrder } from "./headings-order.ts";
import { homeStatus } from "./home-status.ts";
import { brokenExternal } from "./broken-external.ts";
import { httpStatus } from "./http-status.ts";
import { hostCanonical } from "./host-canonical.ts";
import { hreflangCodes } from "./hreflang-codes.ts";
import { hreflangLangMismatch } from "./hreflang-lang-mismatch.ts";
import { hreflangReturn } from "./hreflang-return.ts";
import { hreflangSelf } from "./hreflang-self.ts";
import { hreflangXDefault } from "./hreflang-x-default.ts";
import { hsts } from "./hsts.ts";
import { htmlLang } from "./html-lang.ts";
import { htmlSize } from "./html-size.ts";
import { httpInternalLinks } from "./http-internal-links.ts";
import { httpsAvailable } from "./https-available.ts";
import { httpsRedirect } from "./https-redirect.ts";
import { imageDimensions } from "./image-dimensions.ts";
import { imgAltLong } from "./img-alt-long.ts";
import { imgAltMissing } from "./img-alt-missing.ts";
import { insecureForm } from "./insecure-form.ts";
import { internalNofollow } from "./internal-nofollow.ts";
import { internalRedirects } from "./internal-redirects.ts";
import { ipv6 } from "./ipv6.ts";
import { jsonldSyntax } from "./jsonld-syntax.ts";
import { lcp } from "./lcp.ts";
import { linkText } from "./link-text.ts";
import { localhostLinks } from "./localhost-links.ts";
import { loremIpsum } from "./lorem-ipsum.ts";
import { metaInBody } from "./meta-in-body.ts";
import { metaRefresh } from "./meta-refresh.ts";
import { mixedContent } from "./mixed-content.ts";
import { mx } from "./mx.ts";
import { nearDuplicate } from "./near-duplicate.ts";
import { noimageindex } from "./noimageindex.ts";
import { noindex } from "./noindex.ts";
import { nosnippet } from "./nosnippet.ts";
import { notFoundStatus } from "./not-found-status.ts";
import { nsRedundancy } from "./ns-redundancy.ts";
import { ogDescription } from "./og-description.ts";
import { ogImage } from "./og-image.ts";
import { ogRequired } from "./og-required.ts";
import { ogUrlMatch } from "./og-url-match.ts";
import { orphanPages } from "./orphan-pages.ts";
import { permissionsPolicy } from "./permissions-policy.ts";
import { pictureNoImg } from "./picture-no-img.ts";
import { pwaIcons } from "./pwa-icons.ts";
import { pwaManifest } from "./pwa-manifest.ts";
import { redirectChain } from "./redirect-chain.ts";
import { referrerPolicyCheck } from "./referrer-policy.ts";
import { renderBlocking } from "./render-blocking.ts";
import { robotsBlocksAll } from "./robots-blocks-all.ts";
import { robotsBlocksAssets } from "./robots-blocks-assets.ts";
import { robotsTxtFetch } from "./robots-txt-fetch.ts";
import { robotsTxtSyntax } from "./robots-txt-syntax.ts";
import { schemaBreadcrumbs } from "./schema-breadcrumbs.ts";
import { schemaCoreTypes } from "./schema-core-types.ts";
import { schemaRequired } from "./schema-required.ts";
import { securityTxtFields } from "./security-txt-fields.ts";
import { securityTxt } from "./security-txt.ts";
import { sitemapBlockedUrls } from "./sitemap-blocked-urls.ts";
import { sitemapInRobots } from "./sitemap-in-robots.ts";
import { sitemapMissingPages } from "./sitemap-missing-pages.ts";
import { sitemapNonCanonical } from "./sitemap-non-canonical.ts";
import { sitemapPresent } from "./sitemap-present.ts";
import { sitemapUrlStatus } from "./sitemap-url-status.ts";
import { sitemapValid } from "./sitemap-valid.ts";
import { socialProfiles } from "./social-profiles.ts";
import { soft404 } from "./soft-404.ts";
import { spf } from "./spf.ts";
import { sriExternalScripts } from "./sri-external-scripts.ts";
import { tbt } from "./tbt.ts";
import { textLength } from "./text-length.ts";
import { titleDuplicate } from "./title-duplicate.ts";
import { titleLength } from "./title-length.ts";
import { titleMultiple } from "./title-multiple.ts";
import { titlePresent } from "./title-present.ts";
import { tlsCertExpiry } from "./tls-cert-expiry.ts";
import { tlsCertValid } from "./tls-cert-valid.ts";
import { tlsProtocols } from "./tls-protocols.ts";
import { tooManyLinks } from "./too-many-links.ts";
import { ttfb } from "./ttfb.ts";
import { twitterCard } from "./twitter-card.ts";
import { urlHygiene } from "./url-hygiene.ts";
import { versionDisclosure } from "./version-disclosure.ts";
import { viewport } from "./viewport.ts";
import { xContentTypeOptions } from "./x-content-type-options.ts";

export const CHECKS: readonly CheckDef[] = Object.freeze([
  // indexing
  robotsTxtFetch,
  robotsTxtSyntax,
  robotsBlocksAll,
  robotsBlocksAssets,
  aiCrawlersBlocked,
  sitemapPresent,
  sitemapInRobots,
  sitemapValid,
  sitemapUrlStatus,
  sitemapBlockedUrls,
  sitemapNonCanonical,
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
  soft404,
  notFoundStatus,
  hostCanonical,
  duplicateUrls,
  urlHygiene,
  // technical
  ttfb,
  compression,
  charset,
  doctype,
  htmlSize,
  domSize,
  duplicateIds,
  favicon,
  metaRefresh,
  deprecatedTags,
  // security (security and domain display groups)
  httpsAvailable,
  httpsRedirect,
  tlsCertValid,
  tlsCertExpiry,
  tlsProtocols,
  hsts,
  mixedContent,
  httpInternalLinks,
  insecureForm,
  csp,
  xContentTypeOptions,
  frameAncestors,
  referrerPolicyCheck,
  permissionsPolicy,
  cookieFlags,
  sriExternalScripts,
  securityTxt,
  securityTxtFields,
  versionDisclosure,
  dnsResolves,
  nsRedundancy,
  ipv6,
  caa,
  mx,
  spf,
  dmarc,
  bimi,
  // performance (diagnostics block D; the metric block needs a browser run)
  renderBlocking,
  imageDimensions,
  documentRedirects,
  // performance (metric block M: the home page's browser run; N/A without one)
  lcp,
  cls,
  tbt,
  fcp,
  // content
  titlePresent,
  titleLength,
  titleMultiple,
  titleDuplicate,
  descriptionPresent,
  descriptionLength,
  descriptionMultiple,
  descriptionDuplicate,
  h1Present,
  h1Multiple,
  headingsOrder,
  headingsEmpty,
  textLength,
  loremIpsum,
  duplicateContent,
  nearDuplicate,
  imgAltMissing,
  imgAltLong,
  pictureNoImg,
  // links
  brokenInternal,
  brokenExternal,
  internalRedirects,
  orphanPages,
  crawlDepth,
  tooManyLinks,
  linkText,
  emptyAnchorText,
  crawlableAnchors,
  localhostLinks,
  internalNofollow,
  // presentation (mobile, international, structured_data, social)
  viewport,
  pwaManifest,
  pwaIcons,
  htmlLang,
  hreflangCodes,
  hreflangReturn,
  hreflangSelf,
  hreflangXDefault,
  hreflangLangMismatch,
  jsonldSyntax,
  schemaRequired,
  schemaCoreTypes,
  schemaBreadcrumbs,
  ogRequired,
  ogImage,
  ogUrlMatch,
  ogDescription,
  twitterCard,
  socialProfiles,
]);

/** Checks of a single page only (GET /full, /check/{tool}), outside the site catalogue: see each file. */
export const PAGE_ONLY_CHECKS: readonly CheckDef[] = Object.freeze([httpStatus]);

export type { CheckDef, CheckOutcome, CheckStatus, DisplayGroup, Level, RankGroup } from "./check.ts";
