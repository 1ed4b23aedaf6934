import { PageTask, RecheckTask, SiteFacts } from "../../../proto/index.ts";
import { narrowArm, type NarrowContext, type NarrowResult, type NarrowTask, type RecheckScope } from "./scope.ts";

/** Pages a re-check fetches at most (the crawler's RECHECK_MAX_PAGES): a check that failed on more re-runs the whole analysis. */
export const RECHECK_MAX_PAGES = 10;

/** The home page's URL on the report's origin. */
export function homeUrl(ctx: NarrowContext): string {
  return `${ctx.origin}/`;
}

/** Whether a URL is the site's home page (same origin, path "/"). */
function isHome(ctx: NarrowContext, url: string): boolean {
  try {
    const at = new URL(url);
    return at.origin === new URL(ctx.origin).origin && at.pathname === "/";
  } catch {
    return false;
  }
}

const homeFacts = (ctx: NarrowContext, result: NarrowResult) =>
  SiteFacts.fromPartial({ host: ctx.host, origin: ctx.origin, checkedAt: ctx.now, home: narrowArm(result, "page")?.facts });

/** The `page` kind's look at one URL. */
const pageTask = (url: string): NarrowTask => ({ $case: "page", value: PageTask.fromPartial({ url }) });

/** Checks of the home page's answer alone: one fetch of it (the `page` kind). */
export const homeScope: RecheckScope = {
  id: "home",
  mode: "page",
  codes: ["home_status", "hsts", "version_disclosure"],
  why: "a live fetch of the home page",
  applies: () => true,
  target: (ctx) => pageTask(homeUrl(ctx)),
  facts: homeFacts,
};

/** The one page the last report saw the check fail on, when it names exactly one on the site's origin. */
export function onlyFailingPage(ctx: NarrowContext): string | undefined {
  const pages = [...new Set(ctx.item?.pages ?? [])];
  if (pages.length !== 1) return undefined;
  try {
    return new URL(pages[0] as string).origin === new URL(ctx.origin).origin ? pages[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pages the last report saw the check fail on, when there are 1 to RECHECK_MAX_PAGES of them,
 * all on the site's origin (a report item lists at most 20, so up to 10 is never a cut list).
 */
export function failingPages(ctx: NarrowContext): string[] | undefined {
  const pages = [...new Set(ctx.item?.pages ?? [])];
  if (pages.length === 0 || pages.length > RECHECK_MAX_PAGES) return undefined;
  try {
    const own = new URL(ctx.origin).origin;
    return pages.every((p) => new URL(p).origin === own) ? pages : undefined;
  } catch {
    return undefined;
  }
}

/** The task of a `recheck` look on the report's origin. */
export function recheckTarget(ctx: NarrowContext, robots: boolean, urls: readonly string[]): NarrowTask {
  return { $case: "recheck", value: RecheckTask.fromPartial({ origin: ctx.origin, robots, urls: [...urls] }) };
}

/** The facts of a `recheck` look, stamped with the re-check's host and time. */
export function lookFacts(ctx: NarrowContext, result: NarrowResult): SiteFacts {
  const facts = SiteFacts.fromPartial(narrowArm(result, "recheck")?.facts ?? {});
  facts.host = ctx.host;
  facts.origin = ctx.origin;
  facts.checkedAt = ctx.now;
  return facts;
}

/**
 * Page-level checks judged on each sampled page. The pages the last report saw the check fail on
 * are fetched again: one page through the `page` kind, two to RECHECK_MAX_PAGES through the
 * `recheck` kind's `pages` look; the other sampled pages passed, so these decide it. A check that
 * failed on more pages, or whose report item names none, re-runs the whole analysis.
 */
export const pageSampleScope: RecheckScope = {
  id: "page",
  mode: "page",
  decidesOnPassOnly: true,
  codes: [
    "noindex", "nosnippet", "noimageindex", "meta_in_body", "canonical_present", "canonical_valid", "soft_404", "url_hygiene",
    "ttfb", "compression", "charset", "doctype", "html_size", "dom_size", "duplicate_ids", "meta_refresh", "deprecated_tags",
    "mixed_content", "http_internal_links", "insecure_form", "csp", "x_content_type_options", "frame_ancestors", "referrer_policy",
    "permissions_policy", "cookie_flags", "render_blocking", "image_dimensions", "document_redirects",
    "title_present", "title_length", "title_multiple", "description_present", "description_length", "description_multiple",
    "h1_present", "h1_multiple", "headings_order", "headings_empty", "lorem_ipsum", "img_alt_missing", "img_alt_long", "picture_no_img",
    "too_many_links", "link_text", "empty_anchor_text", "crawlable_anchors", "localhost_links", "internal_nofollow", "viewport",
    "html_lang", "hreflang_codes", "hreflang_self", "hreflang_x_default", "hreflang_lang_mismatch",
    "jsonld_syntax", "schema_required", "schema_core_types", "schema_breadcrumbs",
    "og_required", "og_image", "og_url_match", "og_description", "twitter_card", "social_profiles",
  ],
  why: `live fetches of the pages the check failed on (one: the page kind; up to ${RECHECK_MAX_PAGES}: the recheck kind); the whole analysis when it failed on more`,
  applies: (ctx) => failingPages(ctx) !== undefined,
  lookOf: (ctx) => (onlyFailingPage(ctx) !== undefined ? "page" : "pages"),
  target: (ctx) => {
    const one = onlyFailingPage(ctx);
    return one !== undefined ? pageTask(one) : recheckTarget(ctx, false, failingPages(ctx) ?? []);
  },
  facts: (ctx, result) => {
    if (onlyFailingPage(ctx) === undefined) return lookFacts(ctx, result);
    const url = onlyFailingPage(ctx) ?? homeUrl(ctx);
    if (isHome(ctx, url)) return homeFacts(ctx, result);
    // An inner page is judged as a sampled page (importance 1, not the home page's 3).
    return SiteFacts.fromPartial({ host: ctx.host, origin: ctx.origin, checkedAt: ctx.now, pages: [narrowArm(result, "page")?.facts].filter((p) => p !== undefined) });
  },
};
