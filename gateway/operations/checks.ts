import { Type } from "@sinclair/typebox";
import { CHECKS, type CheckOutcome } from "../../analyzer/index.ts";
import { DnsFacts, PageFacts, SiteFacts, TlsFacts } from "../../proto/index.ts";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { normalizeHost } from "../host.ts";
import { defineOperation } from "../registry/operation.ts";
import { HostParams, Nullable, StringEnum, UnixSeconds } from "../schemas.ts";

/** The page checks of GET /full, by the group names GET /check/{tool} takes. */
export const PAGE_CHECK_GROUPS = {
  meta: ["title_present", "title_length", "title_multiple", "description_present", "description_length", "description_multiple", "viewport", "charset", "html_lang", "canonical_present", "canonical_valid", "noindex", "meta_refresh", "soft_404", "url_hygiene"],
  headings: ["h1_present", "h1_multiple", "headings_order", "headings_empty"],
  images: ["img_alt_missing", "img_alt_long", "image_dimensions", "picture_no_img"],
  links: ["link_text", "localhost_links", "internal_nofollow", "too_many_links", "empty_anchor_text", "crawlable_anchors", "http_internal_links"],
  content: ["text_length", "lorem_ipsum"],
  technical: ["doctype", "html_size", "dom_size", "duplicate_ids", "deprecated_tags", "ttfb", "compression", "document_redirects", "render_blocking", "mixed_content", "insecure_form", "sri_external_scripts", "csp", "x_content_type_options", "frame_ancestors", "referrer_policy", "permissions_policy", "cookie_flags", "version_disclosure"],
  social: ["og_required", "og_image", "og_description", "og_url_match", "twitter_card"],
  structured: ["jsonld_syntax", "schema_required", "hreflang_codes", "hreflang_self", "hreflang_x_default", "hreflang_lang_mismatch"],
} as const;
type Tool = keyof typeof PAGE_CHECK_GROUPS;
const TOOLS = Object.keys(PAGE_CHECK_GROUPS) as Tool[];

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
    score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    passed: Type.Integer(),
    warnings: Type.Integer(),
    failed: Type.Integer(),
    status: Type.Integer({ description: "HTTP status of the page (0: no answer)" }),
    error: Nullable(Type.String({ description: "Why the page could not be fetched (timeout, refused, dns, tls, …), with its detail" })),
  },
  { additionalProperties: false },
);

/** Runs every check of the SSRF-guarded live lane and waits for its facts (or 409 not_ready with the job). */
async function liveFacts(deps: GatewayDeps, accountId: number, kind: "page" | "tls" | "dns", target: string, param: string): Promise<{ result: unknown; finished: number }> {
  const res = await deps.scheduler.runSingle(accountId, kind, target, deps.config.syncWaitMs);
  const job = await deps.store.jobs.getOwned(accountId, res.jobId);
  if (job?.state === "error") {
    if (job.error === "blocked_private_address") throw new ApiError("bad_host", `${target} resolves to a private address`, { param, details: { reason: job.error } });
    throw new ApiError("not_ready", `the check failed: ${job.error ?? "failed"}`, { retryAfter: 30, details: { job: job.id, reason: job.error } });
  }
  if (!res.done || job?.state !== "done") throw new ApiError("not_ready", "the check is still running; poll the job", { retryAfter: 3, details: { job: res.jobId, self: `/api/v1/jobs/${res.jobId}` } });
  return { result: await deps.store.jobs.result(accountId, res.jobId), finished: job.finished ?? job.updated };
}

