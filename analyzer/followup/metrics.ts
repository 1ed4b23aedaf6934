/**
 * The metrics a done task should move, one row each: where its series comes from, which way is
 * better, how long to wait after the fix before judging, how wide the windows are and the floor of
 * the noise band. docs/followup.md has the same table for readers; a test holds the two together.
 */
export type EffectSource = "rank_group" | "check" | "uptime_response" | "uptime_pct" | "search_clicks" | "search_position" | "search_indexed";

export interface EffectMetric {
  /** The metric's name as GET /effects/{host} shows it (a rank group's is completed with the group: rank_group.content). */
  readonly id: string;
  readonly title: string;
  /** Where the gateway reads its series (one loader per source). */
  readonly source: EffectSource;
  /** The check code whose series it is (source "check"). */
  readonly check?: string;
  readonly unit: string;
  readonly better: "higher" | "lower";
  /** Days after done_at before the after-window opens: what the metric needs to show a fix. */
  readonly waitDays: number;
  /** Length of the before-window (ending at done_at) and of the after-window (starting after the wait). */
  readonly windowDays: number;
  /** Points the after-window needs before a verdict (fewer: wait, or nodata once the window is over). */
  readonly minAfter: number;
  /** Band = max(floor, k × 1.4826 × MAD of the before-window's points). */
  readonly k: number;
  readonly floor: number;
  /** Task codes whose fix this metric measures ("any": every task, the fallback). */
  readonly codes: readonly string[] | "any";
}

const BROWSER = { source: "check", better: "lower", waitDays: 2, windowDays: 7, minAfter: 1, k: 3 } as const;

/** In order of preference: the first metric of a task's code that has a series is measured. */
export const EFFECT_METRICS: readonly EffectMetric[] = Object.freeze([
  { ...BROWSER, id: "lcp_ms", title: "Largest Contentful Paint", check: "lcp", unit: "ms", floor: 100, codes: ["lcp", "image_dimensions", "render_blocking"] },
  { ...BROWSER, id: "fcp_ms", title: "First Contentful Paint", check: "fcp", unit: "ms", floor: 100, codes: ["fcp"] },
  { ...BROWSER, id: "tbt_ms", title: "Total Blocking Time", check: "tbt", unit: "ms", floor: 50, codes: ["tbt", "dom_size"] },
  { ...BROWSER, id: "cls", title: "Cumulative Layout Shift", check: "cls", unit: "", floor: 0.02, codes: ["cls"] },
  {
    id: "response_ms",
    title: "Uptime probes' response time",
    source: "uptime_response",
    unit: "ms",
    better: "lower",
    waitDays: 1,
    windowDays: 7,
    minAfter: 3,
    k: 3,
    floor: 30,
    codes: ["ttfb", "compression", "html_size", "redirect_chain", "document_redirects"],
  },
  {
    id: "uptime_pct",
    title: "Uptime",
    source: "uptime_pct",
    unit: "%",
    better: "higher",
    waitDays: 1,
    windowDays: 7,
    minAfter: 3,
    k: 3,
    floor: 0.5,
    codes: ["home_status", "https_available", "tls_cert_expiry", "dns_resolves", "ns_redundancy"],
  },
  {
    id: "indexed_pages",
    title: "Indexed pages",
    source: "search_indexed",
    unit: "pages",
    better: "higher",
    waitDays: 14,
    windowDays: 14,
    minAfter: 1,
    k: 3,
    floor: 1,
    codes: ["noindex", "robots_blocks_all", "canonical_valid", "canonical_target", "sitemap_blocked_urls", "sitemap_non_canonical", "not_found_status"],
  },
  {
    id: "clicks",
    title: "Search clicks per day",
    source: "search_clicks",
    unit: "clicks",
    better: "higher",
    waitDays: 14,
    windowDays: 14,
    minAfter: 7,
    k: 3,
    floor: 1,
    codes: ["title_present", "title_length", "title_multiple", "description_present", "description_length", "description_multiple", "nosnippet"],
  },
  {
    id: "position",
    title: "Mean search position per day",
    source: "search_position",
    unit: "",
    better: "lower",
    waitDays: 14,
    windowDays: 14,
    minAfter: 7,
    k: 3,
    floor: 0.5,
    codes: ["h1_present", "h1_multiple", "headings_order", "headings_empty", "text_length"],
  },
  { id: "rank_group", title: "Score of the task's rank group", source: "rank_group", unit: "points", better: "higher", waitDays: 1, windowDays: 7, minAfter: 1, k: 3, floor: 1, codes: "any" },
] satisfies EffectMetric[]);

/** The metrics that may measure a task of this check code, most telling first (the rank group last). */
export function metricsFor(code: string): EffectMetric[] {
  return EFFECT_METRICS.filter((m) => m.codes === "any" || m.codes.includes(code));
}
