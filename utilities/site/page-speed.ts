import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { UtilityError, defineUtility, type NetResponse, type Pair, type Warning } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { fetchFollowing, header, mapLimit, netOf, requireHtml } from "./net-util.ts";

interface Input {
  url: string;
  device: "desktop" | "mobile";
  check_assets: boolean;
}

interface Asset {
  url: string;
  type: "script" | "style" | "image";
  status: number | null;
  bytes: number | null;
  encoded_bytes: number | null;
  encoding: string | null;
  cache: string | null;
  max_age_s: number | null;
  blocking: boolean;
  error: string | null;
}

const MAX_ASSETS = 50;

/** The freshness a Cache-Control (or Expires) header gives, in seconds; 0 for no-store/no-cache; null when none. */
function maxAge(res: NetResponse, nowMs: number): number | null {
  const cc = (header(res, "cache-control") ?? "").toLowerCase();
  if (/no-store|no-cache/.test(cc)) return 0;
  const m = /(?:s-maxage|max-age)\s*=\s*(\d+)/.exec(cc);
  if (m) return Number(m[1]);
  const expires = header(res, "expires");
  if (expires) {
    const t = Date.parse(expires);
    return Number.isNaN(t) ? 0 : Math.max(0, Math.round((t - nowMs) / 1000));
  }
  return null;
}

