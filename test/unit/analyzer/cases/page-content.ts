// Performance, content, links and presentation: the page-scoped checks.
import { ORIGIN, allPages } from "../site-builder.ts";
import { HOME_FAILS, ONE_PAGE_FAILS, type CheckCase } from "./check-case.ts";

export const PAGE_CASES: Record<string, CheckCase> = {
  render_blocking: {
    // Two stylesheets are normal critical CSS.
    pass: (f) => void (f.home!.renderBlockingStyles = 2),
    passValue: 0,
    fail: (f) => void (f.home!.renderBlockingScripts = 2),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  image_dimensions: {
    passValue: 0,
    fail: (f) => void (f.pages[0]!.images[0]!.width = 0),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  document_redirects: {
    // The monitored name redirecting to the served origin is host_canonical's concern, not a document redirect.
    pass: (f) => void f.home!.response!.redirects.push({ url: "https://example.org/", status: 301, location: `${ORIGIN}/` }),
    passValue: 0,
    fail: (f) => void f.pages[0]!.response!.redirects.push({ url: `${ORIGIN}/about`, status: 301, location: `${ORIGIN}/about/` }),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  title_present: {
    passValue: 0,
    fail: (f) => void (f.home!.title = "  "),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  title_length: {
    // 60 characters exactly; Cyrillic letters count as one each.
    pass: (f) => void (f.pages[0]!.title = "О компании: команда, история и контакты — Example Example Ex"),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.title = "About"),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  title_duplicate: {
    // Case and spacing differences still make a duplicate, but a noindex page does not count.
    pass: (f) => {
      f.pages[1]!.title = f.pages[0]!.title;
      f.pages[1]!.metaRobots = "noindex";
    },
    passValue: 0,
    fail: (f) => void (f.pages[1]!.title = ` ${f.pages[0]!.title.toUpperCase()}`),
    failStatus: "fail",
    failValue: 2,
    failScore: 0.9 * (1 - 2 / 5),
  },
  title_multiple: {
    passValue: 0,
    fail: (f) => void (f.home!.titleCount = 2),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  description_present: {
    passValue: 0,
    fail: (f) => allPages(f).forEach((p) => void (p.metaDescription = "")),
    failStatus: "fail",
    failValue: 3,
    failScore: 0,
  },
  h1_present: {
    passValue: 0,
    fail: (f) => void (f.pages[1]!.headings = [{ level: 2, text: "Details" }]),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  h1_multiple: {
    passValue: 0,
    fail: (f) => void f.home!.headings.push({ level: 1, text: "Again" }),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  description_length: {
    // 80 characters exactly.
    pass: (f) => void (f.pages[0]!.metaDescription = "x".repeat(80)),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.metaDescription = "About us."),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  description_duplicate: {
    // Case and spacing differences still make a duplicate, but a noindex page does not count.
    pass: (f) => {
      f.pages[1]!.metaDescription = f.pages[0]!.metaDescription;
      f.pages[1]!.metaRobots = "noindex";
    },
    passValue: 0,
    fail: (f) => void (f.pages[1]!.metaDescription = ` ${f.pages[0]!.metaDescription.toUpperCase()}`),
    failStatus: "fail",
    failValue: 2,
    failScore: 0.9 * (1 - 2 / 5),
  },
  text_length: {
    // The home page is exempt.
    pass: (f) => void (f.home!.wordCount = 10),
    passValue: 0,
    fail: (f) => void (f.pages[1]!.wordCount = 80),
    failStatus: "fail",
    failValue: 1,
    failScore: 0.9 * (1 - 1 / 2),
  },
  img_alt_missing: {
    // alt="" is fine for decorative images.
    pass: (f) => Object.assign(f.home!.images[0]!, { hasAlt: true, alt: "" }),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.images[0]!.hasAlt = false),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  link_text: {
    pass: (f) => void f.home!.links.push({ href: `${ORIGIN}/blog/`, text: "More about our blog", nofollow: false, internal: true }),
    passValue: 0,
    fail: (f) => void f.home!.links.push({ href: `${ORIGIN}/blog/`, text: " Подробнее →", nofollow: false, internal: true }),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  localhost_links: {
    passValue: 0,
    fail: (f) => void f.pages[1]!.links.push({ href: "http://localhost:3000/admin", text: "Admin", nofollow: false, internal: false }),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  internal_nofollow: {
    // nofollow on external links is the owner's business.
    pass: (f) => void (f.home!.links[2]!.nofollow = true),
    passValue: 0,
    fail: (f) => void (f.home!.links[1]!.nofollow = true),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  viewport: {
    pass: (f) => void (f.home!.metaViewport = "width=device-width, initial-scale=1, maximum-scale=5"),
    passValue: 0,
    fail: (f) => void (f.home!.metaViewport = ""),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  html_lang: {
    pass: (f) => void (f.pages[0]!.lang = "en-GB"),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.lang = "en-UK"),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  hreflang_codes: {
    pass: (f) => void f.home!.hreflang.push({ hreflang: "zh-Hant-TW", href: `${ORIGIN}/tw/` }),
    passValue: 0,
    fail: (f) => void (f.home!.hreflang[1]!.hreflang = "en-UK"),
    failStatus: "fail",
    // Only the home page has hreflang: it is the whole applicable sample.
    failValue: 1,
    failScore: 0,
  },
  jsonld_syntax: {
    pass: (f) => void (f.pages[0]!.jsonLd = ['[{"@context":{"@vocab":"http://schema.org/"},"@type":"Organization","name":"Example"}]']),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.jsonLd = ['{"@type":"Organization","name":"Example"}']),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  og_required: {
    passValue: 0,
    fail: (f) => void (f.home!.openGraph = f.home!.openGraph.filter((m) => m.key !== "og:image")),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  twitter_card: {
    // The card type is matched without regard to case.
    pass: (f) => void (f.home!.twitter = [{ key: "twitter:card", content: "Summary" }]),
    passValue: 0,
    fail: (f) => void (f.home!.twitter = []),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  description_multiple: {
    passValue: 0,
    fail: (f) => void (f.pages[0]!.metaDescriptionCount = 2),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  headings_order: {
    // Going back up any number of levels is fine; only skipping down is not.
    pass: (f) =>
      void (f.home!.headings = [
        { level: 1, text: "Example" },
        { level: 2, text: "Tools" },
        { level: 3, text: "Timer" },
        { level: 2, text: "Contact" },
      ]),
    passValue: 0,
    fail: (f) => void (f.home!.headings = [
      { level: 1, text: "Example" },
      { level: 3, text: "Timer" },
    ]),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  headings_empty: {
    passValue: 0,
    fail: (f) => void f.pages[1]!.headings.push({ level: 2, text: " " }),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  lorem_ipsum: {
    passValue: 0,
    fail: (f) => void (f.home!.loremIpsum = true),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  img_alt_long: {
    // 100 characters exactly, Cyrillic letters counting one each.
    pass: (f) => void (f.pages[0]!.images[0]!.alt = "Логотип Example: ".padEnd(100, "ж")),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.images[0]!.alt = "Логотип Example: ".padEnd(101, "ж")),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  picture_no_img: {
    passValue: 0,
    fail: (f) => void (f.pages[0]!.picturesWithoutImg = 1),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  too_many_links: {
    // 100 links exactly is still within the limit.
    pass: (f) => void (f.home!.links = Array.from({ length: 100 }, (_, i) => ({ href: `${ORIGIN}/p/${i}`, text: `Page ${i}`, nofollow: false, internal: true }))),
    passValue: 0,
    fail: (f) => void (f.pages[1]!.links = Array.from({ length: 101 }, (_, i) => ({ href: `${ORIGIN}/p/${i}`, text: `Page ${i}`, nofollow: false, internal: true }))),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  empty_anchor_text: {
    passValue: 0,
    fail: (f) => Object.assign(f.home!, { unnamedLinks: 2, unnamedLinkExamples: [`${ORIGIN}/cart/`, `${ORIGIN}/search/`] }),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  crawlable_anchors: {
    passValue: 0,
    fail: (f) => Object.assign(f.pages[0]!, { uncrawlableAnchors: 1, uncrawlableAnchorExamples: ["javascript:void(0)"] }),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
};
