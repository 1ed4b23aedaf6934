/**
 * A 20-page fixture site for bench:analyze: a home page and 19 internal pages of realistic HTML
 * (about 30-60 KB each: head with meta, Open Graph, canonical, JSON-LD and inline CSS; navigation;
 * sections of prose; images; footer), robots.txt, sitemap.xml and a favicon. Every internal link
 * points at one of the 20 pages, so a sample of 20 can reach all 19 internal ones.
 *
 * The server (node:http on 127.0.0.1, keep-alive 60 s, gzip when asked for, bodies compressed once
 * at start) runs in a child process, so that the benchmark's process CPU is the service's only. It
 * counts what it serves: every request (path, status, bytes on the wire, start and end as epoch
 * milliseconds), new connections, and connections that did not speak HTTP (TLS handshakes against
 * the plain-HTTP port). The parent takes these figures over IPC, round by round.
 *
 *   const site = await startTwentyPageSite();   // forks this file with --import tsx
 *   const stats = await site.take();            // what was served since the last take
 */
import { fork, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

// ---------------------------------------------------------------------------------------------
// The pages

interface PageSpec {
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly kind: "home" | "page" | "article" | "doc";
  /** Uncompressed HTML size to aim at, in bytes. */
  readonly targetBytes: number;
}

const SECTIONS: ReadonlyArray<readonly [string, string, string]> = [
  ["/", "Harbor Analytics: privacy-first web analytics for growing teams", "home"],
  ["/about", "About Harbor Analytics: the team and the story", "page"],
  ["/pricing", "Pricing: plans for every team size | Harbor Analytics", "page"],
  ["/features", "Features: dashboards, funnels and alerts | Harbor Analytics", "page"],
  ["/contact", "Contact sales and support | Harbor Analytics", "page"],
  ["/careers", "Careers: join a small remote team | Harbor Analytics", "page"],
  ["/customers", "Customer stories from retail, media and SaaS | Harbor Analytics", "page"],
  ["/security", "Security and compliance at Harbor Analytics", "page"],
  ["/blog", "The Harbor Analytics blog: measurement without surveillance", "page"],
  ["/blog/cookieless-tracking", "Cookieless tracking explained, step by step", "article"],
  ["/blog/core-web-vitals", "What Core Web Vitals mean for your funnel", "article"],
  ["/blog/utm-hygiene", "UTM hygiene: ten rules for clean campaign data", "article"],
  ["/blog/server-side-events", "Server-side events without a tag manager", "article"],
  ["/blog/attribution-models", "Attribution models compared on real traffic", "article"],
  ["/docs", "Documentation: install, configure, query | Harbor Analytics", "doc"],
  ["/docs/install", "Install the Harbor script in five minutes", "doc"],
  ["/docs/api", "The Harbor REST API reference: events, sites, exports", "doc"],
  ["/docs/exports", "Exports to BigQuery, Snowflake and S3", "doc"],
  ["/docs/faq", "Frequently asked questions about Harbor Analytics", "doc"],
  ["/legal/privacy", "Privacy policy of Harbor Analytics", "page"],
];

export const PAGE_PATHS: readonly string[] = SECTIONS.map(([path]) => path);

const WORDS = (
  "analytics visitor session funnel conversion dashboard retention cohort segment campaign referrer " +
  "privacy consent cookie server event pipeline export warehouse query report metric traffic source " +
  "bounce engagement page load latency browser device mobile desktop region country language team " +
  "account invoice plan seat trial onboarding integration webhook script snippet install configure " +
  "measure compare improve growth marketing product engineering design customer support security " +
  "compliance audit encryption storage retention policy data owner request response header cache " +
  "the a of to and in for with on by from that this it is are was be as at an or which can your our " +
  "we you they their more most every each new first last simple clear fast small large real daily"
).split(" ");

/** A small deterministic PRNG (mulberry32), so the site is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number, min = 8, max = 22): string {
  const n = min + Math.floor(rand() * (max - min));
  const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)] ?? "data");
  const first = words[0] ?? "data";
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(" ")}.`;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const INLINE_CSS = Array.from(
  { length: 60 },
  (_, i) =>
    `.c${i}{margin:${i % 7}px ${i % 5}px;padding:${i % 4}px ${i % 9}px;color:#${(0x203040 + i * 0x010203).toString(16).slice(-6)};font:${12 + (i % 6)}px/1.${4 + (i % 4)} system-ui,sans-serif}` +
    `.c${i}:hover{color:#${(0x405060 + i * 0x030201).toString(16).slice(-6)}}`,
).join("\n");

function specs(): PageSpec[] {
  return SECTIONS.map(([path, title, kind], i) => ({
    path,
    title,
    description: `${title.split(":")[0] ?? title}. ${sentence(prng(1000 + i), 10, 18)}`.slice(0, 155),
    kind: kind as PageSpec["kind"],
    // 30-60 KB, spread deterministically over the pages.
    targetBytes: 30_000 + ((i * 7919) % 29) * 1000,
  }));
}

function renderPage(spec: PageSpec, index: number, origin: string): string {
  const rand = prng(index + 1);
  const url = `${origin}${spec.path}`;
  const nav = PAGE_PATHS.filter((p) => !p.startsWith("/blog/") && !p.startsWith("/docs/") && p !== "/legal/privacy");
  const navHtml = nav.map((p, k) => `<li class="c${k}"><a href="${p}">${esc(SECTIONS.find(([q]) => q === p)?.[1].split(/[:|]/)[0]?.trim() ?? p)}</a></li>`).join("");
  // Related links: a few other pages, so that every page is reachable within two hops.
  const related = [1, 3, 7, 11].map((k) => PAGE_PATHS[(index + k) % PAGE_PATHS.length] ?? "/");
  const jsonLd =
    spec.kind === "article"
      ? { "@context": "https://schema.org", "@type": "Article", headline: spec.title, description: spec.description, author: { "@type": "Person", name: "Ada Marsh" }, datePublished: "2026-09-14", image: `${origin}/img/${index}.jpg`, mainEntityOfPage: url }
      : spec.kind === "home"
        ? { "@context": "https://schema.org", "@type": "Organization", name: "Harbor Analytics", url: origin, logo: `${origin}/img/logo.png`, sameAs: ["https://github.com/harbor", "https://x.com/harbor"] }
        : { "@context": "https://schema.org", "@type": "WebPage", name: spec.title, description: spec.description, url, breadcrumb: { "@type": "BreadcrumbList", itemListElement: [{ "@type": "ListItem", position: 1, name: "Home", item: `${origin}/` }, { "@type": "ListItem", position: 2, name: spec.title, item: url }] } };

  const head = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(spec.title)}</title>
<meta name="description" content="${esc(spec.description)}">
<link rel="canonical" href="${url}">
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="alternate" hreflang="en" href="${url}">
<link rel="alternate" hreflang="x-default" href="${url}">
<meta property="og:title" content="${esc(spec.title)}">
<meta property="og:description" content="${esc(spec.description)}">
<meta property="og:type" content="${spec.kind === "article" ? "article" : "website"}">
<meta property="og:url" content="${url}">
<meta property="og:image" content="${origin}/img/og-${index}.png">
<meta name="twitter:card" content="summary_large_image">
<meta name="generator" content="Hugo 0.128.0">
<link rel="preload" href="/fonts/inter.woff2" as="font" type="font/woff2" crossorigin>
<link rel="stylesheet" href="/css/site.css">
<style>
${INLINE_CSS}
</style>
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>
<script src="/js/app.js" defer></script>
</head>
<body class="c1">
<header class="c2"><a href="/" class="c3"><img src="/img/logo.svg" alt="Harbor Analytics" width="140" height="32"></a>
<nav aria-label="Main"><ul class="c4">${navHtml}</ul></nav></header>
<main class="c5">
<h1>${esc(spec.title.split("|")[0]?.trim() ?? spec.title)}</h1>
<p class="lead c6">${esc(spec.description)}</p>
`;
  const footer = `</main>
<aside class="c7"><h2>Related</h2><ul>${related.map((p) => `<li><a href="${p}">${esc(SECTIONS.find(([q]) => q === p)?.[1] ?? p)}</a></li>`).join("")}</ul></aside>
<footer class="c8"><ul>${PAGE_PATHS.filter((p) => p.startsWith("/docs") || p.startsWith("/legal") || p === "/blog").map((p) => `<li><a href="${p}">${esc(SECTIONS.find(([q]) => q === p)?.[1].split(/[:|]/)[0]?.trim() ?? p)}</a></li>`).join("")}
<li><a href="https://github.com/harbor" rel="noopener">GitHub</a></li></ul>
<p class="c9">© 2026 Harbor Analytics Ltd. All rights reserved.</p></footer>
<script>window.harbor=window.harbor||function(){(window.harbor.q=window.harbor.q||[]).push(arguments)};harbor("pageview",{path:location.pathname});</script>
</body>
</html>
`;
  let body = "";
  let section = 0;
  while (head.length + body.length + footer.length < spec.targetBytes) {
    section += 1;
    body += `<section class="c${10 + (section % 40)}" id="s${section}">\n<h2>${esc(sentence(rand, 3, 7).slice(0, -1))}</h2>\n`;
    const paragraphs = 2 + Math.floor(rand() * 3);
    for (let p = 0; p < paragraphs; p++) {
      const sentences = Array.from({ length: 3 + Math.floor(rand() * 4) }, () => sentence(rand));
      const link = PAGE_PATHS[Math.floor(rand() * PAGE_PATHS.length)] ?? "/";
      sentences.splice(1, 0, `See <a href="${link}">${esc(sentence(rand, 2, 5).slice(0, -1).toLowerCase())}</a> for more.`);
      body += `<p>${sentences.join(" ")}</p>\n`;
    }
    if (section % 3 === 0) body += `<figure><img src="/img/${index}-${section}.jpg" alt="${esc(sentence(rand, 3, 8).slice(0, -1))}" width="800" height="450" loading="lazy"><figcaption>${esc(sentence(rand, 4, 10))}</figcaption></figure>\n`;
    if (section % 4 === 0) body += `<ul>${Array.from({ length: 5 }, () => `<li>${esc(sentence(rand, 4, 9))}</li>`).join("")}</ul>\n`;
    body += "</section>\n";
  }
  return head + body + footer;
}

export interface SiteBody {
  readonly type: string;
  readonly body: Buffer;
  readonly gzip: Buffer | null;
}

/** Every path the site serves with 200; the rest is 404. */
export function buildSite(origin: string): Map<string, SiteBody> {
  const site = new Map<string, SiteBody>();
  const add = (path: string, type: string, text: string | Buffer, compress: boolean) => {
    const body = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    site.set(path, { type, body, gzip: compress ? gzipSync(body) : null });
  };
  specs().forEach((spec, i) => add(spec.path, "text/html; charset=utf-8", renderPage(spec, i, origin), true));
  add("/robots.txt", "text/plain; charset=utf-8", `User-agent: *\nAllow: /\nDisallow: /admin/\nDisallow: /search\n\nSitemap: ${origin}/sitemap.xml\n`, false);
  add(
    "/sitemap.xml",
    "application/xml",
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
      PAGE_PATHS.map((p, i) => `<url><loc>${origin}${p}</loc><lastmod>2026-10-${String(1 + (i % 28)).padStart(2, "0")}</lastmod></url>`).join("\n") +
      "\n</urlset>\n",
    true,
  );
  // A 16×16 ICO header and a blank image: enough for the favicon fetch.
  add("/favicon.ico", "image/x-icon", Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0x68, 4, 0, 0, 22, 0, 0, 0]), Buffer.alloc(1128)]), false);
  return site;
}

