/**
 * A generated site of any size for bench:crawl-scale: pages are made on request from their number
 * (nothing is held per page), deterministic, about 20 KB of HTML each (head with meta and inline
 * CSS, a navigation of 40 links, about 600 words of prose, 5 related links, a footer).
 *
 *   /                  the home page: links to the first 50 pages
 *   /p/{i}             page i (1 ≤ i < pages): links to its children 50·i+1 … 50·i+50 (a tree of
 *                      fan-out 50, so 100,000 pages are 3 clicks deep), to 5 pseudo-random pages
 *                      and to the navigation's 40 pages
 *   /missing/{i}       404: every 100th page links to one (broken links, planted)
 *
 * Near-duplicate clusters are planted: pages i with i % 100 < 4 belong to cluster ⌊i / 100⌋ mod
 * 97 (sizes vary with the site), whose members share one text with one word in a hundred changed:
 * about 97 % alike by word 3-shingles; every other page's text is its own. `manifest(pages)` says
 * what was planted.
 *
 * Run alone (`node --import tsx test/bench/sites/scale-site.ts PAGES`), it serves the site on
 * 127.0.0.1 in its own process and prints {"port": N} once listening.
 */
import { createServer, type Server } from "node:http";
import { pathToFileURL } from "node:url";

const FAN_OUT = 50;
const NAV = 40;
const RELATED = 5;
const WORDS_PER_PAGE = 600;
const CLUSTER_EVERY = 100;
const CLUSTER_MEMBERS = 4;
const CLUSTER_TEXTS = 97;

const WORDS = (
  "able acid aged also area army away baby back ball band bank base bath bear beat been beer bell belt best bill bird blow blue boat body bomb bond bone book boom born boss both bowl bulk burn bush busy call calm came camp card care case cash cast cell chat chip city club coal coat code cold come cook cool cope copy core cost crew crop dark data date dawn days dead deal dean dear debt deep deny desk dial diet disc disk does done door dose down draw drew drop drug dual duke dust duty each earn ease east easy edge else even ever evil exit face fact fail fair fall farm fast fate fear feed feel feet fell felt file fill film find fine fire firm fish five flat flow food foot ford form fort four free from fuel full fund gain game gate gave gear gene gift girl give glad goal goes gold golf gone good gray grew grey grow gulf hair half hall hand hang hard harm hate have head hear heat held hell help here hero high hill hire hold hole holy home hope host hour huge hung hunt hurt idea inch into iron item jack jane jean john join jump jury just keen keep kent kept kick kill kind king knee knew know lack lady laid lake land lane last late lead left less life lift like line link list live load loan lock logo long look lord lose loss lost love luck made mail main make male many mark mass matt meal mean meat meet menu mere mike mile milk mill mind mine miss mode mood moon more most move much must name navy near neck need news next nice nick nine none nose note okay once only open oral over pace pack page paid pain pair palm park part pass past path peak pick pink pipe plan play plot plug plus poll pool poor port post pull pure push race rail rain rank rare rate read real rear rely rent rest rice rich ride ring rise risk road rock role roll roof room root rose rule rush ruth safe said sake sale salt same sand save seat seed seek seem seen self sell send sent sept ship shop shot show shut sick side sign site size skin slip slow snow soft soil sold sole some song soon sort soul spot star stay step stop such suit sure take tale talk tall tank tape task team tech tell tend term test text than that them then they thin this thus till time tiny told toll tone tony took tool tour town tree trip true tune turn twin type unit upon used user vary vast very vice view vote wage wait wake walk wall want ward warm wash wave ways weak wear week well went were west what when whom wide wife wild will wind wine wing wire wise wish with wood word wore work yard yeah year your zero zone"
).split(" ");

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The cluster page i belongs to, or -1. */
export function clusterOf(i: number): number {
  return i > 0 && i % CLUSTER_EVERY < CLUSTER_MEMBERS ? Math.floor(i / CLUSTER_EVERY) % CLUSTER_TEXTS : -1;
}

/** Page i's prose: its own words, or its cluster's with one word in a hundred its own. */
function prose(i: number): string {
  const c = clusterOf(i);
  const seed = c >= 0 ? 1_000_000 + c : i;
  const out: string[] = [];
  for (let w = 0; w < WORDS_PER_PAGE; w++) {
    const own = c >= 0 && mix(i * 7919 + w) % 100 === 0;
    out.push(WORDS[mix((own ? i + 5_000_000 : seed) * 104_729 + w) % WORDS.length] as string);
    if (w % 120 === 119) out.push("</p><p>");
  }
  return out.join(" ");
}

const CSS = `body{font-family:system-ui,sans-serif;margin:0;color:#222}header,footer{background:#f4f4f4;padding:1rem}nav a{margin-right:.5rem}main{max-width:60rem;margin:auto;padding:1rem}.related li{margin:.25rem 0}`.repeat(60);
const FOOTER = `<footer><p>${"Generated site for Svc's scale benchmark. ".repeat(2)}</p></footer>`;

/** The page's HTML, or null for a URL that is not on the site. */
export function pageHtml(pages: number, path: string): string | null {
  let i: number;
  if (path === "/") i = 0;
  else {
    const m = /^\/p\/(\d+)$/.exec(path);
    if (!m) return null;
    i = Number(m[1]);
    if (!(i >= 1 && i < pages)) return null;
  }
  const href = (n: number) => (n === 0 ? "/" : `/p/${n}`);
  const nav: string[] = [];
  for (let k = 1; k <= NAV && k < pages; k++) nav.push(`<a href="${href(k)}">Section ${k}</a>`);
  const children: string[] = [];
  for (let k = FAN_OUT * i + 1; k <= FAN_OUT * i + FAN_OUT && k < pages; k++) children.push(`<li><a href="${href(k)}">Page ${k}</a></li>`);
  const related: string[] = [];
  for (let r = 0; r < RELATED && pages > 1; r++) related.push(`<li><a href="${href(1 + (mix(i * 31 + r) % (pages - 1)))}">Related ${r}</a></li>`);
  if (i % 100 === 50) related.push(`<li><a href="/missing/${i}">Gone</a></li>`);
  const title = i === 0 ? "Scale site home" : `Page ${i} of the scale site`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><meta name="description" content="Page ${i}: generated for the crawl scale benchmark, with its own text."><link rel="canonical" href="${href(i)}"><style>${CSS}</style></head><body><header><nav>${nav.join("")}</nav></header><main><h1>${title}</h1><p>${prose(i)}</p><ul class="children">${children.join("")}</ul><ul class="related">${related.join("")}</ul></main>${FOOTER}</body></html>`;
}

/** What the site plants: pages answering 200, broken link targets, near-duplicate clusters and their sizes. */
export function manifest(pages: number): { pages: number; broken: number; clusters: Map<number, number> } {
  let broken = 0;
  const clusters = new Map<number, number>();
  for (let i = 0; i < pages; i++) {
    if (i % 100 === 50) broken++;
    const c = clusterOf(i);
    if (c >= 0) clusters.set(c, (clusters.get(c) ?? 0) + 1);
  }
  for (const [c, n] of clusters) if (n < 2) clusters.delete(c);
  return { pages, broken, clusters };
}

/** Serves the site of `pages` pages on 127.0.0.1 (robots.txt allows all; no sitemap). */
export async function serveScaleSite(pages: number, port = 0): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    const html = pageHtml(pages, path);
    if (html === null) return void res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end("<!DOCTYPE html><title>Not found</title><h1>Not found</h1>");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : port };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const pages = Number(process.argv[2] ?? 1000);
  const { port } = await serveScaleSite(pages);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}
