import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeSite } from "../../../analyzer/index.ts";
import { ManualClock } from "../../../runtime/index.ts";
import { collectSiteFacts, createEgress, EgressBlockedError, type Egress } from "../../../crawler/index.ts";
import { makeCerts, startHttp, startHttps, type Handler, type TestCerts, type TestServer } from "./servers.ts";

const HEX = "0123456789abcdef0123456789abcdef";
const page = (title: string, links: string[], extra = "") =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${extra}</head><body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</body></html>`;

/** A small site: home, three pages, robots.txt, a sitemap, security.txt, a favicon and a web app manifest; everything else 404. */
function site(origin: () => string, robots = "User-agent: *\nDisallow: /private/\nSitemap: {o}/sitemap.xml\n"): Handler {
  return (req, res) => {
    const html = (body: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
    switch (req.url) {
      case "/":
        return html(
          page(
            "Home",
            ["/page1", "/page2", "/private/secret", "https://elsewhere.example/", "/page1#top"],
            '<meta name="generator" content="Hugo 0.120.0"><link rel="icon" href="/icon.png"><link rel="manifest" href="/app.webmanifest">',
          ),
        );
      case "/page1":
        return html(page("One", ["/page2", "/"]));
      case "/page2":
        return html(page("Two", ["/page3"]));
      case "/page3":
        return html(page("Three", ["/deeper"]));
      case "/deeper":
        return html(page("Deeper", []));
      case "/robots.txt":
        return res.writeHead(200, { "content-type": "text/plain" }).end(robots.replaceAll("{o}", origin()));
      case "/sitemap.xml":
        return res.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin()}/</loc></url><url><loc>${origin()}/page3</loc></url></urlset>`);
      case "/.well-known/security.txt":
        return res
          .writeHead(200, { "content-type": "text/plain" })
          .end("# Report security issues here\nContact: mailto:security@example.com\nContact: https://example.com/security\nExpires: 2027-01-01T00:00:00.000Z\n");
      case "/app.webmanifest":
        return res.writeHead(200, { "content-type": "application/manifest+json" }).end(
          JSON.stringify({
            name: "Small site",
            short_name: "Small",
            start_url: "/?source=pwa",
            display: "standalone",
            icons: [{ src: "/icon-192.png", sizes: "192x192", type: "image/png" }, { src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "maskable" }, "not an icon"],
          }),
        );
      case "/icon.png":
        return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      default:
        return res.writeHead(404, { "content-type": "text/html" }).end("<title>Not found</title>");
    }
  };
}

