// The operations the crawler nodes' browser feeds: performance, JavaScript dependency
// and social presence of a site's latest check.
import { Type } from "@sinclair/typebox";
import { HostParams, Nullable, StringEnum, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";

const ms = (description: string) => Nullable(Type.Number({ minimum: 0, description }));

export const BrowserRunSchema = Type.Object(
  {
    device: StringEnum(["mobile", "desktop"], { description: "The profile: Lighthouse's mobile (412 × 823 @1.75×, Moto G Power user agent) or desktop (1350 × 940) screen" }),
    url: Type.String(),
    checked_at: UnixSeconds,
    score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: "Lighthouse's performance score (0-100) of this lab run: FCP, LCP, TBT and CLS on the profile's curves, weighted 10/25/30/25 (Speed Index is not measured). Under the default devtools throttling it compares with Lighthouse's --throttling-method=devtools run; Lighthouse's and PageSpeed Insights' default (simulated) score can differ (docs/analysis.md, Throttling)" })),
    lcp_ms: ms("Largest Contentful Paint"),
    cls: Nullable(Type.Number({ minimum: 0, description: "Cumulative Layout Shift (largest session window)" })),
    inp_ms: ms("Interaction to Next Paint of one scripted click on a real input; null when the page has none"),
    tbt_ms: ms("Total Blocking Time after FCP"),
    fcp_ms: ms("First Contentful Paint"),
    ttfb_ms: ms("Time to first byte of the document"),
    lcp_element: Type.String({ description: "Extension: the LCP element, e.g. IMG#hero" }),
    requests: Type.Integer({ minimum: 0, description: "Extension: requests of the load" }),
    bytes: Type.Integer({ minimum: 0, description: "Extension: bytes transferred (headers and encoded bodies)" }),
    bytes_by_type: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: "Extension: bytes by resource type (document, script, stylesheet, image, font, media, other)" }),
    dom_elements: Type.Integer({ minimum: 0, description: "Extension: elements in the rendered DOM" }),
    render_blocking: Type.Array(Type.String(), { description: "Extension: resources that blocked the first render" }),
    error: Type.String({ description: "Extension: why the page could not be measured (empty when it was)" }),
    abandoned: Type.String({ description: "Extension: deadline, dialogs, popups or navigations when the page was abandoned" }),
    throttling: Type.Optional(
      Type.Object(
        {
          method: StringEnum(["simulate", "devtools", "provided"], {
            description:
              "simulate (SVC_BROWSER_THROTTLING's default): Lighthouse's and PageSpeed Insights' default, the page loaded unthrottled and FCP, LCP and TBT estimated by Lantern, Lighthouse's simulator, on the profile's network and CPU; devtools: the profile's Lighthouse DevTools throttling applied for real; provided: none, the page loaded as fast as the machine allowed (also a simulated run whose trace could not be simulated)",
          }),
          cpu_slowdown: Type.Number({ minimum: 1, description: "CPU slowdown applied (devtools) or simulated (simulate): 4 on mobile, as Lighthouse; 1: none" }),
          request_latency_ms: Type.Number({ minimum: 0, description: "Latency added to each request (562.5 ms on mobile under devtools; 0: none)" }),
          download_kbps: Type.Number({ minimum: 0, description: "Download throughput in Kbit/s (1474.56 on mobile under devtools; 0: unthrottled)" }),
          upload_kbps: Type.Number({ minimum: 0, description: "Upload throughput in Kbit/s (675 on mobile under devtools; 0: unthrottled)" }),
          rtt_ms: Type.Optional(Type.Number({ minimum: 0, description: "simulate: the round-trip time the simulation assumed (150 ms on mobile, 40 on desktop)" })),
          throughput_kbps: Type.Optional(Type.Number({ minimum: 0, description: "simulate: the throughput the simulation assumed in Kbit/s (1638.4 on mobile, 10240 on desktop)" })),
        },
        { additionalProperties: false, description: "Extension: how this run was throttled. Absent on runs stored before runs stated it, which were unthrottled. Regressions (GET /changes, performance.regressed) compare only runs of the same method." },
      ),
    ),
    node_load: Type.Optional(Nullable(Type.Number({ minimum: 0, description: "Extension: the crawler node's 1-minute load average per core as the page was measured; a run on a busy node is slower by itself" }))),
  },
  { additionalProperties: false },
);

export const getPerformance = defineContract({
  id: "get_performance",
  method: "GET",
  path: "/performance/{host}",
  scope: "read",
  cli: "performance",
  summary: "Performance of a site: the performance checks of its latest check and the browser's lab runs",
  description:
    "checks are the performance group of the latest check's report. browser lists each page measured in headless Chromium (the home page and the most linked pages, SVC_BROWSER_PAGES) in each profile (SVC_BROWSER_PROFILES); it is empty when the check ran without a browser, and note says why and how the rank's performance group was scored then. browser_state is an extension: measured, off, absent (no Chromium on the crawler node), sync (GET /analyze never starts the browser) or not_html.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      checks: Type.Array(
        Type.Object(
          {
            code: Type.String(),
            title: Type.String(),
            status: StringEnum(["pass", "warn", "fail", "na"]),
            value: Type.Union([Type.String(), Type.Number(), Type.Null()]),
            group: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
      browser: Type.Array(BrowserRunSchema),
      note: Type.String(),
      browser_state: Type.String({ description: "Extension: measured, off, absent, sync, not_html, or unknown for a check stored before the browser pool existed" }),
    },
    { additionalProperties: false },
  ),
});

