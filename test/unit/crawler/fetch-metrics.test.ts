import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RobotsFacts } from "../../../proto/index.ts";
import { crawlSite, createEgress, DEFAULT_CRAWL_LIMITS, fetchMetrics, HostLimiter, inlineParsePool, loadFacts, type CrawlOptions, type Egress } from "../../../crawler/index.ts";
import { startHttp, type TestServer } from "./servers.ts";

/** A sample's value from the registry's text (0 when the series is absent). */
async function value(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const text = await registry.metrics();
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

describe("politeness waits (HostLimiter)", () => {
  it("reports a wait for the host's spacing, for its Retry-After, and for a free connection, each under its reason", async () => {
    const waits: Array<[string, number]> = [];
    const limiter = new HostLimiter({ maxConcurrent: 1, minDelayMs: 0, onWait: (reason, s) => void waits.push([reason, s]) });
    // Spacing: the second start comes 300 ms after the first.
    limiter.setDelay("a.test", 300);
    await limiter.run("a.test", async () => undefined);
    await limiter.run("a.test", async () => undefined);
    // Retry-After: the host asked for 200 ms.
    limiter.pause("b.test", 200);
    await limiter.run("b.test", async () => undefined);
    // Connections: one slot, held for 150 ms while a second request queues behind it.
    let release!: () => void;
    const held = limiter.run("c.test", () => new Promise<void>((r) => (release = r)));
    const queued = limiter.run("c.test", async () => undefined);
    setTimeout(() => release(), 150);
    await Promise.all([held, queued]);
    expect(waits.map(([reason]) => reason)).toEqual(["delay", "retry_after", "connections"]);
    const [delay, retry, connections] = waits.map(([, s]) => s) as [number, number, number];
    expect(delay).toBeGreaterThanOrEqual(0.29);
    expect(retry).toBeGreaterThanOrEqual(0.19);
    expect(connections).toBeGreaterThanOrEqual(0.14);
  });
});

describe("fetch metrics of a crawl", () => {
  let server: TestServer;
  let egress: Egress;
  let busy = 0;
  beforeAll(async () => {
    server = await startHttp((req, res) => {
      const html = (links: string[]) => `<!DOCTYPE html><html lang="en"><head><title>t</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join("")}</body></html>`;
      switch (req.url) {
        case "/robots.txt":
          return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
        case "/":
          return void res.writeHead(200, { "content-type": "text/html" }).end(html(["/a", "/gone", "/broken", "/hang", "/busy"]));
        case "/a":
          return void res.writeHead(200, { "content-type": "text/html" }).end(html(["/"]));
        case "/broken":
          return void res.writeHead(500, { "content-type": "text/html" }).end("oops");
        case "/hang":
          return; // never answers: the fetch times out
        case "/busy":
          // Asks once to come back in a second (the crawl caps the wait at 300 ms), then answers.
          busy += 1;
          if (busy === 1) return void res.writeHead(429, { "retry-after": "1" }).end();
          return void res.writeHead(200, { "content-type": "text/html" }).end(html([]));
        default:
          return void res.writeHead(404, { "content-type": "text/html" }).end("no");
      }
    });
    egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await egress.close();
    await server.close();
  });

  it("counts every request the site saw as fetched, its failures by class, and the Retry-After it honoured", async () => {
    const registry = new Registry();
    const metrics = fetchMetrics(registry);
    const options: CrawlOptions = {
      userAgent: "SvcBot/0.1",
      connections: 1,
      minDelayMs: 0,
      maxCrawlDelayMs: 0,
      timeoutMs: 400,
      maxBodyBytes: 1024 * 1024,
      maxRedirects: 5,
      limits: DEFAULT_CRAWL_LIMITS,
      externalAllowed: () => false,
      maxExternalChecks: 0,
      maxRetryAfterMs: 300,
      storeEvery: 10,
    };
    const input = { site: `127.0.0.1:${server.port}`, origin: server.origin, robots: RobotsFacts.fromPartial({}), checkedAt: 1_800_000_000 };
    const outcome = await crawlSite(input, options, { egress, pool: inlineParsePool(), store: async () => undefined, metrics });
    expect(loadFacts(outcome.facts).pages.map((p) => new URL(p.url).pathname).sort()).toEqual(["/", "/a", "/broken", "/busy", "/gone", "/hang"]);
    // robots.txt, /sitemap.xml (404), the six pages, and /busy's second request.
    expect(server.requests).toHaveLength(9);
    expect(await value(registry, "svc_crawler_pages_fetched_total", { source: "crawl" })).toBe(9);
    expect(await value(registry, "svc_crawler_pages_fetched_total", { source: "analysis" })).toBe(0);
    const errors = async (cls: string) => value(registry, "svc_crawler_fetch_errors_total", { source: "crawl", class: cls });
    // /sitemap.xml, /gone and /busy's 429; /broken; /hang.
    expect([await errors("http_4xx"), await errors("http_5xx"), await errors("timeout"), await errors("refused"), await errors("dns")]).toEqual([3, 1, 1, 0, 0]);
    // One request waited out the host's Retry-After (capped at 300 ms); nothing waited for spacing or a connection.
    expect(await value(registry, "svc_crawler_politeness_wait_seconds_count", { reason: "retry_after" })).toBe(1);
    expect(await value(registry, "svc_crawler_politeness_wait_seconds_sum", { reason: "retry_after" })).toBeGreaterThanOrEqual(0.29);
    expect(await value(registry, "svc_crawler_politeness_wait_seconds_count", { reason: "delay" })).toBe(0);
    expect(await value(registry, "svc_crawler_politeness_wait_seconds_count", { reason: "connections" })).toBe(0);
    // Every series is there from the start, and no label carries a URL or a host.
    const text = await registry.metrics();
    expect(text).toContain('svc_crawler_fetch_errors_total{source="page",class="tls"} 0');
    expect(text).not.toContain("127.0.0.1");
  });
});
