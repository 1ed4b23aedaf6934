import { networkInterfaces } from "node:os";
import { HttpResponse } from "../../proto/index.ts";
import type { NetResponse, PageReading } from "../../utilities/index.ts";
import { parseContentType } from "../fetch/fetch-page.ts";
import { extractPage } from "../page/extract.ts";
import { technologyDetails } from "../page/tech-detect.ts";
import { parseSitemap } from "../site/sitemaps.ts";

// The readers a network utility needs for what it fetched: a page read by the crawl's own
// extraction and technology detection, a sitemap by the crawl's parser (so a utility's answer never
// contradicts a site's report), and the node's own interfaces. No connection is made here: what
// they read came through the egress (utility-net.ts).

/** A fetched page as the crawl reads it. */
export function readPage(res: NetResponse): PageReading {
  const ct = parseContentType(res.headers.find(([n]) => n === "content-type")?.[1] ?? "");
  const response = HttpResponse.fromPartial({
    requestedUrl: res.url,
    finalUrl: res.url,
    status: res.status,
    headers: res.headers.map(([name, value]) => ({ name, value })),
    ttfbMs: res.timings_ms.ttfb,
    totalMs: res.timings_ms.total,
    wireBytes: res.encoded_bytes,
    bodyBytes: res.body.length,
    contentEncoding: (res.headers.find(([n]) => n === "content-encoding")?.[1] ?? "").toLowerCase(),
    contentType: ct.mediaType,
    charset: ct.charset,
    bodyTruncated: res.truncated,
  });
  const html = bodyText(res.body, ct.charset);
  const { facts, generator, scriptSrcs, text } = extractPage({ url: res.url, response, html });
  const technologies = technologyDetails({ generator, headers: response.headers, scriptSrcs });
  return { facts, generator, scriptSrcs, text, technologies };
}

/** A fetched sitemap as the crawl reads it: its facts (a sample of `sample` URLs) and child sitemaps. */
export async function readSitemap(url: string, body: Uint8Array, siteHost: string, sample: number) {
  const parsed = await parseSitemap(url, Buffer.from(body.buffer, body.byteOffset, body.byteLength), siteHost, sample);
  return { facts: parsed.facts, children: parsed.children };
}

/** The node's non-internal network interfaces (my_ip). */
export function nodeInterfaces() {
  const out: { name: string; address: string; family: 4 | 6 }[] = [];
  for (const [name, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal) out.push({ name, address: a.address, family: a.family === "IPv6" ? 6 : 4 });
  }
  return out;
}

/** HTML bytes as text: the charset the answer declares, else UTF-8. */
function bodyText(body: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset || "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