const Comparison = Type.Object(
  { raw: Type.String(), rendered: Type.String(), state: StringEnum(["same", "added", "changed", "removed"]) },
  { additionalProperties: false, description: "The raw HTML's value against the rendered DOM's: added means only after JavaScript" },
);
const JsVerdict = StringEnum(["none", "low", "medium", "high"]);

export const getJsDependency = defineContract({
  id: "get_js_dependency",
  method: "GET",
  path: "/deep/{host}/js",
  scope: "read",
  cli: "js",
  summary: "How much of what search engines read exists only after JavaScript",
  description:
    "For each page the browser rendered in the latest check: the raw HTML against the rendered DOM (title, meta description, canonical, robots, visible text, links, headings, structured data) and the text hidden until a user interacts. A page's verdict: high when the title, canonical, robots, the h1 or half of the text exist only after JavaScript; medium for a fifth of the text or links, the description or structured data; low for anything smaller; none when JavaScript changes nothing a search engine reads. The site's verdict is its worst page's, unknown when no page was rendered.",
  tags: ["Search and links"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      summary: Type.Object(
        {
          pages: Type.Integer({ minimum: 0 }),
          by_verdict: Type.Object({ none: Type.Integer(), low: Type.Integer(), medium: Type.Integer(), high: Type.Integer() }, { additionalProperties: false }),
          js_only_words: Type.Integer({ minimum: 0 }),
          js_only_links: Type.Integer({ minimum: 0 }),
          fields_only_after_js: Type.Array(Type.String()),
          text: Type.String(),
        },
        { additionalProperties: false },
      ),
      verdict: StringEnum(["none", "low", "medium", "high", "unknown"]),
      pages: Type.Array(
        Type.Object(
          {
            url: Type.String(),
            title: Comparison,
            meta_description: Comparison,
            canonical: Comparison,
            robots: Comparison,
            words: Type.Object({ raw: Type.Integer(), rendered: Type.Integer(), js_only: Type.Integer(), js_share: Type.Number() }, { additionalProperties: false }),
            links: Type.Object({ raw: Type.Integer(), rendered: Type.Integer(), js_only: Type.Integer(), examples: Type.Array(Type.String()) }, { additionalProperties: false }),
            headings: Type.Object({ raw: Type.Integer(), rendered: Type.Integer(), js_only: Type.Array(Type.String()) }, { additionalProperties: false }),
            structured_data: Type.Object({ raw: Type.Array(Type.String()), rendered: Type.Array(Type.String()), js_only: Type.Array(Type.String()) }, { additionalProperties: false }),
            hidden_words: Type.Integer({ minimum: 0, description: "Words in the DOM not visible until a user interacts (collapsed, display:none)" }),
            verdict: JsVerdict,
            reasons: Type.Array(Type.String()),
          },
          { additionalProperties: false },
        ),
      ),
      note: Type.String({ description: "Extension: which pages were rendered, or why none was" }),
    },
    { additionalProperties: false },
  ),
});

const CheckState = StringEnum(["pass", "warn", "fail"]);

export const getSocial = defineContract({
  id: "get_social",
  method: "GET",
  path: "/social/{host}",
  scope: "read",
  cli: "social",
  summary: "Social presence: profile links by network and the share cards of the checked pages",
  description:
    "profiles: links to social-network profiles found on the checked pages (share buttons are not profiles). cards: the Open Graph and Twitter/X card of each checked page, as the networks' scrapers read the raw HTML, with its checks: og_required (og:title, og:type, og:image, og:url), og_description, twitter_card, image_reachable (2xx and an image, named by an absolute URL; a twitter:image other than the og:image must load too), image_size (at least 200 × 200, whatever the card type) and image_aspect (1.6-2.2:1 for large cards, 0.8-1.25:1 for summary cards). A card's score is the share of its checks that pass (0-100); card_score is the pages' mean, null when no HTML page was checked. pages is the number of pages whose cards were read.",
  tags: ["Search and links"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      profiles: Type.Array(Type.Object({ network: Type.String({ description: "facebook, x, instagram, linkedin, youtube, tiktok, pinterest, telegram, vk, ok, github, reddit, threads, mastodon, whatsapp" }), urls: Type.Array(Type.String()) }, { additionalProperties: false })),
      cards: Type.Array(
        Type.Object(
          {
            url: Type.String(),
            open_graph: Type.Record(Type.String(), Type.String()),
            twitter: Type.Record(Type.String(), Type.String()),
            image: Nullable(
              Type.Object(
                { url: Type.String(), status: Type.Integer(), content_type: Type.String(), width: Type.Integer(), height: Type.Integer(), checked: Type.Boolean({ description: "false: not fetched (another host, or past 10 images per check)" }) },
                { additionalProperties: false },
              ),
            ),
            checks: Type.Array(Type.Object({ code: Type.String(), status: CheckState, detail: Type.String() }, { additionalProperties: false })),
            score: Type.Integer({ minimum: 0, maximum: 100 }),
          },
          { additionalProperties: false },
        ),
      ),
      card_score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
      pages: Type.Integer({ minimum: 0 }),
      checks: Type.Array(
        Type.Object({ code: Type.String(), title: Type.String(), status: CheckState, value: Type.Union([Type.String(), Type.Number()]), group: Type.String() }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false },
  ),
});