/** Scripts and stylesheets in <head> that block rendering (no async/defer/module; no print media). */
function blockingInHead(html: string, base: string): Set<string> {
  const head = /<head[\s>][\s\S]*?<\/head>/i.exec(html)?.[0] ?? "";
  const out = new Set<string>();
  const abs = (href: string) => {
    try {
      return new URL(href, base).href;
    } catch {
      return null;
    }
  };
  for (const m of head.matchAll(/<script\b([^>]*)>/gi)) {
    const attrs = m[1] as string;
    const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (src && !/\b(async|defer)\b/i.test(attrs) && !/type\s*=\s*["']?module/i.test(attrs)) {
      const u = abs(src);
      if (u) out.add(u);
    }
  }
  for (const m of head.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = m[1] as string;
    if (!/rel\s*=\s*["']?stylesheet/i.test(attrs) || /media\s*=\s*["']?print/i.test(attrs)) continue;
    const href = /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    const u = href ? abs(href) : null;
    if (u) out.add(u);
  }
  return out;
}

export const pageSpeed = defineUtility<Input>({
  id: "page_speed",
  group: "site",
  title: "Load time & page weight (no browser)",
  description:
    "Measures DNS, connect, TLS, TTFB and download time, HTML size raw and compressed (gzip/br), caching headers, the size and cache policy of referenced CSS/JS/images, and render-blocking resources in the head. Unlike GET /performance: no LCP/CLS, any URL, one shot",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL", required: true },
    { name: "device", type: "sel", label: "Device", options: ["desktop", "mobile"], default: "desktop" },
    { name: "check_assets", type: "bool", label: "Measure CSS, JS and images (≤ 50)", default: true },
  ],
  example: { url: "https://example.com/", device: "mobile" },
  async run(input, ports) {
    const net = netOf(ports);
    const ua = { "user-agent": input.device === "mobile" ? USER_AGENTS.mobile : USER_AGENTS.browser };
    const { res, hops } = await fetchFollowing(net, input.url, { headers: ua });
    requireHtml(res, res.url);
    const { facts, scriptSrcs } = net.page(res);
    if (!facts.isHtml) throw new UtilityError("tool_failed", `${res.url} is not an HTML page`);
    const html = new TextDecoder().decode(res.body);
    const raw = Buffer.from(res.body);
    const htmlInfo = {
      bytes: raw.length,
      encoded_bytes: res.encoded_bytes,
      encoding: header(res, "content-encoding") ?? null,
      gzip_bytes: gzipSync(raw, { level: 6 }).length,
      br_bytes: brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      cache_control: header(res, "cache-control") ?? null,
      etag: header(res, "etag") ?? null,
      last_modified: header(res, "last-modified") ?? null,
    };
    const blocking = blockingInHead(html, res.url);
    const warnings: Warning[] = [];
    const refs: { url: string; type: Asset["type"] }[] = [];
    const seen = new Set<string>();
    const push = (url: string, type: Asset["type"]) => {
      if (!seen.has(url) && /^https?:/.test(url)) {
        seen.add(url);
        refs.push({ url, type });
      }
    };
    // The parser lists script sources and stylesheets together: a stylesheet is what is not a script.
    const scripts = new Set(scriptSrcs);
    for (const a of facts.assets) push(a, scripts.has(a) ? "script" : "style");
    for (const img of facts.images) push(img.src, "image");
    const measured = refs.slice(0, MAX_ASSETS);
    if (refs.length > measured.length) warnings.push({ code: "sampled", text: `${refs.length} resources; the first ${measured.length} were measured` });
    const assets: Asset[] = !input.check_assets
      ? []
      : await mapLimit(measured, 4, async (ref): Promise<Asset> => {
          const base = { url: ref.url, type: ref.type, blocking: blocking.has(ref.url) };
          try {
            const { res: r } = await fetchFollowing(net, ref.url, { headers: ua }, 5);
            const age = maxAge(r, ports.nowMs);
            return { ...base, status: r.status, bytes: r.body.length, encoded_bytes: r.encoded_bytes, encoding: header(r, "content-encoding") ?? null, cache: header(r, "cache-control") ?? null, max_age_s: age, error: null };
          } catch (err) {
            if (!(err instanceof UtilityError)) throw err;
            return { ...base, status: null, bytes: null, encoded_bytes: null, encoding: null, cache: null, max_age_s: null, error: err.message };
          }
        });
    const sum = (type?: Asset["type"]) => assets.filter((a) => type === undefined || a.type === type).reduce((n, a) => n + (a.encoded_bytes ?? 0), 0);
    const totals = {
      requests: 1 + hops.length + assets.length,
      bytes: res.encoded_bytes + sum(),
      scripts_bytes: sum("script"),
      styles_bytes: sum("style"),
      images_bytes: sum("image"),
      render_blocking: blocking.size,
      uncompressed_text: assets.filter((a) => a.type !== "image" && a.encoding === null && (a.bytes ?? 0) > 1024).length + (htmlInfo.encoding === null && raw.length > 1024 ? 1 : 0),
      short_cache: assets.filter((a) => a.status === 200 && (a.max_age_s === null || a.max_age_s < 7 * 86_400)).length,
    };
    const t = res.timings_ms;
    const pairs: Pair[] = [
      { label: "Time to first byte", value: `${t.ttfb} ms`, status: t.ttfb > 800 ? "bad" : t.ttfb > 200 ? "warn" : "good" },
      { label: "Total (HTML)", value: `${t.total} ms` },
      { label: "HTML", value: `${htmlInfo.bytes} bytes, ${htmlInfo.encoded_bytes} on the wire${htmlInfo.encoding ? ` (${htmlInfo.encoding})` : " (not compressed)"}`, status: htmlInfo.encoding || raw.length <= 1024 ? "good" : "warn" },
      { label: "HTML gzip / br", value: `${htmlInfo.gzip_bytes} / ${htmlInfo.br_bytes} bytes` },
      { label: "Render-blocking in <head>", value: String(blocking.size), status: blocking.size > 2 ? "warn" : "good" },
      ...(input.check_assets ? [{ label: "Page weight", value: `${totals.bytes} bytes in ${totals.requests} requests` }] : []),
    ];
    return {
      result: { url: input.url, final_url: res.url, device: input.device, redirects: hops, timings_ms: t, html: htmlInfo, assets, totals },
      blocks: {
        pairs,
        tables: [
          { title: "Timings (ms)", columns: ["DNS", "Connect", "TLS", "TTFB", "Total"], rows: [[t.dns, t.connect, t.tls, t.ttfb, t.total]] },
          { title: "Resources", columns: ["URL", "Type", "Status", "Bytes", "On the wire", "Encoding", "Cache-Control", "Blocking"], rows: assets.map((a) => [a.url, a.type, a.status ?? a.error, a.bytes, a.encoded_bytes, a.encoding, a.cache, a.blocking]) },
        ],
      },
      warnings,
    };
  },
});
