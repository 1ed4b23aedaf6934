import type { Utility } from "./utility.ts";
import { httpHeaders } from "./site/http-headers.ts";
import { redirectChain } from "./site/redirect-chain.ts";
import { robotsTxtCheck } from "./site/robots-txt-check.ts";
import { securityHeaders } from "./site/security-headers.ts";
import { botAccess } from "./site/bot-access.ts";
import { mirrorCheck } from "./site/mirror-check.ts";
import { sitemapCheck } from "./site/sitemap-check.ts";
import { botView } from "./site/bot-view.ts";
import { pageLinks } from "./site/page-links.ts";
import { pageSpeed } from "./site/page-speed.ts";
import { techDetect } from "./site/tech-detect.ts";
import { structuredData } from "./site/structured-data.ts";
import { hreflangCheck } from "./site/hreflang-check.ts";
import { myIp } from "./net/my-ip.ts";
import { ipInfo } from "./net/ip-info.ts";
import { dnsblCheck } from "./net/dnsbl-check.ts";
import { emailVerify } from "./net/email-verify.ts";
import { tlsHttpVersions } from "./net/tls-http-versions.ts";
import { ogPreview } from "./seo/og-preview.ts";
import { dnsLookup } from "./net/dns-lookup.ts";
import { portCheck } from "./net/port-check.ts";
import { whois } from "./net/whois.ts";
import { mailDnsCheck } from "./net/mail-dns-check.ts";
import { botVerify } from "./net/bot-verify.ts";
import { subnetCalc } from "./net/subnet-calc.ts";
import { idnConvert } from "./net/idn-convert.ts";
import { textStats } from "./text/text-stats.ts";
import { docxToText } from "./text/docx-to-text.ts";
import { spellCheck } from "./text/spell-check.ts";
import { textAnalysis } from "./text/text-analysis.ts";
import { readability } from "./text/readability.ts";
import { textCompare } from "./text/text-compare.ts";
import { caseConvert } from "./text/case-convert.ts";
import { linesTool } from "./text/lines-tool.ts";
import { textCleaner } from "./text/text-cleaner.ts";
import { typograf } from "./text/typograf.ts";
import { transliterateUtility } from "./text/transliterate.ts";
import { loremIpsum } from "./text/lorem-ipsum.ts";
import { extractData } from "./text/extract-data.ts";
import { hash } from "./dev/hash.ts";
import { base64 } from "./dev/base64.ts";
import { regexTest } from "./dev/regex-test.ts";
import { certDecode } from "./dev/cert-decode.ts";
import { userAgentParse } from "./dev/user-agent-parse.ts";
import { jwtDecode } from "./dev/jwt-decode.ts";
import { timestampConvert } from "./dev/timestamp-convert.ts";
import { idGenerator } from "./dev/id-generator.ts";
import { passwordGenerator } from "./dev/password-generator.ts";
import { htmlEntities } from "./dev/html-entities.ts";
import { urlCodec } from "./dev/url-codec.ts";
import { codeFormat } from "./dev/code-format.ts";
import { dataConvert } from "./dev/data-convert.ts";
import { jsonFormat } from "./dev/json-format.ts";
import { ppcMetrics } from "./calc/ppc-metrics.ts";
import { budgetForecast } from "./calc/budget-forecast.ts";
import { maxCpc } from "./calc/max-cpc.ts";
import { unitEconomics } from "./calc/unit-economics.ts";
import { seoTrafficForecast } from "./calc/seo-traffic-forecast.ts";
import { abSignificance } from "./calc/ab-significance.ts";
import { abSampleSize } from "./calc/ab-sample-size.ts";
import { slaUptime } from "./calc/sla-uptime.ts";
import { downloadTime } from "./calc/download-time.ts";
import { contrastRatio } from "./calc/contrast-ratio.ts";
import { imageCompress } from "./img/image-compress.ts";
import { imageResize } from "./img/image-resize.ts";
import { imageConvert } from "./img/image-convert.ts";
import { imageMetadata } from "./img/image-metadata.ts";
import { faviconGenerator } from "./img/favicon-generator.ts";
import { qrCode } from "./img/qr-code.ts";
import { svgOptimize } from "./img/svg-optimize.ts";
import { ogImageGenerator } from "./img/og-image-generator.ts";
import { colorPalette } from "./img/color-palette.ts";
import { pageImagesAudit } from "./img/page-images-audit.ts";
import { pageScreenshot } from "./img/page-screenshot.ts";

import { serpPreview } from "./seo/serp-preview.ts";
import { metaTagsGenerator } from "./seo/meta-tags-generator.ts";
import { robotsTxtGenerator } from "./seo/robots-txt-generator.ts";
import { sitemapGenerator } from "./seo/sitemap-generator.ts";
import { schemaGenerator } from "./seo/schema-generator.ts";
import { hreflangGenerator } from "./seo/hreflang-generator.ts";
import { utmBuilder } from "./seo/utm-builder.ts";
import { redirectRules } from "./seo/redirect-rules.ts";
import { keywordCombiner } from "./seo/keyword-combiner.ts";
import { keywordGrouping } from "./seo/keyword-grouping.ts";
import { llmsTxtGenerator } from "./seo/llms-txt-generator.ts";
import { securityTxtGenerator } from "./seo/security-txt-generator.ts";
// The one table of utilities: a new utility is a file and a line here. Order is the catalogue's
// (utilities-catalogue.md §2), which is the order GET /utilities lists them in.
export const UTILITIES: readonly Utility<never>[] = [
  // site
  httpHeaders,
  redirectChain,
  mirrorCheck,
  robotsTxtCheck,
  sitemapCheck,
  botView,
  botAccess,
  pageLinks,
  pageSpeed,
  securityHeaders,
  techDetect,
  structuredData,
  hreflangCheck,
  // net
  myIp,
  dnsLookup,
  whois,
  ipInfo,
  portCheck,
  dnsblCheck,
  mailDnsCheck,
  emailVerify,
  botVerify,
  tlsHttpVersions,
  subnetCalc,
  idnConvert,
  // text
  textStats,
  textAnalysis,
  readability,
  textCompare,
  caseConvert,
  linesTool,
  textCleaner,
  typograf,
  transliterateUtility,
  spellCheck,
  loremIpsum,
  extractData,
  docxToText,
  // dev
  jsonFormat,
  dataConvert,
  codeFormat,
  base64,
  urlCodec,
  htmlEntities,
  hash,
  passwordGenerator,
  idGenerator,
  timestampConvert,
  regexTest,
  jwtDecode,
  userAgentParse,
  certDecode,
  // calc
  ppcMetrics,
  budgetForecast,
  maxCpc,
  unitEconomics,
  seoTrafficForecast,
  abSignificance,
  abSampleSize,
  slaUptime,
  downloadTime,
  contrastRatio,
  // seo
  serpPreview,
  metaTagsGenerator,
  ogPreview,
  robotsTxtGenerator,
  sitemapGenerator,
  schemaGenerator,
  hreflangGenerator,
  utmBuilder,
  redirectRules,
  keywordCombiner,
  keywordGrouping,
  llmsTxtGenerator,
  securityTxtGenerator,
  // img
  imageCompress,
  imageResize,
  imageConvert,
  imageMetadata,
  faviconGenerator,
  qrCode,
  svgOptimize,
  ogImageGenerator,
  colorPalette,
  pageImagesAudit,
  pageScreenshot,
];
