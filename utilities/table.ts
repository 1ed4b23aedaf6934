import type { Utility } from "./utility.ts";
import { textStats } from "./text/text-stats.ts";
import { docxToText } from "./text/docx-to-text.ts";
import { hash } from "./dev/hash.ts";
import { base64 } from "./dev/base64.ts";
import { regexTest } from "./dev/regex-test.ts";
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

// The one table of utilities: a new utility is a file and a line here. Order is the catalogue's
// (utilities-catalogue.md §2), which is the order GET /utilities lists them in.
export const UTILITIES: readonly Utility<never>[] = [
  // text
  textStats,
  docxToText,
  // dev
  base64,
  hash,
  regexTest,
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