describe("collectSiteFacts", () => {
  let server: TestServer;
  let egress: Egress;
  beforeAll(async () => {
    server = await startHttp(site(() => server.origin));
    egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await egress.close();
    await server.close();
  });

  it("collects a loopback site end to end", async () => {
    const progress: Array<[number, string]> = [];
    const host = `127.0.0.1:${server.port}`;
    const o = server.origin;
    const facts = await collectSiteFacts(host, {}, { egress, clock: new ManualClock(1_800_000_000_500), randomHex: () => HEX, onProgress: (p, s) => progress.push([p, s]) });

    expect(facts.host).toBe(host);
    expect(facts.origin).toBe(o);
    expect(facts.checkedAt).toBe(1_800_000_000);
    expect(facts.home?.title).toBe("Home");
    expect(facts.home?.response?.status).toBe(200);
    expect(facts.home?.links.map((l) => [l.href, l.internal])).toEqual([
      [`${o}/page1`, true],
      [`${o}/page2`, true],
      [`${o}/private/secret`, true],
      ["https://elsewhere.example/", false],
      [`${o}/page1`, true],
    ]);
    // Sitemap URLs first, then the home page's links; /private/ is disallowed; /page3 came from the
    // sitemap before any link reached it, so /deeper was not followed.
    expect(facts.pages.map((p) => [p.title, p.response?.requestedUrl, p.depth])).toEqual([
      ["Three", `${o}/page3`, 2],
      ["One", `${o}/page1`, 1],
      ["Two", `${o}/page2`, 1],
    ]);
    expect(facts.robots).toMatchObject({ present: true, sitemaps: [`${o}/sitemap.xml`], groups: [{ userAgents: ["*"], disallow: ["/private/"] }] });
    expect(facts.sitemaps.map((s) => [s.url, s.valid, s.urlCount, s.sampleUrls])).toEqual([[`${o}/sitemap.xml`, true, 2, [`${o}/`, `${o}/page3`]]]);
    expect(facts.notFoundProbe).toMatchObject({ requestedUrl: `${o}/svc-probe-${HEX}`, status: 404 });
    expect(facts.securityTxt).toMatchObject({ status: 200, contentType: "text/plain" });
    expect(facts.securityTxtFields).toEqual({ contact: ["mailto:security@example.com", "https://example.com/security"], expires: "2027-01-01T00:00:00.000Z", expiresCount: 1 });
    // The manifest the home page links, read once (application/manifest+json is JSON).
    expect(facts.manifest).toMatchObject({
      href: `${o}/app.webmanifest`,
      response: { status: 200, contentType: "application/manifest+json" },
      parsed: true,
      name: "Small site",
      shortName: "Small",
      startUrl: "/?source=pwa",
      display: "standalone",
      icons: [
        { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "" },
        { src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "maskable" },
      ],
    });
    expect(server.requests.filter((r) => r === "GET /app.webmanifest")).toHaveLength(1);
    expect(facts.favicon).toMatchObject({ requestedUrl: `${o}/icon.png`, status: 200, contentType: "image/png", bodyBytes: 4 });
    // host:port: only that origin; no http:// or www twin to compare with.
    expect(facts.httpVariant).toBeUndefined();
    expect(facts.wwwVariant).toBeUndefined();
    // https was tried first on the same port and failed the handshake: a fact, not a failure.
    expect(facts.tls).toMatchObject({ attempted: true, handshakeOk: false, error: "ERR_SSL_WRONG_VERSION_NUMBER" });
    expect(facts.dns).toMatchObject({ resolved: true, a: ["127.0.0.1"] });
    expect(facts.technologies).toEqual(["Hugo"]);

    expect(server.requests).not.toContain("GET /private/secret");
    expect(server.requests).not.toContain("GET /deeper");
    expect(server.requests.filter((r) => r === "GET /page1")).toHaveLength(1);
    expect(progress[0]).toEqual([0, "home"]);
    expect(progress.at(-1)).toEqual([100, "done"]);
    expect(progress.map(([p]) => p)).toEqual([...progress.map(([p]) => p)].sort((a, b) => a - b));
    expect(new Set(progress.map(([, s]) => s.replace(/^confirm: .*/, "confirm")))).toEqual(
      new Set(["home", "robots", "sitemaps", "http_variant", "www_variant", "not_found_probe", "security_txt", "favicon", "manifest", "tls", "dns", "pages", "confirm", "done"]),
    );
    // The confirmation step says what it confirms and until when (the test's clock, no delay).
    expect(progress.find(([, s]) => s.startsWith("confirm"))?.[1]).toMatch(/^confirm: https_available would cap the rank; looking again at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // No HTTPS would cap the rank: TLS alone is looked at again (the home page is not fetched twice).
    expect(facts.confirmation).toMatchObject({ done: true, delayMs: 0, tls: { attempted: true, handshakeOk: false }, home: undefined, robots: undefined, dns: undefined });
    expect(server.requests.filter((r) => r === "GET /")).toHaveLength(1);
  });

  it("records an unreachable site without trying its paths", async () => {
    const gone = await startHttp(() => undefined);
    const port = gone.port;
    await gone.close();
    const facts = await collectSiteFacts(`127.0.0.1:${port}`, {}, { egress, clock: new ManualClock(0), randomHex: () => HEX });
    expect(facts.origin).toBe(`https://127.0.0.1:${port}`);
    expect(facts.home?.response).toMatchObject({ requestedUrl: `https://127.0.0.1:${port}/`, status: 0, error: "refused" });
    expect(facts.robots?.response).toBeUndefined();
    expect([facts.securityTxtFields, facts.manifest]).toEqual([undefined, undefined]);
    expect(facts.sitemaps).toEqual([]);
    expect(facts.notFoundProbe).toBeUndefined();
    expect(facts.pages).toEqual([]);
    expect(facts.tls).toMatchObject({ attempted: true, handshakeOk: false, error: "refused" });
  });

  it("refuses a private site unless private targets are allowed", async () => {
    const closed = createEgress({ allowPrivateTargets: false, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
    const before = server.connections();
    try {
      const err = await collectSiteFacts(`127.0.0.1:${server.port}`, {}, { egress: closed, clock: new ManualClock(0), randomHex: () => HEX }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressBlockedError);
      expect((err as EgressBlockedError).reason).toBe("blocked_private_address");
      expect(server.connections()).toBe(before);
    } finally {
      await closed.close();
    }
  });
});

describe("collectSiteFacts politeness", () => {
  it("honours Crawl-delay up to the cap and limits concurrent requests per host", async () => {
    const starts: Record<string, number> = {};
    let inflight = 0;
    let maxInflight = 0;
    const inner = site(() => server.origin, "User-agent: *\nDisallow: /private/\nCrawl-delay: 30\nSitemap: {o}/sitemap.xml\n");
    const server: TestServer = await startHttp((req, res) => {
      starts[req.url ?? ""] = performance.now();
      maxInflight = Math.max(maxInflight, ++inflight);
      res.on("finish", () => inflight--);
      setTimeout(() => inner(req, res), 20);
    });
    const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
    try {
      const began = performance.now();
      const facts = await collectSiteFacts(
        `127.0.0.1:${server.port}`,
        { maxCrawlDelayMs: 150, maxConnectionsPerHost: 2 },
        { egress, clock: new ManualClock(0), randomHex: () => HEX },
      );
      expect(facts.robots?.groups[0]?.crawlDelayS).toBe(30);
      expect(facts.pages.map((p) => p.title)).toEqual(["Three", "One", "Two"]);
      const pageStarts = ["/page3", "/page1", "/page2"].map((p) => starts[p] as number);
      expect((pageStarts[1] as number) - (pageStarts[0] as number)).toBeGreaterThanOrEqual(140);
      expect((pageStarts[2] as number) - (pageStarts[1] as number)).toBeGreaterThanOrEqual(140);
      expect(maxInflight).toBeLessThanOrEqual(2);
      expect(performance.now() - began).toBeLessThan(4000);
    } finally {
      await egress.close();
      await server.close();
    }
  });

  it("samples no pages when robots.txt is unreachable (RFC 9309: disallow all)", async () => {
    const server = await startHttp((req, res) => {
      if (req.url === "/robots.txt") return void res.writeHead(503).end();
      res.writeHead(200, { "content-type": "text/html" }).end(page("Home", ["/a", "/b"]));
    });
    const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
    try {
      const facts = await collectSiteFacts(`127.0.0.1:${server.port}`, {}, { egress, clock: new ManualClock(0), randomHex: () => HEX });
      expect(facts.robots?.response?.status).toBe(503);
      expect(facts.pages).toEqual([]);
    } finally {
      await egress.close();
      await server.close();
    }
  });
});

describe("collectSiteFacts confirms what would cap the rank", () => {
  let certs: TestCerts;
  beforeAll(() => {
    certs = makeCerts();
  });

  /** An https site (valid certificate) whose home page answers 500 to the first `failures` requests, 200 after. */
  async function flaky(failures: number) {
    let homeRequests = 0;
    const server = await startHttps((req, res) => {
      if (req.url === "/") {
        homeRequests += 1;
        if (homeRequests <= failures) return void res.writeHead(500, { "content-type": "text/html" }).end("<title>Oops</title>");
        return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page("Home", []));
      }
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }, certs.valid);
    return { server, homeRequests: () => homeRequests };
  }

  const egressFor = () => createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: certs.ca, connectTimeoutMs: 1000 });

  async function collect(failures: number, confirmDelayMs: number) {
    const { server, homeRequests } = await flaky(failures);
    const egress = egressFor();
    try {
      const facts = await collectSiteFacts(`127.0.0.1:${server.port}`, { confirmDelayMs }, { egress, clock: new ManualClock(Date.now()), randomHex: () => HEX });
      return { facts, homeRequests: homeRequests() };
    } finally {
      await egress.close();
      await server.close();
    }
  }

  it("a 500 that recovers on the second look fails home_status without capping the rank", async () => {
    const { facts, homeRequests } = await collect(1, 0);
    expect(facts.home?.response?.status).toBe(500);
    expect(facts.confirmation).toMatchObject({ done: true, delayMs: 0, home: { status: 200 }, tls: undefined, robots: undefined, dns: undefined });
    expect(homeRequests).toBe(2);
    const a = analyzeSite(facts);
    expect(a.items.find((i) => i.code === "home_status")).toMatchObject({ status: "fail", value: 500 });
    expect(a.unconfirmed).toEqual([{ code: "home_status", cap: 10 }]);
    expect(a.caps).toEqual([]);
    expect(a.rank).toBeGreaterThan(10);
  });

  it("a 500 seen on both looks caps the rank at 10", async () => {
    const { facts, homeRequests } = await collect(Infinity, 0);
    expect(facts.confirmation?.home?.status).toBe(500);
    expect(homeRequests).toBe(2);
    const a = analyzeSite(facts);
    expect(a.caps.map((c) => [c.code, c.cap])).toEqual([["home_status", 10]]);
    expect(a.unconfirmed).toEqual([]);
    expect(a.rank).toBe(10);
  });

  it("a healthy site pays nothing: no second look, nothing fetched twice", async () => {
    const { facts, homeRequests } = await collect(0, 600_000);
    expect(facts.confirmation).toMatchObject({ done: false, home: undefined, tls: undefined });
    expect(homeRequests).toBe(1);
    expect(analyzeSite(facts).caps).toEqual([]);
  });

  it("waits confirmDelayMs before the second look, and the signal abandons the wait", async () => {
    const began = performance.now();
    const { facts } = await collect(1, 300);
    expect(performance.now() - began).toBeGreaterThanOrEqual(290);
    expect(facts.confirmation?.delayMs).toBe(300);

    const { server } = await flaky(Infinity);
    const egress = egressFor();
    const abort = new AbortController();
    try {
      const started = performance.now();
      const pending = collectSiteFacts(
        `127.0.0.1:${server.port}`,
        { confirmDelayMs: 600_000 },
        {
          egress,
          clock: new ManualClock(Date.now()),
          randomHex: () => HEX,
          signal: abort.signal,
          onProgress: (_p, step) => {
            if (step.startsWith("confirm")) setTimeout(() => abort.abort(new Error("lease lost")), 20);
          },
        },
      );
      await expect(pending).rejects.toThrow("lease lost");
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await egress.close();
      await server.close();
    }
  });
});

