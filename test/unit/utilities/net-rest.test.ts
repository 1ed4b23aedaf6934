import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { createSecureServer } from "node:http2";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { networkInterfaces } from "node:os";
import { gzipSync } from "node:zlib";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEgress } from "../../../crawler/index.ts";
import { createUtilityNet } from "../../../crawler/utility-net/utility-net.ts";
import { runValidated, seededPorts, utilityById, validateInput, type Utility } from "../../../utilities/index.ts";
import { createTestCa, type ServerCertificate, type TestCa } from "../../harness/fixture-web/ca.ts";
import { startDnsServer, type FixtureDnsServer } from "../../harness/fixture-web/dns-server.ts";
import { startUtilitySite, type UtilitySite } from "../../harness/sites/utility-site.ts";
import { NOW_MS } from "./run.ts";

// The site and net utilities of the last batch, run as a crawler node runs them (createUtilityNet
// over the egress policy, loopback allowed only by that setting) against loopback fixtures: an HTTP
// site, a DNS server for the zones, an SMTP server and TLS servers. No gateway: the lane is
// covered for every network utility in test/gateway/net-utilities.test.ts.

let site: UtilitySite;
let dns: FixtureDnsServer;
let ca: TestCa;
let smtp: TcpServer;
const smtpLog: string[] = [];
let modern: ReturnType<typeof createSecureServer>;
let legacy: HttpsServer;
let modernCert: ServerCertificate;
let ogPng: Buffer;

/** The site's origin by name (resolved by the fixture DNS server to 127.0.0.1). */
let origin = "";

function listen(server: TcpServer | HttpsServer | ReturnType<typeof createSecureServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
}

function page(body: string, headers: Record<string, string> = {}) {
  return (_req: unknown, res: import("node:http").ServerResponse) => res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
}

let ports: { site: number; modern: number; legacy: number; smtp: number };

async function run(id: string, input: Record<string, unknown>) {
  const u = utilityById(id) as Utility;
  const net = createUtilityNet({
    egress: createEgress({ allowPrivateTargets: true, dnsServers: [dns.address], extraCa: ca.certPem, connectTimeoutMs: 5000 }),
    dnsServers: [dns.address],
    resolvers: {},
    ports: [ports.site, ports.modern, ports.legacy],
    whoisRoot: "127.0.0.1",
    whoisPort: 43,
    smtpPort: ports.smtp,
    echoUrl: `${origin}/echo`,
    userAgent: "svc-test",
    signal: new AbortController().signal,
  });
  return runValidated(u, validateInput(u, input), { ...seededPorts(NOW_MS, new Uint8Array([1])), net });
}

async function refusal(id: string, input: Record<string, unknown>) {
  try {
    await run(id, input);
  } catch (err) {
    const e = err as { code: string; field?: string; message: string };
    return { code: e.code, field: e.field, message: e.message };
  }
  throw new Error(`${id} accepted the input`);
}

