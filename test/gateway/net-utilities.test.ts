import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { generateKeyPairSync } from "node:crypto";
import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { utilityById } from "../../utilities/index.ts";
import { createTestCa, type TestCa } from "../harness/fixture-web/ca.ts";
import { startDnsServer, type FixtureDnsServer } from "../harness/fixture-web/dns-server.ts";
import { freePort } from "../harness/free-port.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startUtilitySite, type UtilitySite } from "../harness/sites/utility-site.ts";
import { RU_RECORD } from "../unit/utilities/whois-records.ts";

// The network utilities as a user meets them: POST /utilities/{id} in embedded mode, the run
// travelling the scheduler's synchronous lane as a `utility` job to the in-process crawler node,
// against loopback fixtures only.

const logLines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(chunk.toString("utf8"));
    done();
  },
});

const MARK_PATH = "/landing-7f3a9c";
const MARK_HEADER = "fixture-9b2c1d5e";
const ETAG = '"v1-4b1e"';
const HOME = "<!DOCTYPE html><html><head><title>Fixture home</title></head><body><h1>Hello</h1></body></html>";

const SPF = "v=spf1 mx include:_spf.utilnet.example ~all";
const DKIM_KEY = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "der", type: "spki" }).toString("base64");

const robotsTxt = (origin: string) =>
  [
    "User-agent: *",
    "Disallow: /admin/",
    "Allow: /admin/public$",
    "",
    "User-agent: Yandex",
    "Disallow: /search",
    "Clean-param: utm_source /",
    "Crawl-delay: 2",
    "",
    "User-agent: GPTBot",
    "Disallow: /",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "Noindex: /x",
  ].join("\n");

const ARTICLE = `<title>Article</title><p>${"text ".repeat(400)}</p>`;

let gw: TestGateway;
let site: UtilitySite;
let dns: FixtureDnsServer;
let closedPort: number;
let ca: TestCa;
let secure: UtilitySite;
let whoisServer: TcpServer;
const whoisQueries: string[] = [];
let accounts = 0;
/** A key of its own for each test: the hourly limit of network utilities is per key. */
const freshKey = async () => (await gw.newAccount(`net-user-${++accounts}@example.com`)).key;

