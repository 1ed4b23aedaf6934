import { CHECKS, PAGE_ONLY_CHECKS, type CheckOutcome } from "../../analyzer/index.ts";
import { DnsFacts, DnsTask, PageFacts, PageTask, SiteFacts, TlsFacts, TlsTask, type ResultOf } from "../../proto/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { hostPolicyOf, normalizeHost } from "../pipeline/host.ts";
import { implement, type HandlerDeps } from "../registry/operation.ts";
import type { SyncTaskOf } from "../scheduler-port.ts";

/** Runs one live check in the SSRF-guarded synchronous lane and waits for its result (or 409 not_ready with the job). */
async function liveCheck<K extends "page" | "tls" | "dns">(deps: HandlerDeps, accountId: number, task: SyncTaskOf<K>, target: string, param: string): Promise<{ result: ResultOf<K>; finished: number }> {
  const answer = await deps.scheduler.runSync(accountId, task, { waitMs: deps.config.syncWaitMs });
  if (answer.state === "error") {
    if (answer.error === "blocked_private_address") throw new ApiError("bad_host", `${target} resolves to a private address`, { param, details: { reason: answer.error } });
    throw new ApiError("not_ready", `the check failed: ${answer.error}`, { retryAfter: 30, details: { job: answer.jobId, reason: answer.error } });
  }
  if (answer.state === "running") throw new ApiError("not_ready", "the check is still running; poll the job", { retryAfter: 3, details: { job: answer.jobId, self: `/api/v1/jobs/${answer.jobId}` } });
  return { result: answer.result, finished: answer.finished };
}

/** A page URL a user may check: http(s), a usable host (the same rules as sites). */
function checkedUrl(deps: HandlerDeps, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError("bad_param", `"${raw}" is not a URL`, { param: "url" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ApiError("bad_param", "url must be http:// or https://", { param: "url" });
  const host = normalizeHost(url.host, hostPolicyOf(deps.config));
  if (!host.ok) throw new ApiError("bad_host", `"${url.host}" is not a usable host: ${host.reason}`, { param: "url" });
  url.hash = "";
  return url.toString();
}

// Checks that leave the home page out (it is a listing by nature): on a URL other than the site
// root, a single-page check hands them the page as an inner page, or thin content would go
// unreported on every page checked through /full.
const SKIP_HOME = new Set(["text_length"]);

function runPageChecks(page: PageFacts, codes: readonly string[]) {
  const at = new URL(page.response?.finalUrl || page.response?.requestedUrl || "http://invalid/");
  const facts = SiteFacts.fromPartial({ home: page, origin: at.origin });
  const inner = at.pathname === "/" ? facts : SiteFacts.fromPartial({ pages: [page], origin: at.origin });
  return codes.map((code) => {
    const def = CHECKS.find((c) => c.code === code) ?? PAGE_ONLY_CHECKS.find((c) => c.code === code);
    if (!def) throw new Error(`unknown check ${code}`);
    let out: CheckOutcome;
    try {
      out = def.run(SKIP_HOME.has(code) ? inner : facts);
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
  const status = r?.status ?? 0;
  // The page's own status first: a 404 with perfect markup is a dead page, not a 100.
  const pageOk = status >= 200 && status < 300;
  const answeredBadly = status !== 0 && !pageOk;
  return {
    score: answeredBadly ? 0 : weight > 0 ? Math.round((100 * applicable.reduce((t, i) => t + i.weight * (i.score ?? 0), 0)) / weight) : null,
    page_ok: pageOk,
    passed: items.filter((i) => i.status === "pass").length,
    warnings: items.filter((i) => i.status === "warn").length,
    failed: items.filter((i) => i.status === "fail").length,
    status: r?.status ?? 0,
    error: r?.error ? `${r.error}${r.errorDetail ? `: ${r.errorDetail}` : ""}` : null,
  };
}

const strip = (items: ReturnType<typeof runPageChecks>) => items.map(({ weight: _w, ...rest }) => rest);

export const checkPageFull = implement(contracts.checkPageFull, { repos: [] }, async ({ auth, deps, query }) => {
  const url = checkedUrl(deps, query.url);
  const { result, finished } = await liveCheck(deps, auth!.accountId, { $case: "page", value: PageTask.fromPartial({ url }) }, url, "url");
  const page = result.facts ?? PageFacts.fromPartial({});
  const all = runPageChecks(page, contracts.PAGE_CHECK_TOOLS.flatMap((t) => contracts.PAGE_CHECK_GROUPS[t]));
  const checks = Object.fromEntries(contracts.PAGE_CHECK_TOOLS.map((t) => [t, strip(all.filter((i) => (contracts.PAGE_CHECK_GROUPS[t] as readonly string[]).includes(i.code)))]));
  return { body: { url, checked_at: finished, overall: overall(all, page), checks } };
});

export const checkPage = implement(contracts.checkPage, { repos: [] }, async ({ auth, deps, params, query }) => {
  const url = checkedUrl(deps, query.url);
  const { result, finished } = await liveCheck(deps, auth!.accountId, { $case: "page", value: PageTask.fromPartial({ url }) }, url, "url");
  const page = result.facts ?? PageFacts.fromPartial({});
  const items = runPageChecks(page, contracts.PAGE_CHECK_GROUPS[params.tool as contracts.PageCheckTool]);
  return { body: { url, tool: params.tool, checked_at: finished, overall: overall(items, page), items: strip(items) } };
});

export const checkSsl = implement(contracts.checkSsl, { repos: [] }, async ({ auth, deps, params, now }) => {
  const { result, finished } = await liveCheck(deps, auth!.accountId, { $case: "tls", value: TlsTask.fromPartial({ host: params.host }) }, params.host, "host");
  const t = result.facts ?? TlsFacts.fromPartial({});
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
});

export const checkDns = implement(contracts.checkDns, { repos: [] }, async ({ auth, deps, params }) => {
  const { result, finished } = await liveCheck(deps, auth!.accountId, { $case: "dns", value: DnsTask.fromPartial({ host: params.host }) }, params.host, "host");
  const d = result.facts ?? DnsFacts.fromPartial({});
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
});

export const checksHandlers = [checkPageFull, checkPage, checkSsl, checkDns];