describe("collectSiteFacts reads security.txt fields and the linked manifest", () => {
  const signed = [
    "-----BEGIN PGP SIGNED MESSAGE-----",
    "Hash: SHA512",
    "",
    "Contact: mailto:security@example.com",
    "- Contact: https://example.com/report",
    "Expires: 2026-12-31T23:59:59Z",
    "expires: 2030-01-01T00:00:00Z",
    "-----BEGIN PGP SIGNATURE-----",
    "Contact: mailto:not-a-field@example.com",
    "-----END PGP SIGNATURE-----",
  ].join("\r\n");

  async function collectWith(files: Record<string, [string, string]>, homeExtra: string) {
    const server = await startHttp((req, res) => {
      if (req.url === "/") return void res.writeHead(200, { "content-type": "text/html" }).end(page("Home", [], homeExtra));
      const file = files[req.url ?? ""];
      if (file) return void res.writeHead(200, { "content-type": file[0] }).end(file[1]);
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    });
    const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
    try {
      const facts = await collectSiteFacts(`127.0.0.1:${server.port}`, { maxPages: 0 }, { egress, clock: new ManualClock(0), randomHex: () => HEX });
      return { facts, requests: server.requests };
    } finally {
      await egress.close();
      await server.close();
    }
  }

  it("reads a clear-signed security.txt between its armour and its signature, and marks a manifest that is not a JSON object as not parsed", async () => {
    const { facts } = await collectWith(
      { "/.well-known/security.txt": ["text/plain", signed], "/m.json": ["application/json", "[1, 2]"] },
      '<link rel="manifest" href="/m.json">',
    );
    expect(facts.securityTxtFields).toEqual({ contact: ["mailto:security@example.com", "https://example.com/report"], expires: "2026-12-31T23:59:59Z", expiresCount: 2 });
    expect(facts.manifest).toMatchObject({ href: `${facts.origin}/m.json`, response: { status: 200 }, parsed: false, name: "" });
  });

  it("fetches no manifest when the home page links none, and records a missing one as not parsed", async () => {
    const none = await collectWith({}, "");
    expect([none.facts.manifest, none.facts.securityTxtFields]).toEqual([undefined, undefined]);
    expect(none.requests.filter((r) => /manifest/.test(r))).toEqual([]);
    const missing = await collectWith({}, '<link rel="manifest" href="/gone.webmanifest">');
    expect(missing.facts.manifest).toMatchObject({ response: { status: 404 }, parsed: false });
  });
});
