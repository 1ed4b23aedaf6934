/**
 * The uptime benchmark's fleet: one HTTPS server on 127.0.0.1 answering for N distinct host names
 * (s0.fleet.test … s<N-1>.fleet.test, one wildcard certificate of a test CA made with openssl),
 * and an authoritative DNS server for fleet.test. Every 20th site is slow (answers after
 * BENCH_SLOW_MS), every 50th (offset 1) answers 503. Runs in its own process so that its CPU is
 * not counted against the prober; prints one JSON line {port, dns, ca} and serves until killed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDnsServer, type RecordSet } from "../../harness/fixture-web/dns-server.ts";

const SITES = Number(process.env.BENCH_SITES ?? 1000);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 1500);

function certificates(): { ca: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "svc-fleet-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  try {
    run("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Svc Fleet CA");
    writeFileSync(join(dir, "leaf.ext"), "subjectAltName=DNS:*.fleet.test\n");
    run("req", ...ec, "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=*.fleet.test");
    run("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "leaf.pem", "-days", "2", "-extfile", "leaf.ext");
    return { ca: readFileSync(join(dir, "ca.pem"), "utf8"), key: readFileSync(join(dir, "leaf.key"), "utf8"), cert: readFileSync(join(dir, "leaf.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const body = `<!DOCTYPE html><html lang=en><title>Up</title><body>${"<p>All systems normal.</p>".repeat(60)}</body></html>`;
const { ca, key, cert } = certificates();
const server = createServer({ key, cert, keepAlive: false }, (req, res) => {
  const i = Number(/^s(\d+)\./.exec(req.headers.host ?? "")?.[1] ?? -1);
  if (i % 50 === 1) {
    res.writeHead(503, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Unavailable</title>");
    return;
  }
  const answer = () => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  if (i % 20 === 0) setTimeout(answer, SLOW_MS);
  else answer();
});
server.maxConnections = 100_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const names: Record<string, RecordSet> = {};
for (let i = 0; i < SITES; i++) names[`s${i}`] = { A: ["127.0.0.1"] };
const dns = await startDnsServer([{ origin: "fleet.test", names }]);
process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port, dns: dns.address, ca })}\n`);