/** A page URL a user may check: http(s), a usable host (the same rules as sites). */
function checkedUrl(deps: GatewayDeps, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError("bad_param", `"${raw}" is not a URL`, { param: "url" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ApiError("bad_param", "url must be http:// or https://", { param: "url" });
  const host = normalizeHost(url.host, { allowPrivateTargets: deps.config.allowPrivateTargets });
  if (!host.ok) throw new ApiError("bad_host", `"${url.host}" is not a usable host: ${host.reason}`, { param: "url" });
  url.hash = "";
  return url.toString();
}

function runPageChecks(page: PageFacts, codes: readonly string[]) {
  const facts = SiteFacts.fromPartial({ home: page, origin: new URL(page.response?.finalUrl || page.response?.requestedUrl || "http://invalid/").origin });
  return codes.map((code) => {
    const def = CHECKS.find((c) => c.code === code);
    if (!def) throw new Error(`unknown check ${code}`);
    let out: CheckOutcome;
    try {
      out = def.run(facts);
    } catch (err) {
      out = { status: "na", score: null, value: null, detail: `check error: ${(err as Error).message}`, pages: [] };
    }
    return { code, title: def.title, status: out.status, level: def.level, score: out.score, value: out.value, detail: out.detail, hint: def.hint, weight: def.weight };
  });
}

function overall(items: ReturnType<typeof runPageChecks>, page: PageFacts) {
  const r = page.response;
  const applicable = items.filter((i) => i.score !== null);
  const weight = applicable.reduce((t, i) => t + i.weight, 0);
  return {
    score: weight > 0 ? Math.round((100 * applicable.reduce((t, i) => t + i.weight * (i.score ?? 0), 0)) / weight) : null,
    passed: items.filter((i) => i.status === "pass").length,
    warnings: items.filter((i) => i.status === "warn").length,
    failed: items.filter((i) => i.status === "fail").length,
    status: r?.status ?? 0,
    error: r?.error ? `${r.error}${r.errorDetail ? `: ${r.errorDetail}` : ""}` : null,
  };
}

const strip = (items: ReturnType<typeof runPageChecks>) => items.map(({ weight: _w, ...rest }) => rest);

export const checkPageFull = defineOperation({
  id: "check_page_full",
  method: "GET",
  path: "/full",
  scope: "run",
  cli: "check full",
  summary: "Every page check of one URL, live",
  description: `Groups: ${TOOLS.join(", ")}. Charged one check. 409 not_ready with details.job after SVC_SYNC_WAIT_MS.`,
  tags: ["Checks"],
  errors: ["bad_host", "limit", "not_ready"],
  query: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000, description: "Page address (http or https)" }) }, { additionalProperties: false }),
  response: Type.Object(
    { url: Type.String(), checked_at: UnixSeconds, overall: Overall, checks: Type.Object(Object.fromEntries(TOOLS.map((t) => [t, Type.Array(CheckResult)])), { additionalProperties: false }) },
    { additionalProperties: false },
  ),
  handler: async ({ auth, deps, query }) => {
    const url = checkedUrl(deps, query.url);
    const { result, finished } = await liveFacts(deps, auth!.accountId, "page", url, "url");
    const page = PageFacts.fromJSON(result);
    const all = runPageChecks(page, TOOLS.flatMap((t) => PAGE_CHECK_GROUPS[t]));
    const checks = Object.fromEntries(TOOLS.map((t) => [t, strip(all.filter((i) => (PAGE_CHECK_GROUPS[t] as readonly string[]).includes(i.code)))]));
    return { body: { url, checked_at: finished, overall: overall(all, page), checks } };
  },
});

export const checkPage = defineOperation({
  id: "check_page",
  method: "GET",
  path: "/check/{tool}",
  scope: "run",
  cli: "check",
  summary: "One group of page checks of one URL, live",
  description: `tool is one of: ${TOOLS.join(", ")}. Charged one check.`,
  tags: ["Checks"],
  errors: ["bad_host", "limit", "not_ready"],
  params: Type.Object({ tool: StringEnum(TOOLS as unknown as readonly string[], { description: "Check group" }) }, { additionalProperties: false }),
  query: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000, description: "Page address (http or https)" }) }, { additionalProperties: false }),
  response: Type.Object({ url: Type.String(), tool: Type.String(), checked_at: UnixSeconds, overall: Overall, items: Type.Array(CheckResult) }, { additionalProperties: false }),
  handler: async ({ auth, deps, params, query }) => {
    const url = checkedUrl(deps, query.url);
    const { result, finished } = await liveFacts(deps, auth!.accountId, "page", url, "url");
    const page = PageFacts.fromJSON(result);
    const items = runPageChecks(page, PAGE_CHECK_GROUPS[params.tool as Tool]);
    return { body: { url, tool: params.tool, checked_at: finished, overall: overall(items, page), items: strip(items) } };
  },
});

export const checkSsl = defineOperation({
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
  handler: async ({ auth, deps, params, now }) => {
    const { result, finished } = await liveFacts(deps, auth!.accountId, "tls", params.host, "host");
    const t = TlsFacts.fromJSON(result);
    const inPeriod = t.validFrom > 0 && t.validFrom <= now && now < t.validTo;
    return {
      body: {
        host: params.host,
        checked_at: finished,
        valid: t.handshakeOk && t.authorized && t.nameMatches && inPeriod,
        handshake_ok: t.handshakeOk,
        error: t.error || t.authorizationError || null,
        protocol: t.protocol || null,
        subject: t.subjectCn || null,
        alt_names: t.altNames,
        issuer: t.issuer || null,
        valid_from: t.validFrom || null,
        valid_to: t.validTo || null,
        days_left: t.validTo ? Math.floor((t.validTo - now) / 86400) : null,
        chain_length: t.chainLength,
        name_matches: t.nameMatches,
        trusted: t.authorized,
      },
    };
  },
});

export const checkDns = defineOperation({
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
  handler: async ({ auth, deps, params }) => {
    const { result, finished } = await liveFacts(deps, auth!.accountId, "dns", params.host, "host");
    const d = DnsFacts.fromJSON(result);
    const facts = SiteFacts.fromPartial({ host: params.host, dns: d });
    const findings = ["dns_resolves", "spf", "dmarc"].map((code) => {
      const def = CHECKS.find((c) => c.code === code);
      if (!def) throw new Error(`unknown check ${code}`);
      const out = def.run(facts);
      return { code, title: def.title, status: out.status, level: def.level, score: out.score, value: out.value, detail: out.detail, hint: def.hint };
    });
    return {
      body: {
        host: params.host,
        checked_at: finished,
        resolved: d.resolved,
        error: d.error || null,
        domain: d.registrableDomain,
        records: { a: d.a, aaaa: d.aaaa, ns: d.ns, mx: d.mx, txt: d.txt, caa: d.caa },
        spf: d.spf || null,
        dmarc: d.dmarc || null,
        bimi: d.bimi || null,
        findings,
      },
    };
  },
});
