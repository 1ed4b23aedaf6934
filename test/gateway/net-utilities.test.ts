import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { utilityById } from "../../utilities/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startUtilitySite, type UtilitySite } from "../harness/sites/utility-site.ts";

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

let gw: TestGateway;
let site: UtilitySite;

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
  gw = await startTestGateway({
    logStream: sink,
    env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_UTILITY_NET_PER_HOUR: "6", SVC_RATE_PER_HOUR: "100000", SVC_SYNC_WAIT_MS: "15000" },
  });
});

afterAll(async () => {
  await gw?.close();
  await site?.close();
});

const post = (id: string, input: unknown, key?: string) => gw.call("POST", `/api/v1/utilities/${id}`, { body: { input }, ...(key ? { key } : {}) });

describe("network utilities through the sync lane", () => {
  it("http_headers: the example's fields on a fixture answer status, every header, the decoded size and a 304", async () => {
    const example = utilityById("http_headers")!.example;
    const res = await post("http_headers", { ...example, url: `${site.origin}${MARK_PATH}` });
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

    const moved = (await post("http_headers", { url: `${site.origin}/old`, method: "HEAD" })).json<{ result: Record<string, unknown> }>();
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
    const jobs = await gw.db.query<{ kind: string; host: string; target: string | null; result: unknown }>("SELECT kind, host, target, result FROM jobs WHERE kind = 'utility'");
    expect(jobs.length).toBeGreaterThan(3);
    expect(jobs.every((j) => j.host === "utilities.invalid" && j.target === null && j.result === null)).toBe(true);
    for (const s of [MARK_PATH, MARK_HEADER, "Fixture home", "HttpOnly"]) {
      expect(logs.includes(s), `log holds ${s}`).toBe(false);
      expect(dump.includes(s), `database holds ${s}`).toBe(false);
    }
  });
});
