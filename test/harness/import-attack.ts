import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { join } from "node:path";
import type { TestGateway } from "./gateway.ts";
import { writeLargeXlsx } from "./xlsx-stream.ts";

// The Q2 attack of the hostile trial (hostile-trial.md), shared by test/hostile and
// bench:imports --attack: account A uploads a 46 MB CSV (880,000 GSC query rows, a 61.7 MB JSON
// body) and an XLSX whose one sheet is 200 MB of XML (1,100,000 rows), both over real loopback
// sockets, while account B asks GET /me one request after another. Figures: B's latencies before
// and during, the process's RSS.

export interface AttackFiles {
  readonly csvPath: string;
  readonly xlsxPath: string;
  readonly sheetBytes: number;
}

/** Writes the two files into dir. */
export async function writeAttackFiles(dir: string): Promise<AttackFiles> {
  const csvPath = join(dir, "Queries.csv");
  const out = createWriteStream(csvPath);
  out.write("Top queries,Clicks,Impressions,CTR,Position\n");
  for (let start = 0; start < 880_000; start += 10_000) {
    let chunk = "";
    for (let i = start; i < start + 10_000; i++) chunk += `a hostile search query number ${i},${i % 50},${1000 + (i % 900)},${(i % 50) / 10}%,${1 + (i % 30)}.5\n`;
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  const xlsxPath = join(dir, "Performance.xlsx");
  const { sheetBytes } = await writeLargeXlsx(xlsxPath, "Queries", function* () {
    yield ["Top queries", "Clicks", "Impressions", "CTR", "Position"];
    for (let i = 0; i < 1_100_000; i++) yield [`hostile sheet query ${i}`, i % 50, 1000 + (i % 900), 0.012, 3.5];
  });
  return { csvPath, xlsxPath, sheetBytes };
}

export interface AttackFigures {
  readonly seconds: number;
  readonly body_mb: readonly number[];
  readonly me_before_ms: { readonly p50: number; readonly p99: number };
  readonly me_during_ms: { readonly n: number; readonly p50: number; readonly p99: number; readonly max: number };
  readonly rss_mb: { readonly before: number; readonly peak: number; readonly growth: number };
}

export interface AttackOutcome {
  readonly figures: AttackFigures;
  /** B's answers' statuses, all of them. */
  readonly meStatuses: readonly number[];
  /** The two uploads' answers: status and JSON body. */
  readonly answers: readonly { readonly status: number; readonly body: unknown }[];
}

const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const round1 = (x: number) => Math.round(x * 10) / 10;

/** One request over a socket of the agent: status and body text. */
function send(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, agent, headers: { ...headers, ...(body ? { "content-length": String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Runs the attack against gw (listening on a loopback port for the run) and answers the figures
 * once both uploads are answered and `settle` (the background imports) is done. B is a new
 * account; A is the owner, who must monitor `host`.
 */
export async function runImportAttack(gw: TestGateway, host: string, files: AttackFiles, settle: () => Promise<void>): Promise<AttackOutcome> {
  const b = await gw.newAccount(`b-attack-${Date.now()}@example.com`);
  // The client's bodies are built before anything is measured: they are not the server's work.
  const bodies = [
    Buffer.from(JSON.stringify({ file: (await readFile(files.csvPath)).toString("base64"), file_name: "Queries.csv" })),
    Buffer.from(JSON.stringify({ file: (await readFile(files.xlsxPath)).toString("base64"), file_name: "Performance.xlsx" })),
  ];
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  const port = (gw.app.server.address() as { port: number }).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const meStatuses: number[] = [];
  const me = async () => {
    const t0 = performance.now();
    meStatuses.push((await send(agent, port, "GET", "/api/v1/me", { "x-api-key": b.key })).status);
    return performance.now() - t0;
  };
  try {
    for (let i = 0; i < 20; i++) await me();
    const before: number[] = [];
    for (let i = 0; i < 50; i++) before.push(await me());

    global.gc?.();
    const rss0 = process.memoryUsage.rss();
    let rssPeak = rss0;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 25);
    const during: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        during.push(await me());
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const started = performance.now();
    const uploads = await Promise.all(
      bodies.map((body) => send(new Agent(), port, "POST", `/api/v1/imports/${host}`, { "x-api-key": gw.ownerKey, "content-type": "application/json" }, body)),
    );
    await settle();
    const seconds = (performance.now() - started) / 1000;
    running = false;
    await probe;
    clearInterval(sampler);
    const figures: AttackFigures = {
      seconds: round1(seconds),
      body_mb: bodies.map((body) => round1(body.length / 1e6)),
      me_before_ms: { p50: round1(quantile(before, 0.5)), p99: round1(quantile(before, 0.99)) },
      me_during_ms: { n: during.length, p50: round1(quantile(during, 0.5)), p99: round1(quantile(during, 0.99)), max: round1(Math.max(...during)) },
      rss_mb: { before: Math.round(rss0 / 2 ** 20), peak: Math.round(rssPeak / 2 ** 20), growth: Math.round((rssPeak - rss0) / 2 ** 20) },
    };
    return { figures, meStatuses, answers: uploads.map((u) => ({ status: u.status, body: JSON.parse(u.text) as unknown })) };
  } finally {
    agent.destroy();
  }
}