beforeAll(async () => {
  site = await startUtilitySite();
  origin = `http://rest.example:${site.port}`;
  dns = await startDnsServer([
    {
      origin: "rest.example",
      names: {
        "@": { A: ["127.0.0.1"], MX: [{ preference: 10, exchange: "mail.rest.example" }] },
        www: { A: ["127.0.0.1"] },
        mail: { A: ["127.0.0.1"] },
        tls: { A: ["127.0.0.1"] },
      },
    },
    { origin: "gmial.com", names: {} },
    { origin: "in-addr.arpa", names: { "1.0.0.127": { PTR: ["www.rest.example"] } } },
    { origin: "zen.spamhaus.org", names: { "10.2.0.192": { A: ["127.0.0.2", "127.0.0.4"], TXT: ["Listed by SBL, see https://check.spamhaus.org/"] } } },
    { origin: "bl.spamcop.net", names: {} },
  ]);
  ca = await createTestCa();
  ogPng = await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#336699" } }).png().toBuffer();

  // An SMTP server that knows one mailbox.
  smtp = createTcpServer((socket) => {
    socket.write("220 mail.rest.example ESMTP\r\n");
    let buf = "";
    socket.on("data", (chunk: Buffer) => {
      buf += chunk.toString("latin1");
      let i;
      while ((i = buf.indexOf("\r\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        smtpLog.push(line);
        if (line.startsWith("EHLO")) socket.write("250-mail.rest.example\r\n250 SIZE 1000000\r\n");
        else if (line.startsWith("MAIL FROM")) socket.write("250 2.1.0 Ok\r\n");
        else if (line === "RCPT TO:<good@rest.example>") socket.write("250 2.1.5 Ok\r\n");
        else if (line.startsWith("RCPT TO")) socket.write("550 5.1.1 User unknown\r\n");
        else if (line === "QUIT") socket.end("221 Bye\r\n");
        else socket.write("502 Command not implemented\r\n");
      }
    });
  });
  modernCert = ca.issue("valid", ["tls.rest.example"]);
  modern = createSecureServer({ key: modernCert.key, cert: modernCert.cert, allowHTTP1: true, minVersion: "TLSv1.2" }, (_req, res) => {
    res.writeHead(200, { "alt-svc": 'h3=":443"; ma=86400' });
    res.end();
  });
  const legacyCert = ca.issue("valid", ["tls.rest.example"]);
  legacy = createHttpsServer({ key: legacyCert.key, cert: legacyCert.cert, minVersion: "TLSv1", maxVersion: "TLSv1.2", ciphers: "DEFAULT@SECLEVEL=0" }, (_req, res) => res.writeHead(200).end());
  ports = { site: site.port, smtp: await listen(smtp), modern: await listen(modern), legacy: await listen(legacy) };

  const r = site.routes;
  r.set("/echo", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ip":"203.0.113.7"}'));
  r.set("/", (req, res) => {
    if ((req.headers.host ?? "").startsWith("www.")) res.writeHead(301, { location: `${origin}/` }).end();
    else page(`<!DOCTYPE html><html lang="en"><head><title>Home</title><link rel="canonical" href="${origin}/"></head><body><h1>Home</h1></body></html>`)(req, res);
  });
  r.set("/index.html", page("<!DOCTYPE html><title>Home</title><h1>Home</h1>"));
  r.set(
    "/view",
    page(
      `<!DOCTYPE html><html lang="ru"><head><title>Spider view</title><meta name="description" content="What a bot reads">` +
        `<meta name="robots" content="noarchive"><link rel="canonical" href="${origin}/view"></head>` +
        `<body><h1>Main heading</h1><p>One two three four five.</p><h2>Sub heading</h2><noindex><p>Hidden from Yandex</p></noindex>` +
        `<a href="/ok">Ok page</a> <a href="/gone">Gone</a> <a href="/moved" rel="nofollow">Moved</a> <a href="http://nowhere.rest.example:${site.port}/x">Away</a></body></html>`,
      { "x-robots-tag": "noimageindex" },
    ),
  );
  r.set("/ok", page("<title>Ok</title>"));
  r.set("/moved", (_req, res) => res.writeHead(301, { location: "/ok" }).end());
  r.set(
    "/og",
    page(
      `<!DOCTYPE html><head><title>Fallback title</title><meta property="og:title" content="Card title"><meta property="og:type" content="website">` +
        `<meta property="og:image" content="/og.png"><meta name="twitter:card" content="summary_large_image"><meta name="description" content="Card description"></head>`,
    ),
  );
  r.set("/og.png", (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(ogPng));
  r.set(
    "/wp",
    page('<!DOCTYPE html><head><meta name="generator" content="WordPress 6.4.2"><script src="/wp-includes/js/jquery/jquery-3.7.1.min.js"></script></head><body>Blog</body>', {
      server: "nginx/1.25.3",
      "set-cookie": "PHPSESSID=abc; path=/",
    }),
  );
  r.set("/en", page(`<!DOCTYPE html><head><title>en</title><link rel="alternate" hreflang="en" href="${origin}/en"><link rel="alternate" hreflang="ru" href="${origin}/ru"><link rel="alternate" hreflang="de-UK" href="${origin}/de"><link rel="alternate" hreflang="x-default" href="${origin}/en"></head>`));
  r.set("/ru", page(`<!DOCTYPE html><head><title>ru</title><link rel="alternate" hreflang="ru" href="${origin}/ru"></head>`));
  r.set("/de", (_req, res) => res.writeHead(302, { location: "/en" }).end());
  r.set("/sitemap.xml", (_req, res) =>
    res
      .writeHead(200, { "content-type": "application/xml" })
      .end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sm1.xml</loc></sitemap><sitemap><loc>${origin}/sm2.xml.gz</loc></sitemap></sitemapindex>`),
  );
  r.set("/sm1.xml", (_req, res) =>
    res
      .writeHead(200, { "content-type": "application/xml" })
      .end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<url><loc>${origin}/ok</loc><lastmod>2026-11-01</lastmod></url><url><loc>${origin}/moved</loc><lastmod>01.11.2026</lastmod></url>` +
          `<url><loc>${origin}/ok</loc><lastmod>2027-05-01</lastmod></url></urlset>`,
      ),
  );
  r.set("/sm2.xml.gz", (_req, res) =>
    res
      .writeHead(200, { "content-type": "application/gzip" })
      .end(gzipSync(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/noindex</loc></url><url><loc>https://other.example/a</loc></url></urlset>`)),
  );
  r.set("/noindex", page('<!DOCTYPE html><head><title>Hidden</title><meta name="robots" content="noindex"></head>'));
  const css = "body{color:red}".repeat(200);
  r.set(
    "/speed",
    page(
      `<!DOCTYPE html><html><head><title>Speed</title><link rel="stylesheet" href="/app.css"><link rel="stylesheet" href="/print.css" media="print">` +
        `<script src="/app.js"></script><script src="/late.js" defer></script></head><body>${"<p>text</p>".repeat(300)}<img src="/og.png" alt="x"></body></html>`,
      { "cache-control": "no-cache" },
    ),
  );
  r.set("/app.css", (_req, res) => res.writeHead(200, { "content-type": "text/css", "cache-control": "max-age=31536000" }).end(css));
  r.set("/print.css", (_req, res) => res.writeHead(200, { "content-type": "text/css", "content-encoding": "gzip", "cache-control": "max-age=60" }).end(gzipSync(css)));
  r.set("/app.js", (_req, res) => res.writeHead(200, { "content-type": "text/javascript" }).end("console.log(1)"));
  r.set("/late.js", (_req, res) => res.writeHead(200, { "content-type": "text/javascript", "cache-control": "max-age=604800" }).end("void 0"));
});

afterAll(async () => {
  await site?.close();
  await dns?.close();
  await ca?.close();
  for (const s of [smtp, modern, legacy]) if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
});

describe("site utilities on a loopback site", () => {
  it("bot_view: meta, robots, outline, text, ratio and link counts as a bot reads the page", async () => {
    const out = await run("bot_view", { url: `${origin}/view`, ua: "yandexbot" });
    expect(out.result).toMatchObject({
      final_url: `${origin}/view`,
      status: 200,
      redirects: [],
      meta: { title: "Spider view", description: "What a bot reads", robots: "noarchive", x_robots_tag: "noimageindex", canonical: `${origin}/view`, lang: "ru", viewport: null },
      noindex: false,
      headings: [
        { level: 1, text: "Main heading" },
        { level: 2, text: "Sub heading" },
      ],
      links: { internal: 3, external: 1, nofollow: 1 },
      noindex_zones: 1,
    });
    expect(out.result.text).toBe("Main heading One two three four five. Sub heading Hidden from Yandex Ok page Gone Moved Away");
    expect(out.result.words).toBe(17);
    expect(site.requests).toContain("GET /view Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)");
    expect(await refusal("bot_view", { url: `${origin}/missing` })).toMatchObject({ code: "tool_failed", message: `${origin}/missing answered 404 Not Found, not a page` });
  });

  it("page_links: every link with its type and rel, and the status where each one lands", async () => {
    const out = await run("page_links", { url: `${origin}/view`, check_status: true });
    expect(out.result.counts).toEqual({ total: 4, internal: 3, external: 1, nofollow: 1, unique: 4, broken: 2 });
    const rows = (out.result.links as Record<string, unknown>[]).map((l) => [l.href, l.anchor, l.rel, l.type, l.status, l.final_url, l.final_status]);
    expect(rows).toEqual([
      [`${origin}/ok`, "Ok page", "", "internal", 200, null, null],
      [`${origin}/gone`, "Gone", "", "internal", 404, null, null],
      [`${origin}/moved`, "Moved", "nofollow", "internal", 301, `${origin}/ok`, 200],
      [`http://nowhere.rest.example:${site.port}/x`, "Away", "", "external", null, null, null],
    ]);
    expect((out.result.links as { error: string | null }[])[3]?.error).toBe("nowhere.rest.example does not exist (NXDOMAIN)");
    expect(await refusal("page_links", { url: `${origin}/view`, scope: "some" })).toMatchObject({ code: "bad_param", field: "input.scope" });
  });

  it("structured_data: pasted HTML's JSON-LD with missing rich-result properties, a broken block and microdata", async () => {
    const html =
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Chair","image":"/c.jpg"}</script>' +
      '<script type="application/ld+json">{"@type": "FAQPage",</script>' +
      '<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Meetup</span></div>';
    const out = await run("structured_data", { html });
    expect(out.result).toMatchObject({ url: null, json_ld_blocks: 2, json_ld_invalid: 1, errors: 2 });
    const items = out.result.items as { type: string; source: string; props: string[]; errors: string[]; warnings: string[] }[];
    expect(items.map((i) => [i.type, i.source, i.props, i.errors])).toEqual([
      ["Product", "json-ld", ["name", "image"], ["missing required offers or review or aggregateRating"]],
      ["(invalid JSON-LD)", "json-ld", [], [expect.stringMatching(/^block 2: /) as unknown as string]],
      ["Event", "microdata", [], []],
    ]);
    expect(items[0]?.warnings).toEqual(["missing recommended description", "missing recommended brand", "missing recommended sku"]);
    expect(await refusal("structured_data", {})).toMatchObject({ code: "bad_param" });
  });

  it("og_preview: the tags with fallbacks, the measured image and each platform's card", async () => {
    const out = await run("og_preview", { url: `${origin}/og` });
    expect(out.result).toMatchObject({
      title: "Card title",
      description: "Card description",
      image: { url: `${origin}/og.png`, status: 200, type: "image/png", width: 1200, height: 630, bytes: ogPng.length, error: null },
      missing: ["og:url"],
    });
    const platforms = out.result.platforms as { name: string; image_ok: boolean; problems: string[] }[];
    expect(platforms.map((p) => [p.name, p.image_ok, p.problems])).toEqual([
      ["Facebook", true, []],
      ["VK", true, []],
      ["Telegram", true, []],
      ["X", true, []],
      ["LinkedIn", true, []],
      ["WhatsApp", true, []],
    ]);
    expect(out.blocks.images).toHaveLength(1);
  });

  it("tech_detect: CMS and version from the generator, a library from its script, the server and language from headers and cookies", async () => {
    const out = await run("tech_detect", { url: `${origin}/wp` });
    expect(out.result.tech).toEqual([
      { name: "WordPress", version: "6.4.2", categories: ["CMS"], confidence: "high", evidence: "generator" },
      { name: "jQuery", version: "3.7.1", categories: ["JavaScript library"], confidence: "medium", evidence: "script" },
      { name: "nginx", version: "1.25.3", categories: ["Web server"], confidence: "high", evidence: "header" },
      { name: "PHP", version: null, categories: ["Programming language"], confidence: "high", evidence: "cookie" },
    ]);
  });

  it("hreflang_check: codes, self-reference, x-default, redirects and return links", async () => {
    const out = await run("hreflang_check", { url: `${origin}/en` });
    expect(out.result.problems).toEqual([]);
    expect(out.result.ok).toBe(false);
    expect((out.result.entries as Record<string, unknown>[]).map((e) => [e.hreflang, e.status, e.returns, e.problems])).toEqual([
      ["en", 200, true, []],
      ["ru", 200, false, ["does not link back (no return tag)"]],
      ["de-UK", 302, true, ['"de-UK": the region of the United Kingdom is GB', `redirects (302) to ${origin}/en: hreflang must name the final URL`]],
      ["x-default", 200, true, []],
    ]);
    const ru = await run("hreflang_check", { url: `${origin}/ru`, check_return: false });
    expect(ru.result.problems).toEqual(["no x-default alternate"]);
  });

  it("mirror_check: where http/https × www variants and index duplicates land, and the main mirror", async () => {
    const out = await run("mirror_check", { host: `rest.example:${site.port}`, extra_paths: ["ok"] });
    expect(out.result.main).toBe(`${origin}/`);
    expect(out.result.consolidated).toBe(false);
    const rows = (out.result.variants as Record<string, unknown>[]).map((v) => [v.url, v.status, v.redirect, v.verdict]);
    const o = `rest.example:${site.port}`;
    expect(rows).toEqual([
      [`https://${o}/`, null, null, "unreachable"],
      [`https://www.${o}/`, null, null, "unreachable"],
      [`http://${o}/`, 200, null, "main"],
      [`http://www.${o}/`, 200, 301, "redirect"],
      [`http://${o}/index.html`, 200, null, "duplicate"],
      [`http://${o}/index.php`, 404, null, "error"],
      [`http://${o}//`, 404, null, "error"],
      [`http://${o}/INDEX.HTML`, 404, null, "error"],
      [`http://${o}/ok`, 200, null, "duplicate"],
    ]);
    expect(await refusal("mirror_check", { host: "https://rest.example/" })).toMatchObject({ code: "bad_param", field: "input.host" });
  });

  it("sitemap_check: an index, its plain and gzipped children, protocol problems and a sample of URLs", async () => {
    const out = await run("sitemap_check", { url: `${origin}/sitemap.xml`, sample: 3 });
    expect(out.result.kind).toBe("sitemapindex");
    expect(out.result.urls).toBe(5);
    expect((out.result.files as Record<string, unknown>[]).map((f) => [f.url, f.kind, f.urls, f.gzip, f.problems])).toEqual([
      [`${origin}/sitemap.xml`, "sitemapindex", 2, false, []],
      [`${origin}/sm1.xml`, "urlset", 3, false, ['lastmod_format: 1 (first: "01.11.2026")', 'lastmod_future: 1 (first: "2027-05-01")', "duplicate_url: 1"]],
      [`${origin}/sm2.xml.gz`, "urlset", 2, true, ["other_host: 1 (first: https://other.example/a)"]],
    ]);
    expect((out.result.sample as Record<string, unknown>[]).map((s) => [s.url, s.status, s.final_url, s.noindex])).toEqual([
      [`${origin}/ok`, 200, null, false],
      [`${origin}/moved`, 301, `${origin}/ok`, false],
      [`${origin}/noindex`, 200, null, true],
    ]);
    expect(await refusal("sitemap_check", { url: `${origin}/nope.xml` })).toMatchObject({ code: "tool_failed", message: `${origin}/nope.xml answered 404, not a sitemap` });
  });

  it("page_speed: HTML sizes raw and compressed, each resource's size and cache, and what blocks rendering", async () => {
    const out = await run("page_speed", { url: `${origin}/speed` });
    const html = out.result.html as Record<string, unknown>;
    expect(html).toMatchObject({ encoding: null, cache_control: "no-cache" });
    expect(html.bytes).toBe(html.encoded_bytes);
    expect(html.gzip_bytes as number).toBeLessThan(html.bytes as number);
    const assets = (out.result.assets as Record<string, unknown>[]).map((a) => [a.url, a.type, a.status, a.bytes, a.encoding, a.max_age_s, a.blocking]);
    const cssBytes = "body{color:red}".length * 200;
    expect(assets).toEqual([
      [`${origin}/app.css`, "style", 200, cssBytes, null, 31536000, true],
      [`${origin}/print.css`, "style", 200, cssBytes, "gzip", 60, false],
      [`${origin}/app.js`, "script", 200, 14, null, null, true],
      [`${origin}/late.js`, "script", 200, 6, null, 604800, false],
      [`${origin}/og.png`, "image", 200, ogPng.length, null, null, false],
    ]);
    expect(out.result.totals).toMatchObject({ requests: 6, render_blocking: 2, uncompressed_text: 2, short_cache: 3 });
  });
});

describe("net utilities on loopback servers", () => {
  it("my_ip: the echo service's answer and the node's interface addresses", async () => {
    const out = await run("my_ip", {});
    const expected = Object.entries(networkInterfaces()).flatMap(([name, list]) => (list ?? []).filter((a) => !a.internal).map((a) => [name, a.address]));
    expect(out.result).toMatchObject({ ip: "203.0.113.7", version: 4, type: "documentation", source: "echo" });
    expect((out.result.interfaces as { name: string; address: string }[]).map((i) => [i.name, i.address])).toEqual(expected);
  });

  it("ip_info: an address's type, PTR and forward confirmation, a public one's AS, organisation and country; a host's addresses", async () => {
    expect((await run("ip_info", { target: "127.0.0.1" })).result.ips).toEqual([
      { ip: "127.0.0.1", version: 4, type: "loopback", global: false, arpa: "1.0.0.127.in-addr.arpa", ptr: ["www.rest.example"], fcrdns: true, asn: null, org: null, country: null, network: null },
    ]);
    // A public address's holder comes from the shipped tables (the PTR query goes to the fixture resolver, which has none).
    const google = await run("ip_info", { target: "8.8.8.8" });
    expect(google.result.ips).toMatchObject([{ ip: "8.8.8.8", type: "public", global: true, asn: 15169, org: "Google LLC", country: "US", network: "8.8.8.0/24" }]);
    expect(google.result.attribution).toContain("DB-IP.com");
    const host = await run("ip_info", { target: "tls.rest.example" });
    expect(host.result).toMatchObject({ host: "tls.rest.example", ips: [{ ip: "127.0.0.1", type: "loopback" }] });
    expect((await run("ip_info", { target: "2001:db8::1" })).result.ips).toMatchObject([{ version: 6, type: "documentation", ptr: [], fcrdns: null }]);
    expect(await refusal("ip_info", { target: "http://x.example/" })).toMatchObject({ code: "bad_param", field: "input.target" });
  });

  it("dnsbl_check: the reversed address in each zone, its return codes explained, and the list's reason", async () => {
    const out = await run("dnsbl_check", { target: "192.0.2.10", lists: ["spamhaus_zen", "spamcop"] });
    expect(out.result.listings).toEqual([
      {
        list: "spamhaus_zen",
        zone: "zen.spamhaus.org",
        target: "192.0.2.10",
        listed: true,
        code: "127.0.0.2, 127.0.0.4",
        meaning: "SBL: a known spam source; XBL: an infected or exploited host",
        reason: "Listed by SBL, see https://check.spamhaus.org/",
        error: null,
      },
      { list: "spamcop", zone: "bl.spamcop.net", target: "192.0.2.10", listed: false, code: null, meaning: null, reason: null, error: null },
    ]);
    expect(dns.queries.some((q) => q.name === "10.2.0.192.zen.spamhaus.org" && q.type === "A")).toBe(true);
    expect(await refusal("dnsbl_check", { target: "192.0.2.10", lists: ["spamhaus_dbl"] })).toMatchObject({ code: "tool_failed" });
  });

  it("email_verify: syntax, mail servers, role and typo hints, and the SMTP server's answer to RCPT TO", async () => {
    const out = await run("email_verify", { emails: ["good@rest.example", "nobody@rest.example", "info@rest.example", "user@gmial.com", "bad@@rest.example"], smtp_probe: true });
    const rows = (out.result.rows as Record<string, unknown>[]).map((r) => [r.email, r.verdict, r.mx, r.role, r.suggestion, (r.smtp as { code: number } | null)?.code ?? null]);
    expect(rows).toEqual([
      ["good@rest.example", "valid", ["mail.rest.example"], false, null, 250],
      ["nobody@rest.example", "rejected", ["mail.rest.example"], false, null, 550],
      ["info@rest.example", "rejected", ["mail.rest.example"], true, null, 550],
      ["user@gmial.com", "no_mail_server", [], false, "user@gmail.com", null],
      ["bad@@rest.example", "invalid", [], false, null, null],
    ]);
    expect(smtpLog.filter((l) => l.startsWith("RCPT") || l.startsWith("MAIL"))).toContain("MAIL FROM:<>");
    expect(smtpLog).not.toContain("DATA");
    const quiet = await run("email_verify", { emails: "good@rest.example" });
    expect((quiet.result.rows as { smtp: unknown; verdict: string }[])[0]).toMatchObject({ smtp: null, verdict: "valid" });
  });

  it("tls_http_versions: TLS versions offered one at a time, ALPN h2 and HTTP/1.1, Alt-Svc h3 and the certificate's days left", async () => {
    const out = await run("tls_http_versions", { host: "tls.rest.example", port: ports.modern });
    const daysLeft = Math.floor((modernCert.notAfter.getTime() - NOW_MS) / 86_400_000);
    expect(out.result).toMatchObject({
      tls: { v1_0: false, v1_1: false, v1_2: true, v1_3: true },
      protocol: "TLSv1.3",
      alpn: "h2",
      http: { h1: true, h2: true, h3: "advertised", h3_checked_by: "alt_svc" },
      alt_svc: 'h3=":443"; ma=86400',
      cert_authorized: true,
      cert_days_left: daysLeft,
    });
    // h3 is what Alt-Svc says, and the result says only that: no QUIC request is made.
    expect(out.blocks?.pairs).toContainEqual({ label: "HTTP/3 (Alt-Svc only, not verified)", value: 'advertised: h3=":443"; ma=86400 (no QUIC request was made)', status: "good" });
    expect(Value.Check(utilityById("tls_http_versions")?.resultSchema as TSchema, out.result)).toBe(true);
    const old = await run("tls_http_versions", { host: "tls.rest.example", port: ports.legacy });
    expect(Value.Check(utilityById("tls_http_versions")?.resultSchema as TSchema, old.result)).toBe(true);
    expect(old.result).toMatchObject({ tls: { v1_0: true, v1_1: true, v1_2: true, v1_3: false }, protocol: "TLSv1.2", alpn: "http/1.1", http: { h1: true, h2: false, h3: "not_advertised", h3_checked_by: "alt_svc" } });
    expect(old.warnings).toEqual([{ code: "weak_tls", text: "TLS 1.0 and TLS 1.1 are accepted: browsers dropped them in 2020" }]);
    expect(await refusal("tls_http_versions", { host: "tls.rest.example", port: 2 })).toMatchObject({ code: "bad_param", field: "input.port" });
  });
});
