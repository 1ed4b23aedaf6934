import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../runtime/index.ts";
import { dataDirOwner, DataDirLockedError, lockDataDir, processIdentity } from "../../storage/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// The first hostile trial's P-findings (P1–P11), each still a way in for a client: the re-test in
// hostile-trial.md found them fixed (P6 and P9 partly: Q7, Q11), and these cases hold them so.
// Each asserts the refusal a client sees; P6, about a resource (a socket held), also its bound.

/** The REST port's request timeout here (P6): a slow request is closed within it. */
const TIMEOUT_MS = 2_000;

let gw: TestGateway;
let port = 0;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  port = (gw.app.server.address() as { port: number }).port;
});

/** Sends raw bytes to the REST port; answers what came back until the server closed (or 5 s). */
function raw(text: string): Promise<string> {
  return new Promise((resolve) => {
    let got = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    const done = () => {
      clearTimeout(cap);
      socket.destroy();
      resolve(got);
    };
    const cap = setTimeout(done, 5_000);
    socket.on("data", (c: Buffer) => {
      got += c.toString("utf8");
      if (/\r\n\r\n[\s\S]*\}\s*$/.test(got)) done();
    });
    socket.on("close", done);
    socket.on("error", done);
  });
}
afterAll(() => gw.close());

describe("P-findings of the first hostile trial", () => {
  it("P1: an id above 2^53 − 1 is 400 bad_param saying the maximum; one that fits is 404", async () => {
    const over = await gw.call("GET", "/api/v1/jobs/9007199254740992");
    expect([over.statusCode, over.json().code, over.json().param]).toEqual([400, "bad_param", "id"]);
    expect(over.json().error).toContain("must be <= 9007199254740991");
    expect((await gw.call("GET", "/api/v1/jobs/3000000000")).statusCode).toBe(404);
  });

  it("P2: a body nested 10,000 deep with an Idempotency-Key is 400 too_deep, not 500", async () => {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/v1/sites",
      headers: { "x-api-key": gw.ownerKey, "content-type": "application/json", "idempotency-key": "p2-deep" },
      payload: `{"host":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
    });
    expect([res.statusCode, res.json().code, res.json().details]).toEqual([400, "bad_request", { reason: "too_deep" }]);
  });

  it("P3: an error replayed for its Idempotency-Key is the first answer, marked as a replay", async () => {
    const send = () => gw.app.inject({ method: "POST", url: "/api/v1/webhooks", headers: { "x-api-key": gw.ownerKey, "content-type": "application/json", "idempotency-key": "p3-error" }, payload: { url: "http://127.0.0.1:9/hook", events: ["events"] } });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(400);
    expect(again.headers["idempotent-replay"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(Object.keys(again.json())).not.toContain("key");
  });

  it.each([
    ["a 301-character path segment", "GET", `/api/v1/jobs/${"1".repeat(301)}`, 400, "uri_too_long"],
    ["a path that does not decode", "GET", "/api/v1/site/%ff%fe", 400, "bad_url"],
  ] as const)("P4: %s is the contract's error with its reason", async (_what, method, url, status, reason) => {
    const res = await gw.app.inject({ method: method as "GET", url, headers: { "x-api-key": gw.ownerKey } });
    expect([res.statusCode, res.json().code, res.json().details?.reason]).toEqual([status, "bad_request", reason]);
  });

  it("P4: an unknown method is 400 bad_request (bad_method) in the contract's shape", async () => {
    const answer = await raw(`BREW /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${gw.ownerKey}\r\n\r\n`);
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "bad_request", details: { reason: "bad_method" } });
  });

  it("P5: the OpenAPI document marks as required only the query parameters without a default", async () => {
    type Doc = { paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>> };
    const doc = (await gw.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json<Doc>();
    const required = Object.entries(doc.paths).flatMap(([path, ops]) => Object.values(ops).flatMap((op) => (op.parameters ?? []).filter((p) => p.in === "query" && p.required).map((p) => `${path} ${p.name}`)));
    expect(required.sort()).toEqual(["/analyze d", "/check/{tool} url", "/full url"]);
  });

  it("P6: a slow body on the REST port is closed within the request timeout (another's /me answered meanwhile)", async () => {
    const closedAfter = await new Promise<number>((resolve) => {
      const t0 = Date.now();
      const socket = connect(port, "127.0.0.1", () => socket.write(`POST /api/v1/sites HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${gw.ownerKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`));
      const drip = setInterval(() => socket.writable && socket.write(" "), 300);
      const done = () => {
        clearInterval(drip);
        clearTimeout(cap);
        socket.destroy();
        resolve(Date.now() - t0);
      };
      const cap = setTimeout(done, 20_000);
      socket.on("data", () => undefined);
      socket.on("close", done);
      socket.on("error", done);
    });
    expect(closedAfter).toBeLessThan(TIMEOUT_MS + 3_000);
    expect((await gw.call("GET", "/api/v1/me")).statusCode).toBe(200);
  });

  it.each(["hunter2", `svc_${"a".repeat(40)}`])("P7: a weak bootstrap key (%s) is refused at start", (key) => {
    expect(() => loadConfig({ SVC_BOOTSTRAP_KEY: key }, "serve")).toThrow(ConfigError);
  });

  it("P8: another account's site answers exactly as a site nobody added", async () => {
    const b = await gw.newAccount("b-p8@example.com");
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: "p8-added.example.com" } })).statusCode).toBe(201);
    for (const path of ["/changes", "/issues", "/history", "/uptime"]) {
      const added = await gw.call("GET", `/api/v1${path}/p8-added.example.com`, { key: b.key });
      const nobody = await gw.call("GET", `/api/v1${path}/p8-nobody.example.com`, { key: b.key });
      expect([added.statusCode, added.json().code]).toEqual([nobody.statusCode, nobody.json().code]);
      expect(added.json().error.replace("p8-added", "p8-nobody")).toBe(nobody.json().error);
    }
  });

  it.each(["[::7f00:1]", "[::127.0.0.1]", "[::1:7f00:1]"])("P9 and Q11: %s (::/8 outside the mapped forms) is not a public host", async (host) => {
    const res = await gw.call("POST", "/api/v1/sites", { body: { host } });
    expect([res.statusCode, res.json().code]).toEqual([400, "bad_host"]);
    expect(res.json().error).toContain("private, loopback or reserved addresses are not allowed");
  });

  it("P10: a refusal the client may retry (429) is not stored for its Idempotency-Key", async () => {
    const created = await gw.call("POST", "/api/v1/keys", { body: { name: "p10", scopes: ["read", "write"], rate_limit_per_hour: 1 } });
    expect(created.statusCode).toBe(201);
    const slow = created.json().key as string;
    const add = (key: string) => gw.app.inject({ method: "POST", url: "/api/v1/sites", headers: { "x-api-key": key, "content-type": "application/json", "idempotency-key": "p10-retry" }, payload: { host: "p10.example.com" } });
    expect((await gw.call("GET", "/api/v1/me", { key: slow })).statusCode).toBe(200);
    const limited = await add(slow);
    expect([limited.statusCode, limited.json().code]).toEqual([429, "limit"]);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await add(gw.ownerKey)).statusCode).toBe(201);
  });
});

describe.runIf(processIdentity(process.pid) !== null)("P11: the data-directory lock", () => {
  let other: ChildProcess;
  let dir: string;
  beforeAll(async () => {
    other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((resolve) => other.once("spawn", resolve));
    dir = mkdtempSync(join(tmpdir(), "svc-p11-"));
  });
  afterAll(() => {
    other.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("is taken over from a live pid that is not its owner (another start time), refused while the owner runs", () => {
    const [boot, start] = (processIdentity(other.pid!) as string).split(" ") as [string, string];
    writeFileSync(join(dir, "svc.lock"), `${other.pid}\n${boot} ${Number(start) - 1}\n`);
    expect(dataDirOwner(dir)).toBeNull();
    lockDataDir(dir).release();
    lockDataDir(dir, other.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
  });
});
