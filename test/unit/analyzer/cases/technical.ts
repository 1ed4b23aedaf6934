import { allPages } from "../site-builder.ts";
import { HOME_FAILS, ONE_PAGE_FAILS, type CheckCase } from "./check-case.ts";

const MIB = 1024 * 1024;

export const TECHNICAL_CASES: Record<string, CheckCase> = {
  ttfb: {
    // 75th percentile (nearest rank) of 120, 500, 600 ms is 600: not over the threshold.
    pass: (f) => {
      f.pages[0]!.response!.ttfbMs = 500;
      f.pages[1]!.response!.ttfbMs = 600;
    },
    passValue: 600,
    fail: (f) => allPages(f).forEach((p) => void (p.response!.ttfbMs = 1900)),
    failStatus: "fail",
    failValue: 1900,
    failScore: 0,
  },
  compression: {
    // Responses under 1 KB are not worth compressing.
    pass: (f) => {
      f.pages[0]!.response!.contentEncoding = "";
      f.pages[0]!.response!.bodyBytes = 900;
    },
    passValue: 0,
    fail: (f) => void (f.home!.response!.contentEncoding = ""),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  charset: {
    // <meta charset> alone is enough.
    pass: (f) => void (f.home!.response!.charset = ""),
    passValue: 0,
    fail: (f) => {
      f.pages[0]!.response!.charset = "";
      f.pages[0]!.metaCharset = "";
    },
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  doctype: {
    passValue: 0,
    fail: (f) => allPages(f).forEach((p) => void (p.hasDoctype = false)),
    failStatus: "fail",
    failValue: 3,
    failScore: 0,
  },
  html_size: {
    pass: (f) => void (f.home!.response!.bodyBytes = 2 * MIB),
    passValue: 0,
    fail: (f) => void (f.pages[1]!.response!.bodyBytes = 3 * MIB),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  favicon: {
    passValue: 200,
    fail: (f) => void (f.favicon!.status = 404),
    failStatus: "fail",
    failValue: 404,
    failScore: 0,
  },
  dom_size: {
    // 1500 elements exactly is still within the limit.
    pass: (f) => void (f.home!.domElements = 1500),
    passValue: 0,
    fail: (f) => void (f.home!.domElements = 2400),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  duplicate_ids: {
    passValue: 0,
    fail: (f) => void (f.pages[0]!.duplicateIds = ["main"]),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  meta_refresh: {
    // A reload a day apart is allowed (axe: 20 hours or more).
    pass: (f) => void (f.home!.metaRefresh = "86400"),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.metaRefresh = "0; url=https://example.com/new/"),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  deprecated_tags: {
    passValue: 0,
    fail: (f) => void (f.home!.deprecatedTags = ["center", "font"]),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
};
