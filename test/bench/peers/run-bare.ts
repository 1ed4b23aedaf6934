/**
 * bench:crawl's ceiling: the least a crawler can do. An undici Agent with N connections, a
 * streaming htmlparser2 parser collecting a[href], a Set for dedupe, fragments stripped, same
 * origin only, redirects followed by enqueueing their Location. Broken: internal URLs answered
 * 4xx/5xx.
 *
 *   node --import tsx test/bench/peers/run-bare.ts --url http://127.0.0.1:PORT/ [--concurrency 16]
 */
import { Parser } from "htmlparser2";
import { StringDecoder } from "node:string_decoder";
import { Agent, request } from "undici";
import { cpuSeconds, monotonicUs, printReport, runArgs, sample } from "./protocol.ts";

const { url: start, concurrency, deadlineMs } = runArgs();
const origin = new URL(start).origin;
const agent = new Agent({ connections: concurrency, keepAliveTimeout: 60_000 });
const MAX_URLS = 50_000;

const seen = new Set<string>([start]);
const queue: string[] = [start];
const broken = new Set<string>();
let pages = 0;
let connectionErrors = 0;

function enqueue(href: string, base: string): void {
  let u: URL;
  try {
    u = new URL(href, base);
  } catch {
    return;
  }
  if (u.origin !== origin) return;
  u.hash = "";
  if (!seen.has(u.href) && seen.size < MAX_URLS) {
    seen.add(u.href);
    queue.push(u.href);
  }
}

async function visit(url: string): Promise<void> {
  const res = await request(url, { dispatcher: agent, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const type = String(res.headers["content-type"] ?? "");
  if (res.statusCode >= 300 && res.statusCode < 400 && typeof res.headers.location === "string") enqueue(res.headers.location, url);
  if (res.statusCode >= 400) broken.add(url);
  if (res.statusCode !== 200 || !type.startsWith("text/html")) return void (await res.body.dump());
  pages++;
  const parser = new Parser({ onopentag: (name, attrs) => name === "a" && attrs.href !== undefined && enqueue(attrs.href, url) }, { decodeEntities: true });
  const text = new StringDecoder("utf8");
  for await (const chunk of res.body) parser.write(text.write(chunk as Buffer));
  parser.end(text.end());
}

const t0 = performance.now();
const fromUs = monotonicUs();
const cpu0 = cpuSeconds();
const deadline = Date.now() + deadlineMs;
let timedOut = false;
await new Promise<void>((done) => {
  let active = 0;
  const pump = (): void => {
    if (Date.now() > deadline) timedOut = true;
    while (!timedOut && active < concurrency && queue.length > 0) {
      const url = queue.shift()!;
      active++;
      visit(url)
        .catch(() => void connectionErrors++)
        .finally(() => {
          active--;
          pump();
        });
    }
    if (active === 0 && (queue.length === 0 || timedOut)) done();
  };
  pump();
});
const crawlWallS = (performance.now() - t0) / 1000;
const toUs = monotonicUs();
const crawlCpuS = cpuSeconds() - cpu0;
await agent.close();

printReport({
  tool: "bare",
  available: true,
  crawlWallS,
  crawlCpuS,
  peakRssMb: null,
  pagesReported: pages,
  brokenInternal: broken.size,
  brokenSample: sample(broken),
  connectionErrors,
  timedOut,
  failure: null,
  extra: { urlsSeen: seen.size, connections: concurrency, windowUs: [fromUs, toUs] },
});
