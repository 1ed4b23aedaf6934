// Lighthouse 12.8.2's SEO audits (core/config/default-config.js, category seo) beside the Svc
// checks that decide the same question, for bench:lighthouse-seo and docs/benchmarks.md.

export interface AuditMapping {
  /** Lighthouse audit id. */
  readonly audit: string;
  /** Lighthouse's weight in the SEO category. */
  readonly weight: number;
  /** Svc checks whose verdicts, combined (any fails → fails), answer the audit's question. */
  readonly svc: readonly string[];
  /** Only the home page has a Svc verdict (a site-level check about the home page). */
  readonly homeOnly?: boolean;
  /** Svc checks around the same subject that Lighthouse does not make. */
  readonly more?: readonly string[];
  /** Where the two differ by design. */
  readonly note: string;
}

export const MAPPING: readonly AuditMapping[] = [
  {
    audit: "is-crawlable",
    weight: 93 / 23,
    svc: ["noindex", "robots_blocks_all"],
    more: ["nosnippet", "noimageindex", "ai_crawlers_blocked"],
    note: "Lighthouse fails a page that meta robots / X-Robots-Tag keep out of the index or that robots.txt disallows for any search bot; Svc's noindex is the per-page half, robots_blocks_all fails only when robots.txt blocks the whole site (a rule blocking one page is a crawl finding, not a page check).",
  },
  {
    audit: "document-title",
    weight: 1,
    svc: ["title_present"],
    more: ["title_length", "title_multiple", "title_duplicate"],
    note: "Same question (a non-empty <title>); Svc also judges its length, several titles and duplicates across pages.",
  },
  {
    audit: "meta-description",
    weight: 1,
    svc: ["description_present"],
    more: ["description_length", "description_multiple", "description_duplicate"],
    note: "Same question (a non-empty meta description); Svc also judges length, several tags and duplicates.",
  },
  {
    audit: "http-status-code",
    weight: 1,
    svc: ["home_status"],
    homeOnly: true,
    more: ["soft_404", "not_found_status", "sitemap_url_status", "broken_internal"],
    note: "Lighthouse fails a page answering 4xx/5xx. Svc judges the home page's status (and caps the rank); inner pages that fail are found by the sitemap and crawl checks, not as a page verdict.",
  },
  {
    audit: "link-text",
    weight: 1,
    svc: ["link_text"],
    more: ["empty_anchor_text"],
    note: "The same lists of non-descriptive anchors (Lighthouse's languages, Svc adds Russian); Svc also reports links without any accessible name.",
  },
  {
    audit: "crawlable-anchors",
    weight: 1,
    svc: ["crawlable_anchors"],
    note: "Same rule set as Lighthouse 12 (javascript:void(0), file: or unparsable href, no href with a click handler; other javascript: actions such as javascript:print() pass); Lighthouse sees listeners added by scripts, Svc only the HTML's onclick.",
  },
  {
    audit: "robots-txt",
    weight: 1,
    svc: ["robots_txt_fetch", "robots_txt_syntax"],
    more: ["robots_blocks_assets", "sitemap_in_robots"],
    note: "Both fail an unreachable robots.txt (5xx) and treat a missing one (4xx) as not applicable; Svc also reports rules that block CSS/JS and a sitemap not listed.",
  },
  {
    audit: "image-alt",
    weight: 1,
    svc: ["img_alt_missing"],
    more: ["img_alt_long", "picture_no_img"],
    note: "Same rule (an <img> without alt; alt=\"\" is allowed for decorative images); Svc also flags alt texts over 100 characters.",
  },
  {
    audit: "hreflang",
    weight: 1,
    svc: ["hreflang_codes"],
    more: ["hreflang_return", "hreflang_self", "hreflang_x_default", "hreflang_lang_mismatch"],
    note: "Same codes and absolute-URL rule; Svc also checks return links, self-reference, x-default and the page's language.",
  },
  {
    audit: "canonical",
    weight: 1,
    svc: ["canonical_valid", "canonical_target"],
    more: ["canonical_present"],
    note: "Lighthouse is not applicable without a canonical; Svc's canonical_present asks for one, and canonical_target follows the target (status, redirects, noindex).",
  },
  {
    audit: "structured-data",
    weight: 0,
    svc: ["jsonld_syntax", "schema_required"],
    more: ["schema_core_types", "schema_breadcrumbs"],
    note: "Manual in Lighthouse (no verdict); Svc parses the JSON-LD and checks required properties per type.",
  },
];
