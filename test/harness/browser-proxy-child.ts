// A process of its own for test/integration/browser-proxy-thread.test.ts: measures a page through
// the browser's proxies on their thread, once under an egress that refuses private addresses and
// once under one that allows them, prints what each measurement reported as one JSON line, closes
// what it opened and ends by itself (no process.exit: a thread left running would keep it alive).
import { createServer, type Server } from "node:http";
import { createBrowserPool, createEgress, threadPageProxies } from "../../crawler/index.ts";
import { chromiumPath } from "./chromium.ts";
import { labPages, png } from "./lab-pages.ts";

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      const a = server.address();
      resolve(`http://${host}:${typeof a === "object" && a ? a.port : 0}`);
    });
  });
}

const siteHits: string[] = [];
const otherHits: string[] = [];
const other = createServer((req, res) => {
  otherHits.push(req.url ?? "");
  res.writeHead(200, { "content-type": "image/png" }).end(png(1, 1));
});
const otherOrigin = await listen(other, "127.0.0.2");
const pages = labPages(otherOrigin);
const site = createServer((req, res) => {
  siteHits.push(req.url ?? "");
  const body = pages[req.url ?? ""];
  if (body === undefined) return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
});
const origin = await listen(site, "127.0.0.1");

/** One measurement of /leak through a pool whose proxies run on a thread with these egress rules. */
async function measure(allowPrivateTargets: boolean, egressAllow: string[]) {
  siteHits.length = 0;
  otherHits.length = 0;
  const egressOptions = { allowPrivateTargets, dnsServers: [], extraCa: null, connectTimeoutMs: 5000 };
  // The pool's own egress is not used for the pages (the thread builds its own from the options).
  const egress = createEgress(egressOptions);
  const pool = createBrowserPool(
    { executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "provided", thirdParty: "auto", externalAllowed: () => false },
    { egress, proxies: threadPageProxies({ egress: egressOptions, egressAllow }) },
  );
  try {
    const m = await pool.measurePage(`${origin}/leak`, { interact: false });
    // Chromium asks for the favicon when it gets to it, not at a fixed point of the measurement.
    return { error: m.error, blocked: m.blockedRequests, painted: (m.fcpMs ?? 0) > 0, siteHits: siteHits.filter((url) => url !== "/favicon.ico"), otherHits: [...otherHits].sort() };
  } finally {
    await pool.close();
    await egress.close();
  }
}

const refusing = await measure(false, []);
const allowing = await measure(true, ["127.0.0.2"]);
process.stdout.write(`${JSON.stringify({ refusing, allowing })}\n`);
site.close();
other.close();
