import { request } from "node:http";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Q4 of the hostile trial: account A sends 15 catastrophic regular expressions at once and gives up
// on each after 2.5 s; account B then asks for a trivial utility. One utility thread, as `auto`
// gives on 2 cores. Before, B waited 26-68 s behind A's abandoned runs, each of which ran to its
// limit and cost a thread's start-up besides. Now A may have 1 run running and 4 waiting (the other
// 10 answer 429 limit at once), B is served next in turn, a spare thread takes B's run the moment
// A's run is cut, and A's runs whose client has gone are dropped unrun.

const REDOS = { pattern: "(a|aa)+$", flags: "", text: `${"a".repeat(40_000)}!` };
const REGEX_LIMIT_MS = 1_000;
/** What B may wait beyond one regex run's limit: the request itself and a loaded machine's scheduling. */
const MARGIN_MS = 1_000;

interface Answer {
  readonly status: number | null;
  readonly body: { code?: string; result?: unknown };
  readonly retryAfter: string | undefined;
  readonly ms: number;
}

let gw: TestGateway;
let port = 0;
const logs: { utility?: string; key_id?: number; outcome?: string }[] = [];

/** POST over a connection of its own; a client that stops waiting after `giveUpMs` closes it. */
function post(path: string, key: string, body: unknown, giveUpMs = 30_000): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, method: "POST", agent: false, headers: { "x-api-key": key, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer["body"], retryAfter: res.headers["retry-after"], ms: performance.now() - t0 }));
    });
    req.setTimeout(giveUpMs, () => {
      req.destroy();
      resolve({ status: null, body: {}, retryAfter: undefined, ms: performance.now() - t0 });
    });
    req.on("error", () => undefined);
    req.end(JSON.stringify(body));
  });
}

beforeAll(async () => {
  const stream = new PassThrough();
  let buffered = "";
  stream.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.includes('"utility run"')) logs.push(JSON.parse(line) as (typeof logs)[number]);
  });
  gw = await startTestGateway({ logStream: stream, env: { SVC_UTILITY_THREADS: "1", SVC_RATE_PER_HOUR: "100000" } });
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  port = (gw.app.server.address() as { port: number }).port;
});
afterAll(() => gw.close());

describe("Q4: one account's abandoned ReDoS runs do not hold another account's utilities", () => {
  it("B's trivial utility answers within one regex limit, and A's abandoned runs do not all execute", async () => {
    const b = await gw.newAccount("victim@example.com", ["read"]);
    const a = await gw.newAccount("attacker@example.com", ["read"]);
    // A warm gateway, as in the trial: the thread and its spare are loaded.
    expect((await post("/api/v1/utilities/case_convert", a.key, { input: { text: "warm", mode: "upper" } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_000));

    const attacks = Array.from({ length: 15 }, () => post("/api/v1/utilities/regex_test", a.key, { input: REDOS }, 2_500));
    await new Promise((r) => setTimeout(r, 200));
    const victim = await post("/api/v1/utilities/case_convert", b.key, { input: { text: "victim", mode: "upper" } });
    const answers = await Promise.all(attacks);

    expect(victim.status).toBe(200);
    expect(victim.body.result).toMatchObject({ text: "VICTIM" });
    expect(victim.ms).toBeLessThan(REGEX_LIMIT_MS + MARGIN_MS);
    process.stdout.write(`Q4: B answered in ${Math.round(victim.ms)} ms; A's answers (status ms): ${answers.map((x) => `${x.status} ${Math.round(x.ms)}`).join(", ")}\n`);

    // 1 running and 4 waiting are A's cap: the other 10 are refused at once, retryable after a run's limit.
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(10);
    for (const r of refused) {
      expect(r.body.code).toBe("limit");
      expect(r.retryAfter).toBe("10");
      // Answered without waiting for a thread (a run of A's holds the only one for a second).
      expect(r.ms).toBeLessThan(REGEX_LIMIT_MS + MARGIN_MS);
    }
    // A run cut at its limit answers tool_failed at the limit, not seconds later.
    const cut = answers.filter((a) => a.status === 422);
    expect(cut.length).toBeGreaterThanOrEqual(1);
    for (const c of cut) expect(c.body.code).toBe("tool_failed");
    expect(Math.min(...cut.map((c) => c.ms))).toBeLessThan(REGEX_LIMIT_MS + MARGIN_MS);

    // What the server did with A's 15: 10 refused, and of the 5 admitted, at most 3 could start
    // before A's clients left at 2.5 s (one per second); the others were dropped unrun.
    await expect.poll(() => logs.filter((l) => l.utility === "regex_test").length, { timeout: 10_000 }).toBe(15);
    const outcomes = logs.filter((l) => l.utility === "regex_test" && l.key_id === a.keyId).map((l) => l.outcome);
    const count = (o: string) => outcomes.filter((x) => x === o).length;
    expect(count("limit")).toBe(10);
    const started = count("tool_failed") + count("abandoned");
    expect(started).toBeGreaterThanOrEqual(1);
    expect(started).toBeLessThanOrEqual(3);
    expect(count("dropped")).toBe(5 - started);
  });
});
