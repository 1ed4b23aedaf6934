import { Type } from "@sinclair/typebox";
import { HostParams, Nullable, StringEnum, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";

/** The page checks of GET /full, by the group names GET /check/{tool} takes. */
export const PAGE_CHECK_GROUPS = {
  meta: ["http_status", "title_present", "title_length", "title_multiple", "description_present", "description_length", "description_multiple", "viewport", "charset", "html_lang", "canonical_present", "canonical_valid", "noindex", "meta_refresh", "soft_404", "url_hygiene"],
  headings: ["h1_present", "h1_multiple", "headings_order", "headings_empty"],
  images: ["img_alt_missing", "img_alt_long", "image_dimensions", "picture_no_img"],
  links: ["link_text", "localhost_links", "internal_nofollow", "too_many_links", "empty_anchor_text", "crawlable_anchors", "http_internal_links"],
  content: ["text_length", "lorem_ipsum"],
  technical: ["doctype", "html_size", "dom_size", "duplicate_ids", "deprecated_tags", "ttfb", "compression", "document_redirects", "render_blocking", "mixed_content", "insecure_form", "sri_external_scripts", "csp", "x_content_type_options", "frame_ancestors", "referrer_policy", "permissions_policy", "cookie_flags", "version_disclosure"],
  social: ["og_required", "og_image", "og_description", "og_url_match", "twitter_card"],
  structured: ["jsonld_syntax", "schema_required", "hreflang_codes", "hreflang_self", "hreflang_x_default", "hreflang_lang_mismatch"],
} as const;
export type PageCheckTool = keyof typeof PAGE_CHECK_GROUPS;
export const PAGE_CHECK_TOOLS = Object.keys(PAGE_CHECK_GROUPS) as PageCheckTool[];

const CheckResult = Type.Object(
  {
    code: Type.String(),
    title: Type.String(),
    status: StringEnum(["pass", "warn", "fail", "na"]),
    level: StringEnum(["bad", "warn", "info"]),
    score: Nullable(Type.Number()),
    value: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    detail: Type.String(),
    hint: Type.String(),
  },
  { additionalProperties: false },
);

const Overall = Type.Object(
  {
    score: Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: "Weighted score of the checks; 0 when the page answered an error status (a dead page is not a good page, whatever its markup); null when it did not answer",
      }),
    ),
    page_ok: Type.Boolean({ description: "Whether the page itself answered 2xx: judged before any of its checks" }),
    passed: Type.Integer(),
    warnings: Type.Integer(),
    failed: Type.Integer(),
    status: Type.Integer({ description: "HTTP status of the page (0: no answer)" }),
    error: Nullable(Type.String({ description: "Why the page could not be fetched (timeout, refused, dns, tls, …), with its detail" })),
  },
  { additionalProperties: false },
);

export const checkPageFull = defineContract({
  id: "check_page_full",
  method: "GET",
  path: "/full",
  scope: "run",
  cli: "check full",
  summary: "Every page check of one URL, live",
  description: `Groups: ${PAGE_CHECK_TOOLS.join(", ")}. Charged one check. 409 not_ready with details.job after SVC_SYNC_WAIT_MS.`,
  tags: ["Checks"],
  errors: ["bad_host", "limit", "not_ready"],
  query: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000, description: "Page address (http or https)" }) }, { additionalProperties: false }),
  response: Type.Object(
    { url: Type.String(), checked_at: UnixSeconds, overall: Overall, checks: Type.Object(Object.fromEntries(PAGE_CHECK_TOOLS.map((t) => [t, Type.Array(CheckResult)])), { additionalProperties: false }) },
    { additionalProperties: false },
  ),
});

export const checkPage = defineContract({
  id: "check_page",
  method: "GET",
  path: "/check/{tool}",
  scope: "run",
  cli: "check",
  summary: "One group of page checks of one URL, live",
  description: `tool is one of: ${PAGE_CHECK_TOOLS.join(", ")}. Charged one check.`,
  tags: ["Checks"],
  errors: ["bad_host", "limit", "not_ready"],
  params: Type.Object({ tool: StringEnum(PAGE_CHECK_TOOLS as unknown as readonly string[], { description: "Check group" }) }, { additionalProperties: false }),
  query: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000, description: "Page address (http or https)" }) }, { additionalProperties: false }),
  response: Type.Object({ url: Type.String(), tool: Type.String(), checked_at: UnixSeconds, overall: Overall, items: Type.Array(CheckResult) }, { additionalProperties: false }),
});

export const checkSsl = defineContract({
  id: "check_ssl",
  method: "GET",
  path: "/ssl/{host}",
  scope: "run",
  cli: "check ssl",
  summary: "The site's certificate, from a live TLS handshake",
  description: "host may carry a port (default 443). valid: the handshake succeeded, the chain is trusted, the name matches and the certificate is in its validity period.",
  tags: ["Checks"],
  errors: ["bad_host", "limit", "not_ready"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      valid: Type.Boolean(),
      handshake_ok: Type.Boolean(),
      error: Nullable(Type.String()),
      protocol: Nullable(Type.String()),
      subject: Nullable(Type.String()),
      alt_names: Type.Array(Type.String()),
      issuer: Nullable(Type.String()),
      valid_from: Nullable(UnixSeconds),
      valid_to: Nullable(UnixSeconds),
      days_left: Nullable(Type.Integer()),
      chain_length: Type.Integer(),
      name_matches: Type.Boolean(),
      trusted: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
});

export const checkDns = defineContract({
  id: "check_dns",
  method: "GET",
  path: "/dns/{host}",
  scope: "run",
  cli: "check dns",
  summary: "The site's DNS records and findings, from a live query",
  tags: ["Checks"],
  errors: ["bad_host", "limit", "not_ready"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      resolved: Type.Boolean(),
      error: Nullable(Type.String()),
      domain: Type.String(),
      records: Type.Object(
        { a: Type.Array(Type.String()), aaaa: Type.Array(Type.String()), ns: Type.Array(Type.String()), mx: Type.Array(Type.String()), txt: Type.Array(Type.String()), caa: Type.Array(Type.String()) },
        { additionalProperties: false },
      ),
      spf: Nullable(Type.String()),
      dmarc: Nullable(Type.String()),
      bimi: Nullable(Type.String()),
      findings: Type.Array(CheckResult),
    },
    { additionalProperties: false },
  ),
});
