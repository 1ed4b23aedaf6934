import { ORIGIN, response } from "../site-builder.ts";
import { HOME_FAILS, ONE_PAGE_FAILS, type CheckCase } from "./check-case.ts";

export const INDEXING_CASES: Record<string, CheckCase> = {
  robots_txt_fetch: {
    passValue: 200,
    fail: (f) => void (f.robots!.response!.status = 503),
    failStatus: "fail",
    failValue: 503,
    failScore: 0,
  },
  robots_blocks_all: {
    // `Allow: /` re-opens the site for the same group.
    pass: (f) => void f.robots!.groups.push({ userAgents: ["yandex"], allow: ["/"], disallow: ["/"], crawlDelayS: 0 }),
    passValue: null,
    fail: (f) => void f.robots!.groups.push({ userAgents: ["googlebot"], allow: [], disallow: ["/"], crawlDelayS: 0 }),
    failStatus: "fail",
    failValue: "googlebot",
    failScore: 0,
    cap: 29,
  },
  sitemap_present: {
    passValue: 1,
    fail: (f) => void (f.sitemaps[0]!.response = response(`${ORIGIN}/sitemap.xml`, { status: 404 })),
    failStatus: "fail",
    failValue: 0,
    failScore: 0,
  },
  sitemap_valid: {
    passValue: 0,
    fail: (f) => {
      f.sitemaps[0]!.valid = false;
      f.sitemaps[0]!.problems = ["<loc> is not absolute: /about/"];
    },
    failStatus: "fail",
    failValue: 1,
    failScore: 0,
  },
  home_status: {
    passValue: 200,
    fail: (f) => void (f.home!.response!.status = 503),
    failStatus: "fail",
    failValue: 503,
    failScore: 0,
    cap: 10,
  },
  noindex: {
    // max-image-preview:none is not the "none" directive.
    pass: (f) => void (f.home!.metaRobots = "index, follow, max-image-preview:none"),
    passValue: 0,
    fail: (f) => void (f.home!.metaRobots = "noindex, follow"),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
    cap: 29,
  },
  canonical_present: {
    // The HTTP Link header counts as a declaration.
    pass: (f) => {
      f.pages[0]!.canonicals = [];
      f.pages[0]!.canonicalHeader = `${ORIGIN}/about/`;
    },
    passValue: 0,
    fail: (f) => void (f.pages[1]!.canonicals = []),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  canonical_valid: {
    passValue: 0,
    fail: (f) => void (f.pages[0]!.canonicals = [`${ORIGIN}/`]),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  not_found_status: {
    pass: (f) => void (f.notFoundProbe!.status = 410),
    passValue: 410,
    fail: (f) => void (f.notFoundProbe!.status = 200),
    failStatus: "fail",
    failValue: 200,
    failScore: 0,
  },
  host_canonical: {
    passValue: 301,
    fail: (f) => void (f.wwwVariant = response("https://www.example.com/")),
    failStatus: "fail",
    failValue: 200,
    failScore: 0,
  },
  robots_txt_syntax: {
    // Exactly 500 KiB is still read in full.
    pass: (f) => void (f.robots!.sizeBytes = 500 * 1024),
    passValue: 0,
    fail: (f) => void (f.robots!.syntaxErrors = ["line 3: unknown directive Crawl-rate"]),
    failStatus: "fail",
    failValue: 1,
    failScore: 0,
  },
  ai_crawlers_blocked: {
    // `Allow: /` re-opens the site for GPTBot's own group.
    pass: (f) => void f.robots!.groups.push({ userAgents: ["gptbot"], allow: ["/"], disallow: ["/"], crawlDelayS: 0 }),
    passValue: null,
    fail: (f) => void f.robots!.groups.push({ userAgents: ["gptbot", "ccbot"], allow: [], disallow: ["/"], crawlDelayS: 0 }),
    failStatus: "fail",
    failValue: "gptbot, ccbot",
    failScore: 0,
  },
  nosnippet: {
    // A snippet limited in length is still a snippet.
    pass: (f) => void (f.home!.metaRobots = "index, follow, max-snippet:50"),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.xRobotsTag = "googlebot: nosnippet"),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  noimageindex: {
    passValue: 0,
    fail: (f) => void (f.home!.metaRobots = "index, follow, noimageindex"),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  meta_in_body: {
    passValue: 0,
    fail: (f) => void (f.pages[1]!.metaInBody = true),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  robots_blocks_assets: {
    // A longer Allow re-opens the stylesheets and scripts of a disallowed folder.
    pass: (f) => Object.assign(f.robots!.groups[0]!, { disallow: ["/admin/", "/assets/"], allow: ["/assets/*.css$", "/assets/*.js$"] }),
    passValue: 0,
    fail: (f) => void f.robots!.groups[0]!.disallow.push("/assets/"),
    failStatus: "fail",
    failValue: 2,
    failScore: 0,
  },
  sitemap_in_robots: {
    passValue: 1,
    fail: (f) => void (f.robots!.sitemaps = []),
    failStatus: "fail",
    failValue: 0,
    failScore: 0,
  },
  sitemap_blocked_urls: {
    // Bingbot's own group binds neither Googlebot nor Yandex.
    pass: (f) => void f.robots!.groups.push({ userAgents: ["bingbot"], allow: [], disallow: ["/blog/"], crawlDelayS: 0 }),
    passValue: 0,
    // One of the three sitemap URLs: f = 1/3.
    fail: (f) => void f.robots!.groups[0]!.disallow.push("/blog/"),
    failStatus: "fail",
    failValue: 1,
    failScore: 0.9 * (1 - 1 / 3),
  },
  sitemap_non_canonical: {
    // A page without a canonical is its own canonical.
    pass: (f) => void (f.pages[0]!.canonicals = []),
    passValue: 0,
    fail: (f) => void (f.pages[1]!.canonicals = [`${ORIGIN}/blog/`]),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  soft_404: {
    // An article about 404 errors is not an error page.
    pass: (f) => void (f.pages[1]!.title = "How to fix 404 errors on a small site"),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.title = "Page not found – Example"),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  url_hygiene: {
    // Percent-escaped Cyrillic is not "uppercase letters".
    pass: (f) => void (f.pages[0]!.response!.finalUrl = `${ORIGIN}/%D0%BE-%D0%BD%D0%B0%D1%81/`),
    passValue: 0,
    fail: (f) => void (f.pages[1]!.response!.finalUrl = `${ORIGIN}/Blog/First_Post/`),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
};
