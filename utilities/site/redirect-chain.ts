import { UnreachableError, UtilityError, defineUtility, type NetResponse, type UtilityNet } from "../utility.ts";
import { uaFields, userAgentOf, type UaName } from "../shared/user-agents.ts";
import { bodyText, header, netOf, redirectTarget } from "./net-util.ts";

interface Input {
  url?: string;
  urls?: string[];
  ua: UaName;
  ua_custom?: string;
  max_hops: number;
}

interface Hop {
  url: string;
  status: number;
  location: string | null;
  kind: "http" | "refresh_header" | "meta_refresh" | "final" | "error";
  ms: number;
  error?: string;
}

interface Chain {
  url: string;
  hops: Hop[];
  final_url: string;
  final_status: number;
  redirects: number;
  problems: string[];
  verdict: "ok" | "warn" | "bad";
}

const MAX_URLS = 20;

/** The target of a Refresh header or a meta refresh ("0; url=/next"), resolved against base. */
function refreshTarget(value: string, base: string): string | null {
  const m = /^\s*\d+(?:\.\d+)?\s*[;,]?\s*(?:url\s*=\s*)?['"]?([^'"\s]+)['"]?\s*$/i.exec(value);
  if (!m?.[1]) return null;
  try {
    return new URL(m[1], base).href;
  } catch {
    return null;
  }
}

function metaRefresh(res: NetResponse): string | null {
  if (!/html/i.test(header(res, "content-type") ?? "")) return null;
  const html = bodyText(res).slice(0, 200_000);
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/http-equiv\s*=\s*["']?refresh/i.test(tag)) continue;
    const content = /content\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const value = content?.[2] ?? content?.[3] ?? content?.[4];
    if (value) return refreshTarget(value, res.url);
  }
  return null;
}

async function follow(net: UtilityNet, start: string, ua: string, maxHops: number): Promise<Chain> {
  const hops: Hop[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  let url = start;
  for (;;) {
    if (seen.has(url)) {
      problems.push(`redirect loop: ${url} is reached again`);
      break;
    }
    seen.add(url);
    let res: NetResponse;
    try {
      res = await net.fetch(url, { headers: { "user-agent": ua }, maxBytes: 256 * 1024 });
    } catch (err) {
      if (!(err instanceof UnreachableError)) throw err;
      hops.push({ url, status: 0, location: null, kind: "error", ms: 0, error: err.message });
      problems.push(`${url} did not answer`);
      break;
    }
    let next = redirectTarget(res);
    let kind: Hop["kind"] = next ? "http" : "final";
    if (!next && res.status >= 200 && res.status < 300) {
      const refresh = header(res, "refresh");
      next = refresh ? refreshTarget(refresh, res.url) : null;
      if (next) kind = "refresh_header";
      else {
        next = metaRefresh(res);
        if (next) kind = "meta_refresh";
      }
    }
    hops.push({ url, status: res.status, location: next, kind, ms: res.timings_ms.total });
    if (!next) break;
    if (res.status === 302 || res.status === 307) problems.push(`${res.status} (temporary) from ${url}: a permanent move should be 301 or 308`);
    if (kind !== "http") problems.push(`${kind === "meta_refresh" ? "a meta refresh" : "a Refresh header"} at ${url}: search engines prefer a 301`);
    if (url.startsWith("https:") && next.startsWith("http:")) problems.push(`HTTPS → HTTP downgrade at ${url}`);
    if (hops.length > maxHops) {
      problems.push(`more than ${maxHops} redirects`);
      break;
    }
    url = next;
  }
  const last = hops[hops.length - 1] as Hop;
  const redirects = hops.filter((h) => h.kind !== "final" && h.kind !== "error").length;
  if (redirects > 1) problems.push(`${redirects} redirects in a row: link to ${last.url} directly`);
  const broken = last.kind === "error" || last.status >= 400 || problems.some((p) => p.startsWith("redirect loop") || p.startsWith("more than"));
  return {
    url: start,
    hops,
    final_url: last.url,
    final_status: last.status,
    redirects,
    problems,
    verdict: broken ? "bad" : problems.length > 0 ? "warn" : "ok",
  };
}

export const redirectChain = defineUtility<Input>({
  id: "redirect_chain",
  group: "site",
  title: "Redirect checker",
  description:
    "Follows a URL hop by hop (3xx, Refresh header, meta refresh). Flags loops, 302/307 used for permanent moves, HTTPS→HTTP downgrades and chains of more than 1 hop. Bulk mode takes up to 20 URLs",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL" },
    { name: "urls", type: "list", label: "URLs (bulk, one per line)", max: MAX_URLS },
    ...uaFields("browser"),
    { name: "max_hops", type: "int", label: "Most redirects to follow", default: 10, min: 1, max: 20 },
  ],
  oneOf: [["url", "urls"]],
  example: { url: "http://example.com/", ua: "googlebot" },
  async run(input, ports) {
    const net = netOf(ports);
    const ua = userAgentOf(input);
    const urls = [...(input.url ? [input.url] : []), ...(input.urls ?? [])];
    for (const [i, u] of urls.entries()) {
      let parsed: URL;
      try {
        parsed = new URL(/^https?:\/\//i.test(u) ? u : `https://${u}`);
      } catch {
        throw new UtilityError("bad_param", `"${u.slice(0, 100)}" is not a URL`, `input.urls`);
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UtilityError("bad_param", `item ${i + 1} must be an http or https URL`, "input.urls");
      urls[i] = parsed.href;
    }
    if (urls.length > MAX_URLS) throw new UtilityError("bad_param", `at most ${MAX_URLS} URLs`, "input.urls");
    const chains: Chain[] = [];
    for (const u of urls) chains.push(await follow(net, u, ua, input.max_hops));
    const status = (v: Chain["verdict"]) => (v === "ok" ? "good" : v === "warn" ? "warn" : "bad");
    return {
      result: { chains },
      blocks: {
        pairs: chains.map((c) => ({ label: c.url, value: `${c.redirects} redirect${c.redirects === 1 ? "" : "s"} → ${c.final_status || "no answer"} ${c.final_url}`, status: status(c.verdict) })),
        tables: chains.map((c) => ({
          title: `Hops of ${c.url}`,
          columns: ["#", "URL", "Status", "Redirect", "Goes to", "ms"],
          rows: c.hops.map((h, i) => [i + 1, h.url, h.status || (h.error ?? "no answer"), h.kind, h.location, h.ms]),
        })).concat(
          chains.some((c) => c.problems.length > 0)
            ? [{ title: "Problems", columns: ["URL", "Problem"], rows: chains.flatMap((c) => c.problems.map((p) => [c.url, p])) }]
            : [],
        ),
      },
    };
  },
});
