import { UnreachableError, defineUtility, type Pair } from "../utility.ts";
import { uaFields, userAgentOf, type UaName } from "../shared/user-agents.ts";
import { header, netOf, redirectTarget } from "./net-util.ts";

interface Input {
  url: string;
  ua: UaName;
  ua_custom?: string;
  method: "GET" | "HEAD";
  check_304: boolean;
}

export const httpHeaders = defineUtility<Input>({
  id: "http_headers",
  group: "site",
  title: "Server response & HTTP headers",
  description:
    "Status, every response header, timings and HTTP version of one request as a chosen bot or browser sees it. Redirects are shown, not followed. Can test If-Modified-Since/304",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL", required: true },
    ...uaFields("browser"),
    { name: "method", type: "sel", label: "Method", options: ["GET", "HEAD"], default: "GET" },
    { name: "check_304", type: "bool", label: "Test a conditional request (If-None-Match / If-Modified-Since → 304)", default: false },
  ],
  example: { url: "https://example.com/", ua: "googlebot", check_304: true },
  async run(input, ports) {
    const net = netOf(ports);
    const ua = userAgentOf(input);
    let res;
    try {
      res = await net.fetch(input.url, { method: input.method, headers: { "user-agent": ua } });
    } catch (err) {
      // Whether the server answers is the question here: no answer is the result.
      if (!(err instanceof UnreachableError)) throw err;
      return {
        result: { url: input.url, reachable: false, error: err.message },
        blocks: { pairs: [{ label: "Answer", value: err.message, status: "bad" }] },
      };
    }
    const location = redirectTarget(res);
    const etag = header(res, "etag") ?? null;
    const lastModified = header(res, "last-modified") ?? null;
    let conditional: { etag: string | null; last_modified: string | null; sent: boolean; status: number | null; gets_304: boolean } | null = null;
    if (input.check_304) {
      const cond: Record<string, string> = { "user-agent": ua };
      if (etag) cond["if-none-match"] = etag;
      if (lastModified) cond["if-modified-since"] = lastModified;
      const sent = etag !== null || lastModified !== null;
      const again = sent ? await net.fetch(input.url, { method: input.method, headers: cond, maxBytes: 1 }) : null;
      conditional = { etag, last_modified: lastModified, sent, status: again?.status ?? null, gets_304: again?.status === 304 };
    }
    const result = {
      url: res.url,
      reachable: true,
      status: res.status,
      status_text: res.status_text,
      http_version: res.http_version,
      ip: res.ip,
      timings_ms: res.timings_ms,
      headers: res.headers.map(([name, value]) => ({ name, value })),
      location,
      bytes: res.body.length,
      encoded_bytes: res.encoded_bytes,
      content_encoding: header(res, "content-encoding") ?? null,
      conditional,
    };
    const statusLevel = res.status >= 500 ? "bad" : res.status >= 400 ? "bad" : res.status >= 300 ? "warn" : "good";
    const pairs: Pair[] = [
      { label: "Status", value: `HTTP/${res.http_version} ${res.status} ${res.status_text}`.trim(), status: statusLevel },
      { label: "IP address", value: res.ip },
      ...(location ? [{ label: "Redirects to", value: location, status: "info" as const }] : []),
      { label: "Time to first byte", value: `${res.timings_ms.ttfb} ms` },
      { label: "Total time", value: `${res.timings_ms.total} ms` },
      { label: "Body", value: `${res.body.length} bytes${result.content_encoding ? ` (${res.encoded_bytes} bytes ${result.content_encoding})` : ""}` },
    ];
    if (conditional) {
      pairs.push({
        label: "Conditional request (304)",
        value: !conditional.sent ? "no ETag or Last-Modified to send" : conditional.gets_304 ? "answers 304 Not Modified" : `answers ${conditional.status}, not 304`,
        status: conditional.gets_304 ? "good" : "warn",
      });
    }
    return {
      result,
      blocks: {
        pairs,
        tables: [
          { title: "Response headers", columns: ["Header", "Value"], rows: res.headers.map(([n, v]) => [n, v]) },
          { title: "Timings (ms)", columns: ["DNS", "Connect", "TLS", "TTFB", "Total"], rows: [[res.timings_ms.dns, res.timings_ms.connect, res.timings_ms.tls, res.timings_ms.ttfb, res.timings_ms.total]] },
        ],
      },
      warnings: res.truncated ? [{ code: "truncated", text: "the body was larger than 5 MB; only its start was read" }] : [],
    };
  },
});