// ---------------------------------------------------------------------------------------------
// The server (child process)

export interface ServedRequest {
  readonly path: string;
  readonly status: number;
  /** Bytes of the body on the wire (compressed when gzip was sent). */
  readonly bytes: number;
  readonly gzip: boolean;
  /** Epoch milliseconds (performance.timeOrigin + performance.now()): comparable across processes. */
  readonly startMs: number;
  readonly endMs: number;
  /** Which connection served it (numbered in order of arrival). */
  readonly connection: number;
}

export interface SiteStats {
  readonly requests: ServedRequest[];
  /** TCP connections accepted since the last take. */
  readonly connections: number;
  /** Connections that did not speak HTTP/1 (TLS ClientHellos at the plain-HTTP port) since the last take. */
  readonly nonHttp: number;
  /** CPU of the site process since the last take, in microseconds. */
  readonly cpuUser: number;
  readonly cpuSystem: number;
}

type ToChild = { type: "take"; id: number } | { type: "stop" };
type FromChild = { type: "listening"; port: number; pages: { path: string; bytes: number; gzipBytes: number }[] } | { type: "stats"; id: number; stats: SiteStats };

const nowMs = () => performance.timeOrigin + performance.now();

async function serveChild(): Promise<void> {
  let site = new Map<string, SiteBody>();
  let requests: ServedRequest[] = [];
  let connections = 0;
  let nonHttp = 0;
  let connectionSeq = 0;
  let cpu = process.cpuUsage();
  const ids = new WeakMap<object, number>();
  const notFound = Buffer.from("<!DOCTYPE html><html lang=\"en\"><head><title>Not found</title></head><body><h1>Not found</h1></body></html>");

  const server: Server = createServer((req, res) => {
    const startMs = nowMs();
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const entry = site.get(path);
    const gzip = entry?.gzip !== null && entry?.gzip !== undefined && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    const body = entry ? (gzip && entry.gzip ? entry.gzip : entry.body) : notFound;
    const status = entry ? 200 : 404;
    const headers: Record<string, string | number> = {
      "content-type": entry?.type ?? "text/html; charset=utf-8",
      "content-length": body.length,
      "cache-control": entry ? "public, max-age=300" : "no-store",
      "x-content-type-options": "nosniff",
      "last-modified": "Thu, 01 Oct 2026 08:00:00 GMT",
    };
    if (gzip) headers["content-encoding"] = "gzip";
    if (entry?.gzip) headers.vary = "Accept-Encoding";
    const connection = ids.get(req.socket) ?? 0;
    res.on("finish", () => requests.push({ path, status, bytes: body.length, gzip, startMs, endMs: nowMs(), connection }));
    res.writeHead(status, headers).end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.on("connection", (socket) => {
    connections += 1;
    ids.set(socket, ++connectionSeq);
  });
  server.on("clientError", (_err, socket) => {
    nonHttp += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  site = buildSite(`http://127.0.0.1:${port}`);
  const send = (m: FromChild) => process.send?.(m);
  process.on("message", (m: ToChild) => {
    if (m.type === "take") {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      send({ type: "stats", id: m.id, stats: { requests, connections, nonHttp, cpuUser: used.user, cpuSystem: used.system } });
      requests = [];
      connections = 0;
      nonHttp = 0;
    } else {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  process.on("disconnect", () => process.exit(0));
  send({ type: "listening", port, pages: PAGE_PATHS.map((p) => ({ path: p, bytes: site.get(p)?.body.length ?? 0, gzipBytes: site.get(p)?.gzip?.length ?? 0 })) });
}

// ---------------------------------------------------------------------------------------------
// The parent's handle

export interface TwentyPageSite {
  /** 127.0.0.1:port */
  readonly host: string;
  readonly url: string;
  readonly pid: number;
  /** The 20 HTML pages: path, uncompressed and gzip size. */
  readonly pages: readonly { path: string; bytes: number; gzipBytes: number }[];
  /** What the site served since the previous take (or since it started), and resets the counters. */
  take(): Promise<SiteStats>;
  close(): Promise<void>;
}

/** Forks this file as the site server (node --import tsx) and waits until it listens. */
export async function startTwentyPageSite(): Promise<TwentyPageSite> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map<number, (s: SiteStats) => void>();
  let seq = 0;
  const ready = new Promise<Extract<FromChild, { type: "listening" }>>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the site process exited with ${code} before listening`)));
    child.on("message", (m: FromChild) => {
      if (m.type === "listening") resolve(m);
      else pending.get(m.id)?.(m.stats);
    });
  });
  const { port, pages } = await ready;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    pages,
    take: () =>
      new Promise<SiteStats>((resolve) => {
        const id = ++seq;
        pending.set(id, (s) => {
          pending.delete(id);
          resolve(s);
        });
        child.send({ type: "take", id } satisfies ToChild);
      }),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: "stop" } satisfies ToChild);
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.send !== undefined) {
  await serveChild();
}