beforeAll(async () => {
  site = await startUtilitySite();
  site.routes.set(MARK_PATH, (req, res) => {
    if (req.headers["if-none-match"] === ETAG) {
      res.writeHead(304, { etag: ETAG }).end();
      return;
    }
    const body = gzipSync(HOME);
    res.writeHead(200, [
      ["Content-Type", "text/html; charset=utf-8"],
      ["Content-Encoding", "gzip"],
      ["ETag", ETAG],
      ["X-Fixture", MARK_HEADER],
      ["Set-Cookie", "a=1; Path=/"],
      ["Set-Cookie", "b=2; Path=/; HttpOnly"],
      ["Content-Length", String(body.length)],
    ]);
    res.end(body);
  });
  site.routes.set("/old", (_req, res) => res.writeHead(301, { location: MARK_PATH }).end());
  site.routes.set("/r1", (_req, res) => res.writeHead(302, { location: "/r2" }).end());
  site.routes.set("/r2", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end('<html><head><meta http-equiv="refresh" content="0; url=/final"></head></html>'));
  site.routes.set("/final", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<title>Final</title>"));
  site.routes.set("/loop-a", (_req, res) => res.writeHead(301, { location: "/loop-b" }).end());
  site.routes.set("/loop-b", (_req, res) => res.writeHead(301, { location: "/loop-a" }).end());
  dns = await startDnsServer([
    {
      origin: "utilnet.example",
      names: {
        "@": { A: ["127.0.0.1"], MX: [{ preference: 10, exchange: "mail.utilnet.example" }], TXT: [SPF], NS: ["ns1.utilnet.example"] },
        www: { A: ["127.0.0.1"] },
        mail: { A: ["127.0.0.1"] },
        relay: { A: ["127.0.0.2"] },
        _spf: { TXT: ["v=spf1 ip4:192.0.2.0/24 a:relay.utilnet.example include:gone.utilnet.example -all"] },
        _dmarc: { TXT: ["v=DMARC1; p=none; rua=mailto:dmarc@utilnet.example"] },
        "mail._domainkey": { TXT: [`v=DKIM1; k=rsa; p=${DKIM_KEY}`] },
        "_smtp._tls": { TXT: ["v=TLSRPTv1; rua=mailto:tls@utilnet.example"] },
      },
    },
    // Reverse DNS of loopback addresses posing as crawlers, and the forward names they claim.
    { origin: "googlebot.com", names: { "crawl-1": { A: ["127.0.0.1"] }, "crawl-2": { A: ["127.0.0.9"] } } },
    {
      origin: "in-addr.arpa",
      names: { "1.0.0.127": { PTR: ["crawl-1.googlebot.com"] }, "2.0.0.127": { PTR: ["crawl-2.googlebot.com"] }, "3.0.0.127": { PTR: ["www.utilnet.example"] } },
    },
  ]);
  ca = await createTestCa();
  secure = await startUtilitySite({ cert: ca.issue("valid", ["localhost"]), host: "localhost" });
  secure.routes.set("/", (_req, res) => {
    res.writeHead(200, [
      ["Content-Type", "text/html; charset=utf-8"],
      ["Strict-Transport-Security", "max-age=300"],
      ["Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'"],
      ["X-Content-Type-Options", "nosniff"],
      ["Set-Cookie", "sid=1; Path=/; Secure; HttpOnly"],
    ]);
    res.end('<!DOCTYPE html><title>Secure</title><script src="/app.js"></script><img src="http://img.utilnet.example/a.png"><form action="/search"></form>');
  });
  site.routes.set("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(robotsTxt(site.origin)));
  // A page a WAF rule serves only to browsers and search bots: GPTBot gets 403, ClaudeBot a challenge.
  site.routes.set("/article", (req, res) => {
    const ua = req.headers["user-agent"] ?? "";
    if (ua.includes("GPTBot")) res.writeHead(403, { "content-type": "text/html" }).end("<title>Forbidden</title>");
    else if (ua.includes("ClaudeBot")) res.writeHead(200, { "content-type": "text/html" }).end("<title>Just a moment...</title><div class=cf-chl>challenge-platform</div>");
    else res.writeHead(200, { "content-type": "text/html" }).end(ARTICLE);
  });
  closedPort = await freePort();
  // A port-43 service on loopback: IANA's referral for .ru, then the registry's record.
  whoisServer = createTcpServer((socket) => {
    let got = "";
    socket.on("data", (chunk: Buffer) => {
      got += chunk.toString("utf8");
      if (!got.includes("\r\n")) return;
      const query = got.trim();
      whoisQueries.push(query);
      socket.end(query === "ru" ? "% IANA WHOIS server\ndomain:       RU\nrefer:        127.0.0.1\n" : query === "example.ru" ? RU_RECORD : "No entries found for the selected source(s).\n");
    });
  });
  await new Promise<void>((resolve) => whoisServer.listen(0, "127.0.0.1", resolve));
  gw = await startTestGateway({
    logStream: sink,
    env: {
      SVC_ALLOW_PRIVATE_TARGETS: "1",
      SVC_UTILITY_NET_PER_HOUR: "6",
      SVC_RATE_PER_HOUR: "100000",
      SVC_SYNC_WAIT_MS: "15000",
      SVC_DNS_SERVERS: dns.address,
      SVC_UTILITY_RESOLVERS: `google=${dns.address}`,
      SVC_UTILITY_PORTS: `80,443,${site.port},${closedPort}`,
      SVC_EXTRA_CA_FILE: ca.caFile,
      SVC_UTILITY_WHOIS_ROOT: "127.0.0.1",
    },
    crawl: { whoisPort: (whoisServer.address() as { port: number }).port },
  });
});

afterAll(async () => {
  await gw?.close();
  await site?.close();
  await dns?.close();
  await secure?.close();
  await ca?.close();
  await new Promise<void>((resolve) => (whoisServer ? whoisServer.close(() => resolve()) : resolve()));
});

const post = async (id: string, input: unknown, key?: string) => gw.call("POST", `/api/v1/utilities/${id}`, { body: { input }, key: key ?? (await freshKey()) });

describe("network utilities through the sync lane", () => {
  it("http_headers: the example's fields on a fixture answer status, every header, the decoded size and a 304", async () => {
    const key = await freshKey();
    const example = utilityById("http_headers")!.example;
    const res = await post("http_headers", { ...example, url: `${site.origin}${MARK_PATH}` }, key);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ result: Record<string, unknown>; blocks: { pairs: { label: string; value: string }[] } }>();
    expect(body.result).toMatchObject({
      url: `${site.origin}${MARK_PATH}`,
      reachable: true,
      status: 200,
      status_text: "OK",
      http_version: "1.1",
      ip: "127.0.0.1",
      bytes: Buffer.byteLength(HOME),
      encoded_bytes: gzipSync(HOME).length,
      content_encoding: "gzip",
      location: null,
      conditional: { etag: ETAG, last_modified: null, sent: true, status: 304, gets_304: true },
    });
    const headers = body.result.headers as { name: string; value: string }[];
    expect(headers.filter((h) => h.name === "set-cookie").map((h) => h.value)).toEqual(["a=1; Path=/", "b=2; Path=/; HttpOnly"]);
    expect(headers.find((h) => h.name === "x-fixture")?.value).toBe(MARK_HEADER);
    // The run asked as the example's bot, once plainly and once conditionally.
    expect(site.requests.filter((r) => r.startsWith(`GET ${MARK_PATH} `))).toEqual([
      `GET ${MARK_PATH} Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`,
      `GET ${MARK_PATH} Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`,
    ]);
    expect(body.blocks.pairs[0]).toEqual({ label: "Status", value: "HTTP/1.1 200 OK", status: "good" });

    const moved = (await post("http_headers", { url: `${site.origin}/old`, method: "HEAD" }, key)).json<{ result: Record<string, unknown> }>();
    expect(moved.result).toMatchObject({ status: 301, location: `${site.origin}${MARK_PATH}`, bytes: 0 });
  }, 60_000);

  it("http_headers: a wrong field is bad_param, a closed port is a result, and a read key lacks the run scope", async () => {
    expect((await post("http_headers", { url: "ftp://example.com/" })).json()).toMatchObject({ code: "bad_param", param: "input.url" });
    expect((await post("http_headers", { url: site.origin, ua: "custom" })).json()).toMatchObject({ code: "bad_param", param: "input.ua_custom" });
    const closed = await startUtilitySite();
    await closed.close();
    const down = await post("http_headers", { url: `${closed.origin}/` });
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ result: { reachable: false, error: `127.0.0.1:${closed.port} did not answer: connection refused` } });
    const reader = await gw.newAccount("net-reader@example.com", ["read"]);
    expect((await post("http_headers", { url: site.origin }, reader.key)).json()).toMatchObject({ code: "scope" });
  }, 60_000);

  it("redirect_chain: hop by hop through a 302 and a meta refresh, and a loop in bulk mode", async () => {
    const example = utilityById("redirect_chain")!.example;
    const res = await post("redirect_chain", { ...example, url: `${site.origin}/r1` });
    expect(res.statusCode, res.body).toBe(200);
    const chain = res.json<{ result: { chains: Record<string, unknown>[] } }>().result.chains[0]!;
    expect((chain.hops as Record<string, unknown>[]).map(({ ms: _ms, ...h }) => h)).toEqual([
      { url: `${site.origin}/r1`, status: 302, location: `${site.origin}/r2`, kind: "http" },
      { url: `${site.origin}/r2`, status: 200, location: `${site.origin}/final`, kind: "meta_refresh" },
      { url: `${site.origin}/final`, status: 200, location: null, kind: "final" },
    ]);
    expect(chain).toMatchObject({ final_url: `${site.origin}/final`, final_status: 200, redirects: 2, verdict: "warn" });
    expect(chain.problems).toEqual([
      `302 (temporary) from ${site.origin}/r1: a permanent move should be 301 or 308`,
      `a meta refresh at ${site.origin}/r2: search engines prefer a 301`,
      `2 redirects in a row: link to ${site.origin}/final directly`,
    ]);
    const bulk = (await post("redirect_chain", { urls: [`${site.origin}/loop-a`, `${site.origin}/old`] })).json<{ result: { chains: Record<string, unknown>[] } }>();
    expect(bulk.result.chains.map((c) => [c.verdict, c.redirects, c.final_status])).toEqual([
      ["bad", 2, 301],
      ["ok", 1, 200],
    ]);
    expect(bulk.result.chains[0]!.problems).toEqual([`redirect loop: ${site.origin}/loop-a is reached again`, `2 redirects in a row: link to ${site.origin}/loop-b directly`]);
    expect((await post("redirect_chain", { ua: "googlebot" })).json()).toMatchObject({ code: "bad_param" });
    expect((await post("redirect_chain", { url: site.origin, max_hops: 50 })).json()).toMatchObject({ code: "bad_param", param: "input.max_hops" });
  }, 60_000);

  it("dns_lookup: records with TTLs from the fixture DNS server, through two resolvers that agree", async () => {
    const example = utilityById("dns_lookup")!.example;
    const res = await post("dns_lookup", { ...example, name: "utilnet.example" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      result: {
        name: "utilnet.example",
        answers: [
          { resolver: "system", type: "A", value: "127.0.0.1", ttl: 300 },
          { resolver: "system", type: "MX", value: "10 mail.utilnet.example", ttl: null },
          { resolver: "system", type: "TXT", value: SPF, ttl: null },
        ],
        consistent: true,
        empty_types: [],
      },
    });
    const two = (await post("dns_lookup", { name: "www.utilnet.example", types: ["A", "AAAA"], resolvers: ["system", "google"] })).json<{ result: Record<string, unknown> }>();
    expect(two.result).toMatchObject({ consistent: true, empty_types: ["AAAA"] });
    expect((two.result.answers as { resolver: string }[]).map((a) => a.resolver)).toEqual(["system", "google"]);
    expect((await post("dns_lookup", { name: "utilnet.example", types: ["XYZ"] })).json()).toMatchObject({ code: "bad_param", param: "input.types" });
    expect((await post("dns_lookup", { name: "https://utilnet.example/" })).json()).toMatchObject({ code: "bad_param", param: "input.name" });
  }, 60_000);

  it("port_check: an open port with its connect times, a closed one, and a port off the allow-list refused", async () => {
    const example = utilityById("port_check")!.example;
    const res = await post("port_check", { ...example, host: "127.0.0.1", ports: [String(site.port), String(closedPort)], count: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ result: { ip: string; ports: { port: number; state: string; tries: number; rtt_ms: { min: number; avg: number; max: number } | null }[] } }>();
    expect(body.result.ip).toBe("127.0.0.1");
    expect(body.result.ports.map((p) => [p.port, p.state, p.tries])).toEqual([
      [site.port, "open", 2],
      [closedPort, "closed", 1],
    ]);
    const rtt = body.result.ports[0]!.rtt_ms!;
    expect(rtt.min).toBeLessThanOrEqual(rtt.avg);
    expect(rtt.avg).toBeLessThanOrEqual(rtt.max);
    expect(body.result.ports[1]!.rtt_ms).toBeNull();
    expect((await post("port_check", { host: "127.0.0.1", ports: ["23"] })).json()).toMatchObject({ code: "bad_param", param: "input.ports" });
    expect((await post("port_check", { host: "www.utilnet.example", ports: ["http"] })).json()).toMatchObject({ code: "bad_param", param: "input.ports" });
  }, 60_000);

  it("whois: IANA's referral, then the registry's record, read into dates, age and days left", async () => {
    const example = utilityById("whois")!.example;
    const res = await post("whois", { ...example, domain: "www.example.ru" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ result: unknown }>().result).toEqual({
      domain: "example.ru",
      registered: true,
      registrar: "RU-CENTER-RU",
      created: "2004-05-07T20:00:00.000Z",
      updated: null,
      expires: "2027-05-07T21:00:00.000Z",
      // The gateway's clock is 2026-11-22 10:00 UTC.
      age_days: 8233,
      days_left: 166,
      status: ["REGISTERED", "DELEGATED", "VERIFIED"],
      ns: ["ns1.example.ru", "ns2.example.net"],
      servers: ["127.0.0.1"],
      source: "whois",
      raw: RU_RECORD,
    });
    expect(whoisQueries.slice(0, 2)).toEqual(["ru", "example.ru"]);
    const free = (await post("whois", { domain: "free-name.ru", raw: false })).json<{ result: Record<string, unknown>; blocks: { code: unknown[] } }>();
    expect(free.result).toMatchObject({ domain: "free-name.ru", registered: false, registrar: null, age_days: null });
    expect(free.result).not.toHaveProperty("raw");
    expect(free.blocks.code).toEqual([]);
    expect((await post("whois", { domain: "example.ru/path" })).json()).toMatchObject({ code: "bad_param", param: "input.domain" });
  }, 60_000);

  it("security_headers: an HTTPS page over the test CA graded Observatory-style, finding by finding", async () => {
    const example = utilityById("security_headers")!.example;
    const res = await post("security_headers", { ...example, url: `${secure.origin}/` });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<{ result: Record<string, unknown> }>().result;
    // 100 − 10 (short HSTS) − 25 (CSP: unsafe-inline 20, object-src 5) − 20 (no framing limit) − 5 (no Referrer-Policy) − 5 (a cookie without SameSite) − 10 (a passive http: image) = 25.
    expect(result).toMatchObject({ url: `${secure.origin}/`, status: 200, score: 25, grade: "D-" });
    expect((result.headers as { name: string; status: string; points: number }[]).map((h) => [h.name, h.status, h.points])).toEqual([
      ["Strict-Transport-Security", "warn", 10],
      ["Content-Security-Policy", "bad", 25],
      ["X-Frame-Options", "bad", 20],
      ["X-Content-Type-Options", "good", 0],
      ["Referrer-Policy", "warn", 5],
      ["Permissions-Policy", "info", 0],
    ]);
    expect(result.csp_findings).toEqual([
      "script-src allows 'unsafe-inline' (no nonce or hash): XSS is not contained",
      "object-src is not 'none': plugins may run",
      "no base-uri: an injected <base> can redirect relative scripts",
    ]);
    expect(result.cookies).toEqual([{ name: "sid", secure: true, http_only: true, same_site: null, problems: ["no SameSite: cross-site requests carry it (browsers assume Lax)"] }]);
    expect(result.mixed).toEqual([{ url: "http://img.utilnet.example/a.png", kind: "img", active: false }]);
    expect(result.insecure_forms).toEqual([]);
    expect((await post("security_headers", {})).json()).toMatchObject({ code: "bad_param", param: "input.url" });
  }, 60_000);

  it("mail_dns_check: MX, SPF expanded through its includes, DMARC, DKIM key size and TLS-RPT from the fixture zone", async () => {
    const example = utilityById("mail_dns_check")!.example;
    const res = await post("mail_dns_check", { ...example, domain: "utilnet.example" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ result: unknown }>().result).toEqual({
      domain: "utilnet.example",
      mx: [{ preference: 10, exchange: "mail.utilnet.example", addresses: 1, cname: false }],
      // mx, include:_spf, then inside it a:relay and include:gone (which has no SPF: a void lookup).
      spf: { record: SPF, lookups: 4, void_lookups: 1, all: "~all", includes: ["_spf.utilnet.example"] },
      dmarc: { record: "v=DMARC1; p=none; rua=mailto:dmarc@utilnet.example", p: "none", sp: null, pct: 100, rua: "mailto:dmarc@utilnet.example", ruf: null, adkim: "r", aspf: "r" },
      dkim: [
        { selector: "mail", found: true, key_type: "rsa", bits: 2048, revoked: false },
        { selector: "default", found: false, key_type: null, bits: null, revoked: false },
      ],
      mta_sts: null,
      tls_rpt: "v=TLSRPTv1; rua=mailto:tls@utilnet.example",
      bimi: null,
      problems: ["include:gone.utilnet.example has no SPF record", "DMARC p=none only monitors: spoofed mail is still delivered"],
    });
    const bare = (await post("mail_dns_check", { domain: "www.utilnet.example", dkim_selectors: ["mail"] })).json<{ result: { problems: string[] } }>();
    expect(bare.result.problems).toEqual([
      "no MX record: mail goes to the domain's A record, if any",
      "no SPF record: anyone may send as this domain",
      "no DMARC record at _dmarc: receivers get no policy and you get no reports",
      "no DKIM key under the selectors tried (mail)",
    ]);
    expect((await post("mail_dns_check", { domain: "utilnet.example", dkim_selectors: Array.from({ length: 11 }, (_, i) => `s${i}`) })).json()).toMatchObject({ code: "bad_param", param: "input.dkim_selectors" });
  }, 60_000);

  it("bot_verify: reverse DNS, the bot's host suffix and forward DNS back to the IP, from whole log lines", async () => {
    const example = utilityById("bot_verify")!.example as { ips: string[] };
    const lines = [example.ips[0]!.replace("66.249.66.1", "127.0.0.1"), "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.1"];
    const res = await post("bot_verify", { ips: lines });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ result: unknown }>().result).toEqual({
      rows: [
        { ip: "127.0.0.1", ptr: "crawl-1.googlebot.com", claimed: "Googlebot", forward_ok: true, verdict: "verified" },
        { ip: "127.0.0.2", ptr: "crawl-2.googlebot.com", claimed: "Googlebot", forward_ok: false, verdict: "forward_mismatch" },
        { ip: "127.0.0.3", ptr: "www.utilnet.example", claimed: null, forward_ok: false, verdict: "not_a_bot_host" },
        { ip: "127.0.0.4", ptr: null, claimed: null, forward_ok: false, verdict: "no_ptr" },
      ],
    });
    expect((await post("bot_verify", { ips: ["GET / HTTP/1.1"] })).json()).toMatchObject({ code: "bad_param", param: "input.ips" });
  }, 60_000);

  it("robots_txt_check: groups, problems and each bot's verdict with the rule and line that decided it", async () => {
    const example = utilityById("robots_txt_check")!.example;
    const res = await post("robots_txt_check", { ...example, url: `${site.origin}/` });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<{ result: Record<string, unknown> }>().result;
    expect(result).toMatchObject({
      status: 200,
      source: "fetched",
      // Noindex is an extension the crawler's parser accepts without comment, like the site's report.
      errors: [],
      groups: [
        { agents: ["*"], line: 1, allow: 1, disallow: 1, crawl_delay: null },
        { agents: ["Yandex"], line: 5, allow: 0, disallow: 1, crawl_delay: 2 },
        { agents: ["GPTBot"], line: 10, allow: 0, disallow: 1, crawl_delay: null },
      ],
      sitemaps: [`${site.origin}/sitemap.xml`],
      clean_params: ["utm_source /"],
    });
    expect((result.verdicts as { url: string; bot: string; allowed: boolean; line: number | null }[]).map((v) => [v.url, v.bot, v.allowed, v.line])).toEqual([
      ["/", "Googlebot", true, null],
      ["/", "YandexBot", true, null],
      ["/", "GPTBot", false, 11],
      ["/admin/", "Googlebot", false, 2],
      ["/admin/", "YandexBot", true, null],
      ["/admin/", "GPTBot", false, 11],
      ["/search?q=1", "Googlebot", true, null],
      ["/search?q=1", "YandexBot", false, 6],
      ["/search?q=1", "GPTBot", false, 11],
    ]);
    // Pasted text, the longest rule wins ($ anchors the end), and Googlebot-Image falls back to the * group.
    const pasted = (await post("robots_txt_check", { url: site.origin, robots_text: robotsTxt(site.origin), test_urls: ["/admin/public", "/admin/public/x"], bots: ["Googlebot-Image"] })).json<{
      result: Record<string, unknown>;
    }>();
    expect(pasted.result).toMatchObject({
      status: null,
      source: "pasted",
      verdicts: [
        { url: "/admin/public", bot: "Googlebot-Image", allowed: true, line: 3, rule: "Allow: /admin/public$" },
        { url: "/admin/public/x", bot: "Googlebot-Image", allowed: false, line: 2, rule: "Disallow: /admin/" },
      ],
    });
    // A misspelt directive is reported with its line, as the crawler's parser reports it.
    const misspelt = (await post("robots_txt_check", { url: site.origin, robots_text: "User-agent: *\nDisalow: /x\nDisallow: /y", test_urls: ["/x"], bots: ["Googlebot"] })).json<{ result: Record<string, unknown> }>();
    expect(misspelt.result).toMatchObject({ errors: [{ line: 2, text: "Disalow: /x", problem: 'unknown directive "Disalow"' }], verdicts: [{ url: "/x", allowed: true, line: null }] });
    expect((await post("robots_txt_check", { url: site.origin, bots: ["Slurp"] })).json()).toMatchObject({ code: "bad_param", param: "input.bots" });
  }, 60_000);

  it("bot_access: the page as a browser and as each bot, with the robots.txt verdict and WAF blocks", async () => {
    const example = utilityById("bot_access")!.example;
    const res = await post("bot_access", { ...example, url: `${site.origin}/article`, bots: ["googlebot", "yandexbot", "gptbot", "claudebot"] });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<{ result: { browser: unknown; rows: Record<string, unknown>[] } }>().result;
    expect(result.browser).toEqual({ status: 200, bytes: Buffer.byteLength(ARTICLE), title: "Article" });
    expect(result.rows.map((r) => [r.bot, r.robots_allowed, r.status, r.same_as_browser, r.verdict])).toEqual([
      ["googlebot", true, 200, true, "ok"],
      ["yandexbot", true, 200, true, "ok"],
      ["gptbot", false, 403, false, "blocked"],
      ["claudebot", true, 200, false, "blocked"],
    ]);
    expect(result.rows[2]!.problems).toEqual(["answers 403 to this bot but not to a browser: a WAF or CDN rule blocks it", "robots.txt disallows this URL for GPTBot"]);
    expect(result.rows[3]!.problems).toEqual(["gets a challenge page instead of the content"]);
    expect((await post("bot_access", { url: site.origin, bots: ["slurp"] })).json()).toMatchObject({ code: "bad_param", param: "input.bots" });
  }, 60_000);

  it("the last batch through the lane: bot_view reads a page with the crawler's parser, ip_info a PTR, tls_http_versions a port off the allow-list", async () => {
    const key = await freshKey();
    const view = await post("bot_view", { url: `${site.origin}${MARK_PATH}`, ua: "bingbot" }, key);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json<{ result: Record<string, unknown> }>().result).toMatchObject({
      status: 200,
      meta: { title: "Fixture home" },
      headings: [{ level: 1, text: "Hello" }],
      text: "Hello",
      words: 1,
      links: { internal: 0, external: 0, nofollow: 0 },
    });
    const info = await post("ip_info", { target: "127.0.0.3" }, key);
    expect(info.json<{ result: { ips: unknown[] } }>().result.ips).toEqual([
      { ip: "127.0.0.3", version: 4, type: "loopback", global: false, arpa: "3.0.0.127.in-addr.arpa", ptr: ["www.utilnet.example"], fcrdns: false, asn: null, org: null, country: null, network: null },
    ]);
    expect((await post("tls_http_versions", { host: "www.utilnet.example", port: 9 }, key)).json()).toMatchObject({ code: "bad_param", param: "input.port" });
  }, 60_000);

  it("counts runs against the key's hourly limit of network utilities, shown in /capabilities", async () => {
    const caps = (await gw.call("GET", "/api/v1/capabilities")).json<{ limits: Record<string, number> }>();
    expect(caps.limits.net_utilities_per_hour).toBe(6);
    const user = await gw.newAccount("net-limit@example.com");
    for (let i = 0; i < 6; i++) expect((await post("http_headers", { url: `${site.origin}/old` }, user.key)).statusCode).toBe(200);
    const over = await post("http_headers", { url: `${site.origin}/old` }, user.key);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: "limit", details: { policy: "net_utilities_per_hour", limit: 6 } });
    // A refused input costs nothing: it is validated before the charge.
    expect((await post("http_headers", { url: "ftp://x.example/" }, user.key)).json()).toMatchObject({ code: "bad_param" });
  }, 60_000);

  it("keeps neither inputs nor results: not in the logs, not in any table", async () => {
    expect(logLines.join("")).toContain('"utility":"http_headers"');
    const logs = logLines.join("");
    const tables = await gw.db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'");
    let dump = "";
    for (const { table_name } of tables) dump += JSON.stringify(await gw.db.query(`SELECT * FROM "${table_name}"`));
    const jobs = await gw.db.query<{ kind: string; host: string; target: string | null; task: Uint8Array | null; result: unknown }>("SELECT kind, host, target, task, result FROM jobs WHERE kind = 'utility'");
    expect(jobs.length).toBeGreaterThan(10);
    expect(jobs.every((j) => j.host === "utilities.invalid" && j.target === null && j.task === null && j.result === null)).toBe(true);
    for (const s of [MARK_PATH, MARK_HEADER, "Fixture home", "HttpOnly", "RU-CENTER-RU", "utilnet.example", "v=spf1"]) {
      expect(logs.includes(s), `log holds ${s}`).toBe(false);
      expect(dump.includes(s), `database holds ${s}`).toBe(false);
    }
  });
});
