// One HTTP/1.1 exchange over a socket the egress dialled, read as a network utility shows it: the
// status line, every header in the order sent, the body within a byte cap (Content-Encoding
// undone) and the time of each stage. The crawl's fetches go through undici (fetch-page.ts); this
// is node:http because a utility reports what undici does not surface (the reason phrase, the
// protocol version, repeated headers in order).
import { request as httpRequest, type IncomingMessage } from "node:http";
import { performance } from "node:perf_hooks";
import { brotliDecompressSync, constants as zlibConstants, gunzipSync, inflateSync } from "node:zlib";
import type { Egress } from "./egress.ts";

export interface ExchangeInit {
  readonly method: string;
  /** Sent as given (names lower-case), `host` included. */
  readonly headers: Readonly<Record<string, string>>;
  /** Body bytes kept, after decoding. */
  readonly maxBytes: number;
  readonly connectTimeoutMs: number;
  /** From the connection to the first byte of the answer. */
  readonly ttfbMs: number;
  readonly signal: AbortSignal;
}

/** The answer, as the utilities' NetResponse has it. */
export interface Exchanged {
  readonly url: string;
  readonly status: number;
  readonly status_text: string;
  readonly http_version: string;
  /** The address the connection went to. */
  readonly ip: string;
  readonly headers: [string, string][];
  readonly body: Uint8Array;
  readonly encoded_bytes: number;
  readonly truncated: boolean;
  readonly timings_ms: { readonly dns: number; readonly connect: number; readonly tls: number; readonly ttfb: number; readonly total: number };
}

/**
 * One request to an http(s) URL through the egress (redirects are answered, not followed).
 * Rejects with what the dial or the exchange threw: EgressBlockedError, a DNS error, a socket error.
 */
export async function exchange(egress: Pick<Egress, "dial">, target: URL, init: ExchangeInit): Promise<Exchanged> {
  const started = performance.now();
  const secure = target.protocol === "https:";
  const hostname = target.hostname.startsWith("[") ? target.hostname.slice(1, -1) : target.hostname;
  const port = Number(target.port || (secure ? 443 : 80));
  const dialled = await egress.dial(hostname, port, { ...(secure ? { tls: { alpn: ["http/1.1"] } } : {}), timeoutMs: init.connectTimeoutMs, signal: init.signal });
  const connected = performance.now();
  const dnsMs = Math.max(0, connected - started - dialled.connectMs - dialled.tlsMs);
  return new Promise<Exchanged>((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(ttfbTimer);
      reject(err);
    };
    const req = httpRequest({
      host: hostname,
      port,
      path: `${target.pathname}${target.search}`,
      method: init.method,
      headers: init.headers,
      createConnection: () => dialled.socket,
      signal: init.signal,
    });
    const ttfbTimer = setTimeout(() => req.destroy(new Error(`no answer within ${init.ttfbMs / 1000} s`)), init.ttfbMs);
    req.on("error", fail);
    req.on("response", (res: IncomingMessage) => {
      const firstByte = performance.now();
      clearTimeout(ttfbTimer);
      const chunks: Buffer[] = [];
      let encoded = 0;
      let truncated = false;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        const raw = Buffer.concat(chunks);
        const decoded = decode(raw, String(res.headers["content-encoding"] ?? ""), init.maxBytes);
        const pairs: [string, string][] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([(res.rawHeaders[i] as string).toLowerCase(), res.rawHeaders[i + 1] as string]);
        const ms = (from: number, to: number) => Math.max(0, Math.round(to - from));
        resolve({
          url: target.href,
          status: res.statusCode ?? 0,
          status_text: res.statusMessage ?? "",
          http_version: res.httpVersion,
          ip: dialled.address.address,
          headers: pairs,
          body: new Uint8Array(decoded.body),
          encoded_bytes: raw.length,
          truncated: truncated || decoded.truncated,
          timings_ms: { dns: Math.round(dnsMs), connect: Math.round(dialled.connectMs), tls: Math.round(dialled.tlsMs), ttfb: ms(started, firstByte), total: ms(started, performance.now()) },
        });
      };
      res.on("data", (chunk: Buffer) => {
        encoded += chunk.length;
        if (encoded > init.maxBytes) {
          truncated = true;
          chunks.push(chunk.subarray(0, chunk.length - (encoded - init.maxBytes)));
          encoded = init.maxBytes;
          res.destroy();
          finish();
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", finish);
      res.on("error", (err) => (finished ? undefined : fail(err)));
    });
    req.end();
  });
}

/** Undoes Content-Encoding (gzip, deflate, br) within maxBytes; an unknown or broken one leaves the bytes as sent. */
function decode(raw: Buffer, encoding: string, maxBytes: number): { body: Buffer; truncated: boolean } {
  const enc = encoding.trim().toLowerCase();
  if (raw.length === 0 || !["gzip", "x-gzip", "deflate", "br"].includes(enc)) return { body: raw, truncated: false };
  try {
    const opts = { maxOutputLength: maxBytes };
    if (enc === "br") return { body: brotliDecompressSync(raw, { ...opts, finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH }), truncated: false };
    if (enc === "deflate") return { body: inflateSync(raw, { ...opts, finishFlush: zlibConstants.Z_SYNC_FLUSH }), truncated: false };
    return { body: gunzipSync(raw, { ...opts, finishFlush: zlibConstants.Z_SYNC_FLUSH }), truncated: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") return { body: Buffer.alloc(0), truncated: true };
    return { body: raw, truncated: false };
  }
}
