import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { freePort } from "../harness/free-port.ts";
import { runSvc } from "../harness/svc-process.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// The `svc` client commands as a user runs them: the real executable (node bin/svc.js) in its
// own process against a listening gateway, one case per exit code.

let gw: TestGateway;
let url: string;
let dir: string;
let site: SmallSite;
beforeAll(async () => {
  // A site on loopback for `analyze start --wait`: private targets allowed, the one-page sample fast.
  site = await startSmallSite();
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "1", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  url = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`;
  dir = await mkdtemp(join(tmpdir(), "svc-cli-"));
});
afterAll(async () => {
  await gw.close();
  await site.close();
  await rm(dir, { recursive: true, force: true });
});

const svc = (args: string[], env: Record<string, string> = {}) => runSvc(args, { SVC_API_URL: url, SVC_API_KEY: gw.ownerKey, SVC_CONFIG: join(dir, "none.json"), ...env });

describe("the svc client commands", () => {
  it("adds and lists sites: a table by default, the API's JSON with --json (exit 0)", async () => {
    const added = await svc(["sites", "add", "cli.example.com", "--interval", "12"]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toBe("host: cli.example.com\nadded: true\ninterval_h: 12\n");
    await svc(["sites", "add", "b-cli.example.com"]);
    const table = await svc(["sites", "list"]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^page: limit=50 offset=0 total=2 next_offset=-$/);
    expect(lines[2]).toMatch(/^HOST\s+ADDED\s+INTERVAL_H\s+RANK\s+PREV_RANK\s+LABEL\s+LAST_RUN\s+IMPORTANCE\s+PROJECT$/);
    expect(lines.slice(3).map((l) => l.split(/\s+/)[0])).toEqual(["b-cli.example.com", "cli.example.com"]);
    const json = await svc(["sites", "list", "--json", "--limit=1"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ sites: [{ host: "b-cli.example.com", interval_h: 24 }], page: { limit: 1, total: 2, next_offset: 1 } });
  }, 60_000);

  it("reads where and who from a config file when the environment says nothing", async () => {
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ api_url: url, api_key: gw.ownerKey }));
    const r = await runSvc(["me", "--json"], { SVC_CONFIG: config });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { user: { email: string } }).user.email).toBe("owner@example.com");
  }, 60_000);

  it("follows a job with --wait: a progress bar on stderr until it ends, the finished job on stdout (exit 0)", async () => {
    const r = await svc(["analyze", "start", site.host, "--wait", "--json"]);
    expect(r.stderr).not.toMatch(/^svc: /m);
    expect(r.code).toBe(0);
    const job = JSON.parse(r.stdout).job;
    expect(job).toMatchObject({ kind: "analyze", host: site.host, state: "done", progress: 100, poll_after_s: null });
    // The bar is redrawn in place (\r) from the queued job's 0 % to the finished job's 100 %.
    const frames = r.stderr.split("\r").map((f) => f.trim()).filter(Boolean);
    expect(frames[0]).toMatch(/^\[\.{30}\]\s+0% (queued|running)$/);
    expect(frames.at(-1)).toBe(`[${"#".repeat(30)}] 100% done`);
    expect((await gw.call("GET", `/api/v1/report/${site.host}`)).statusCode).toBe(200);
  }, 60_000);

  it("exits 1 on a request error and on a command-line mistake", async () => {
    const missing = await svc(["jobs", "get", "999999"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^svc: not_found: /);
    const badHost = await svc(["sites", "add", "not a host"]);
    expect(badHost.code).toBe(1);
    expect(badHost.stderr).toMatch(/^svc: bad_host: /);
    const flag = await svc(["sites", "list", "--colour", "red"]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("has no --colour");
    const integer = await svc(["sites", "list", "--limit", "many"]);
    expect(integer.code).toBe(1);
  }, 60_000);

  it("exits 2 on a key or scope problem", async () => {
    const reader = await gw.newAccount("cli-reader@example.com", ["read"]);
    const scope = await svc(["sites", "add", "x.example.com"], { SVC_API_KEY: reader.key });
    expect(scope.code).toBe(2);
    expect(scope.stderr).toMatch(/^svc: scope: /);
    const noKey = await svc(["sites", "list"], { SVC_API_KEY: "" });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^svc: missing: /);
  }, 60_000);

  it("exits 3 when the service is unavailable, without waiting out a long Retry-After", async () => {
    await gw.admin.setSwitch("maintenance", true);
    await gw.deps.switches.refresh();
    try {
      const r = await svc(["sites", "list"]);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^svc: maintenance: /);
    } finally {
      await gw.admin.setSwitch("maintenance", false);
      await gw.deps.switches.refresh();
    }
  }, 60_000);

  it("exits 4 when the service cannot be reached", async () => {
    const r = await svc(["sites", "list"], { SVC_API_URL: `http://127.0.0.1:${await freePort()}` });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^svc: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  }, 60_000);

  it("exits 4 at once when the address answers but is not Svc's API (another server's 404)", async () => {
    const other = createServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
    await new Promise<void>((up) => other.listen(0, "127.0.0.1", up));
    try {
      const started = Date.now();
      const r = await svc(["me"], { SVC_API_URL: `http://127.0.0.1:${(other.address() as { port: number }).port}` });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/^svc: the answer at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/me is not Svc's API \(HTTP 404 without X-API-Version\)/);
      // No retries (they waited 1 + 2 + 4 + 8 s before).
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await new Promise((down) => other.close(down));
    }
  }, 60_000);

  it("lists every registered operation as a command, and explains one with --help", async () => {
    const help = await runSvc(["help"], {});
    expect(help.code).toBe(0);
    for (const cmd of ["sites list", "sites add", "jobs get", "analyze start", "keys create"]) expect(help.stdout).toContain(`  ${cmd} `);
    const one = await runSvc(["sites", "add", "--help"], {});
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("svc sites add <host> [flags]");
    expect(one.stdout).toContain("--interval <integer>");
    expect(one.stdout).toContain("MCP tool add_site");
  }, 60_000);
});
