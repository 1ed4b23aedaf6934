import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Agent, createServer as createHttpServer, request as httpRequest, type ClientRequest } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { chromiumPath } from "../harness/chromium.ts";
import { http, killAllSvc, REPO_ROOT, runSvc, spawnSvc, svcAdmin, svcEnvFor, tempDataDir, waitFor, waitReady, type Answer, type SvcProcess } from "../harness/svc-process.ts";

// The real `svc` executable, run as separate processes on the embedded store (PGlite) in a
// temporary data directory: first start and the owner's key, the data-directory lock, configuration
// errors, `svc admin` over the admin socket and on a stopped service, a crash (SIGKILL) and a
// graceful stop (SIGTERM). Every process is killed after each test; every wait is bounded.

const KEY_RE = /svc_[0-9A-Za-z]{40}/g;
const READY_MS = 30_000;
const EXIT_MS = 15_000;

const dirs: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  await killAllSvc();
  for (const d of dirs.splice(0)) await d.remove();
});

async function dataDir(): Promise<string> {
  const d = await tempDataDir();
  dirs.push(d);
  return d.dir;
}

interface Running {
  readonly proc: SvcProcess;
  readonly port: number;
  readonly adminPort: number;
  readonly env: Record<string, string>;
  /** The first 200 of /readyz. */
  readonly ready: Answer;
  api(path: string, init?: { method?: string; key?: string; body?: unknown }): Promise<Answer>;
}

/** `svc serve` on dir with fresh ports, waited for until /readyz answers 200. */
async function serve(dir: string, extra: Record<string, string> = {}, readyMs = READY_MS): Promise<Running> {
  const { env, port, adminPort } = await svcEnvFor(dir, extra);
  const proc = spawnSvc(["serve"], env);
  const ready = await waitReady(proc, adminPort, readyMs);
  return { proc, port, adminPort, env, ready, api: (path, init) => http(`http://127.0.0.1:${port}/api/v1${path}`, init) };
}

/** SIGTERM, then the exit (bounded) and how long it took. */
async function stop(r: Running): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = Date.now();
  r.proc.child.kill("SIGTERM");
  const exit = await r.proc.waitExit(EXIT_MS);
  return { ...exit, ms: Date.now() - t0 };
}

function code(a: Answer): unknown {
  return (a.json as { code?: unknown } | undefined)?.code;
}

describe("svc serve as a process (embedded store)", () => {
  it.each(["SVC_ADMIN_PORT", "SVC_PORT"])("exits 2 at once when %s is in use, naming the port and the variable", async (variable) => {
    const dir = await dataDir();
    const { env, port, adminPort } = await svcEnvFor(dir);
    const taken = variable === "SVC_PORT" ? port : adminPort;
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(taken, "127.0.0.1", resolve));
    try {
      const r = await runSvc(["serve"], env, READY_MS);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`svc: cannot listen on 127.0.0.1:${taken} (${variable}): address already in use`);
      // Nothing was left serving on the other port.
      const other = variable === "SVC_PORT" ? adminPort : port;
      await expect(http(`http://127.0.0.1:${other}/healthz`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it("first start prints a new owner key once; a restart prints none and the account persists", async () => {
    const dir = await dataDir();
    const first = await serve(dir);

    const printed = first.proc.stdout().match(KEY_RE) ?? [];
    expect(printed).toHaveLength(1);
    const key = printed[0] as string;
    expect(key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    expect(first.proc.stdout()).toContain("owner@localhost");
    expect(first.proc.stderr()).not.toContain(key); // the console only, never the (stderr) log

    const me = await first.api("/me", { key });
    expect(me.status).toBe(200);
    const body = me.json as { user: { id: number; email: string }; key: { scopes: string[]; prefix: string } };
    expect(body.user.email).toBe("owner@localhost");
    expect(body.key.scopes).toEqual(["read", "run", "write"]);
    expect(body.key.prefix).toBe(key.slice(0, 12));
    expect(code(await first.api("/me"))).toBe("missing");
    const wrong = await first.api("/me", { key: `svc_${"x".repeat(40)}` });
    expect([wrong.status, code(wrong)]).toEqual([401, "invalid"]);

    expect(await stop(first)).toMatchObject({ code: 0, signal: null });
    expect(first.proc.stdout().match(KEY_RE)).toHaveLength(1);

    const second = await serve(dir);
    expect(second.proc.stdout()).not.toMatch(KEY_RE);
    expect(second.proc.stdout()).not.toContain("API key");
    const again = await second.api("/me", { key });
    expect(again.status).toBe(200);
    expect((again.json as typeof body).user).toEqual(body.user);
    expect(await stop(second)).toMatchObject({ code: 0, signal: null });
    expect(second.proc.stdout()).not.toMatch(KEY_RE);
  });

  it("SVC_BOOTSTRAP_KEY on first start: nothing is printed and that value is the owner's key", async () => {
    const dir = await dataDir();
    const key = "svc_S69zDHz4gZ30O2nhpKFaeF9hyjn99Yi6wxpg8YaD";
    const r = await serve(dir, { SVC_BOOTSTRAP_KEY: key });
    expect(r.proc.stdout()).toBe("");
    expect(r.proc.stderr()).toBe("");
    const me = await r.api("/me", { key });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ user: { email: "owner@localhost" }, key: { scopes: ["read", "run", "write"], prefix: key.slice(0, 12) } });
    // Over the admin socket: the switches, the accounts and the work (none yet).
    expect(await svcAdmin(["status"], r.env)).toEqual({ maintenance: false, closed: false, accounts: 1, work: { nodes: [], running: [], queued: 0, recent_failovers: [] } });
  });

  it("the data directory is locked: a second svc serve on it exits 2, the first keeps serving", async () => {
    const dir = await dataDir();
    const key = "svc_mctrZ6YcinfMU6gmRh6aNV8Ger9AyxOJ4QymIZCE";
    const first = await serve(dir, { SVC_BOOTSTRAP_KEY: key });
    expect(readFileSync(join(dir, "svc.lock"), "utf8").split("\n")[0]).toBe(String(first.proc.pid));

    // A misspelt name does not stop a start (a setting an upgrade removed must not stop a rolling
    // deploy): it is a warning, logged before the store is opened.
    const { env } = await svcEnvFor(dir, { SVC_BOOTSTRAP_KEY: key, SVC_PROT: "8080" });
    const second = await runSvc(["serve"], env);
    expect(second.stdout).toMatch(/"variables":\["SVC_PROT"\].*unknown SVC_\* variables are ignored/);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain("is in use by process");
    expect(second.stderr).toContain(`the data directory ${dir} is in use by process ${first.proc.pid}`);
    // Nothing else is logged: the warning is its only line.
    expect(second.stdout.trim().split("\n")).toHaveLength(1);

    expect(first.proc.exit()).toBeNull();
    expect(readFileSync(join(dir, "svc.lock"), "utf8").split("\n")[0]).toBe(String(first.proc.pid));
    expect(existsSync(join(dir, "admin.sock"))).toBe(true);
    expect((await http(`http://127.0.0.1:${first.adminPort}/readyz`)).status).toBe(200);
    expect((await first.api("/me", { key })).status).toBe(200);
    expect(await svcAdmin(["status"], first.env)).toMatchObject({ accounts: 1 });
  });

  it("an invalid value stops the start with exit code 2 and names the variable", async () => {
    const parent = await dataDir();
    const dir = join(parent, "never-created");
    const bad = await svcEnvFor(dir, { SVC_PORT: "http" });
    const a = await runSvc(["serve"], bad.env);

    expect(a.code).toBe(2);
    expect(a.stderr).toContain("SVC_PORT");
    expect(a.stderr).toContain('SVC_PORT: must be an integer, got "http"');
    expect(a.stderr).toMatch(/^svc: invalid configuration:/);
    expect(a.stdout).toBe("");
    expect(existsSync(dir)).toBe(false); // refused before the store was touched
  });

  it("svc admin talks to the running service over <data dir>/admin.sock: maintenance, account create, block", async () => {
    const dir = await dataDir();
    const owner = "svc_Ch4vTKPsS0N3HUGeuG3xyc83g0XtVxb2fubiunLR";
    const r = await serve(dir, { SVC_BOOTSTRAP_KEY: owner, SVC_STATE_REFRESH_MS: "200" });
    expect(existsSync(join(dir, "admin.sock"))).toBe(true);
    // The service holds the lock: had `svc admin` opened the store itself, it would exit 2 (locked).
    const admin = (...args: string[]) => svcAdmin(args, r.env);

    expect(await admin("maintenance", "on")).toEqual({ maintenance: true });
    const down = await waitFor("503 maintenance", 5_000, async () => {
      const a = await r.api("/me", { key: owner });
      return a.status === 503 ? a : undefined;
    });
    expect(down.json).toMatchObject({ code: "maintenance", retryable: true, retry_after: 60 });
    expect(down.headers.get("retry-after")).toBe("60");
    expect(await admin("status")).toMatchObject({ maintenance: true, closed: false, accounts: 1 });

    expect(await admin("maintenance", "off")).toEqual({ maintenance: false });
    await waitFor("200 after maintenance off", 5_000, async () => ((await r.api("/me", { key: owner })).status === 200 ? true : undefined));

    const created = await admin("account", "create", "someone@example.com");
    expect(created).toMatchObject({ account: expect.any(Number), key_id: expect.any(Number), note: "the key is shown only now" });
    const key = created.key as string;
    expect(key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    const me = await r.api("/me", { key });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ user: { id: created.account, email: "someone@example.com" }, key: { scopes: ["read", "run", "write"] } });

    expect(await admin("account", "block", "someone@example.com")).toEqual({ account: "someone@example.com", blocked: true });
    const blocked = await waitFor("403 blocked", 3_000, async () => {
      const a = await r.api("/me", { key });
      return a.status === 403 ? a : undefined;
    });
    expect(code(blocked)).toBe("blocked");
    expect((await r.api("/me", { key: owner })).status).toBe(200);

    expect(await admin("account", "unblock", "someone@example.com")).toEqual({ account: "someone@example.com", blocked: false });
    await waitFor("200 after unblock", 3_000, async () => ((await r.api("/me", { key })).status === 200 ? true : undefined));

    const missing = await runSvc(["admin", "account", "block", "nobody@example.com"], r.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no account nobody@example.com");
  });

  it("svc admin help exits 0; unknown flags and bad e-mails exit 2; a duplicate account exits 1 with a sentence", async () => {
    const dir = await dataDir();
    const { env } = await svcEnvFor(dir);
    const help = await runSvc(["admin", "help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: svc admin <command>");
    const flag = await runSvc(["admin", "key", "create", "1", "--scope", "read"], env);
    expect([flag.code, flag.stderr]).toEqual([2, expect.stringContaining("Unknown option '--scope'")]);
    const bad = await runSvc(["admin", "account", "create", "not an email"], env);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('"not an email" is not an e-mail address')]);
    await svcAdmin(["account", "create", "dup@example.com"], env);
    const dup = await runSvc(["admin", "account", "create", "dup@example.com"], env);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toBe("svc: an account dup@example.com already exists\n");
  });

  it("svc admin with no process holding the data directory opens the store itself", async () => {
    const dir = await dataDir();
    const owner = "svc_S7joVMa5R55iGuSY6g80YLfGFZNUzduebwQsDY6b";
    const first = await serve(dir, { SVC_BOOTSTRAP_KEY: owner });
    expect(await stop(first)).toMatchObject({ code: 0, signal: null });
    expect(existsSync(join(dir, "svc.lock"))).toBe(false);
    expect(existsSync(join(dir, "admin.sock"))).toBe(false);

    const { env } = await svcEnvFor(dir);
    const created = await svcAdmin(["account", "create", "other@example.com"], env);
    const key = created.key as string;
    expect(key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    expect(existsSync(join(dir, "svc.lock"))).toBe(false); // taken and released again

    const second = await serve(dir);
    expect(second.proc.stdout()).not.toMatch(KEY_RE); // accounts exist: no new owner
    const me = await second.api("/me", { key });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ user: { id: created.account, email: "other@example.com" }, key: { scopes: ["read", "run", "write"] } });
    expect((await second.api("/me", { key: owner })).status).toBe(200);
  });

  it("after SIGKILL the next start takes over the stale lock and finds the committed data", async () => {
    const dir = await dataDir();
    const key = "svc_F3uuXItMXLloBHvsQMj8wnFySXQuFnBdYbc3XhMi";
    const first = await serve(dir, { SVC_BOOTSTRAP_KEY: key });
    const added = await first.api("/sites", { method: "POST", key, body: { host: "example.com" } });
    expect(added.status).toBe(201);
    expect(added.json).toEqual({ host: "example.com", added: true, interval_h: 24 });

    first.proc.child.kill("SIGKILL");
    expect(await first.proc.waitExit(EXIT_MS)).toEqual({ code: null, signal: "SIGKILL" });
    expect(readFileSync(join(dir, "svc.lock"), "utf8").split("\n")[0]).toBe(String(first.proc.pid)); // left behind
    expect(existsSync(join(dir, "admin.sock"))).toBe(true); // left behind

    const second = await serve(dir, { SVC_BOOTSTRAP_KEY: key });
    expect(readFileSync(join(dir, "svc.lock"), "utf8").split("\n")[0]).toBe(String(second.proc.pid));
    const list = await second.api("/sites", { key });
    expect(list.status).toBe(200);
    const sites = (list.json as { sites: { host: string; interval_h: number }[] }).sites;
    expect(sites.map((s) => [s.host, s.interval_h])).toEqual([["example.com", 24]]);

    // Killed again: `svc admin` must not try the dead process's socket, and opens the store itself.
    second.proc.child.kill("SIGKILL");
    await second.proc.waitExit(EXIT_MS);
    const { env } = await svcEnvFor(dir);
    // With the store opened by the command itself, it also says how it found the engine.
    expect(await svcAdmin(["status"], env)).toEqual({ maintenance: false, closed: false, accounts: 1, work: { nodes: [], running: [], queued: 0, recent_failovers: [] }, engines: { pglite: "ok" } });
  });

  it("SIGTERM drains and exits 0 within SVC_SHUTDOWN_GRACE_MS; /readyz and /metrics on the admin port", async () => {
    const dir = await dataDir();
    const key = "svc_w3PtyPdLXobzeUprpqMBwZ6aZnotF7bAyDACmQvJ";
    const graceMs = 5_000;
    const r = await serve(dir, { SVC_BOOTSTRAP_KEY: key, SVC_SHUTDOWN_GRACE_MS: String(graceMs) });
    expect(r.ready.json).toEqual({ ok: true, store: "pglite", draining: false });
    expect((await http(`http://127.0.0.1:${r.adminPort}/healthz`)).json).toEqual({ ok: true });

    expect((await r.api("/me", { key })).status).toBe(200); // also leaves an idle keep-alive connection (fetch) open
    const metrics = await http(`http://127.0.0.1:${r.adminPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("svc_http_requests_total");
    const line = metrics.text.split("\n").find((l) => l.startsWith("svc_http_requests_total{") && l.includes('route="/api/v1/me"') && l.includes('status="200"'));
    expect(line, metrics.text).toBeDefined();
    expect(Number(line?.split(" ").pop())).toBeGreaterThanOrEqual(1);

    // A request whose body is still arriving when SIGTERM comes is answered (a client that does not keep connections alive).
    const { exit, ms, answer } = await sigtermDuringRequest(r, key, "drain.example.com", false, graceMs);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toEqual({ host: "drain.example.com", added: true, interval_h: 24 });
    expect(exit).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(graceMs);
    expect(r.proc.stdout()).not.toContain("grace period over");
    expect(existsSync(join(dir, "svc.lock"))).toBe(false);
    expect(existsSync(join(dir, "admin.sock"))).toBe(false);
    await expect(http(`http://127.0.0.1:${r.adminPort}/readyz`, { timeoutMs: 1_000 })).rejects.toThrow();
  });

  it("SIGTERM with a request in flight on a keep-alive connection: answered, then exit 0 well within the grace period", async () => {
    // Reverse proxies and load balancers keep upstream connections alive. Once the request in flight
    // is answered the connection is idle, and must not hold the process until the grace period ends.
    const dir = await dataDir();
    const key = "svc_AIH22nkrI882D47TcAtPV7T2KOFNiE0iezZX0jZQ";
    const graceMs = 4_000;
    const r = await serve(dir, { SVC_BOOTSTRAP_KEY: key, SVC_SHUTDOWN_GRACE_MS: String(graceMs) });
    const { exit, ms, answer } = await sigtermDuringRequest(r, key, "keepalive.example.com", true, graceMs);
    expect(answer.status).toBe(201);
    expect({ ...exit, withinGrace: ms < graceMs }).toEqual({ code: 0, signal: null, withinGrace: true });
    expect(r.proc.stdout()).not.toContain("grace period over");
  });

  it.each(["SIGINT", "SIGHUP"] as const)("%s with Chromium running drains and closes the store as SIGTERM does (new-user 1)", { timeout: 120_000 }, async (signal) => {
    // Playwright installs its own handlers unless told not to: SIGINT closed the browsers and
    // exited 130 without the drain, SIGHUP was swallowed and left the process serving.
    const site = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html lang=en><head><title>Signals</title></head><body><h1>Signals</h1></body></html>"));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    try {
      const dir = await dataDir();
      const key = "svc_Q7hZp2LwX9vKd4RmT8nYc3JbF6sGa1UeWq5iNoPl";
      const r = await serve(dir, { SVC_BOOTSTRAP_KEY: key, SVC_LOG_LEVEL: "info", SVC_BROWSER: "auto", SVC_BROWSER_PATH: chromiumPath(), SVC_BROWSER_PROFILES: "mobile", SVC_BROWSER_PAGES: "1", SVC_ALLOW_PRIVATE_TARGETS: "1" }, 90_000);
      const host = `127.0.0.1:${(site.address() as { port: number }).port}`;
      expect((await r.api("/analyze", { method: "POST", key, body: { host } })).status).toBe(202);
      const browsers = await waitFor("Chromium started by svc serve", 60_000, async () => {
        const found = childrenNamed(r.proc.pid, "chrom");
        return found.length > 0 ? found : undefined;
      });
      r.proc.child.kill(signal);
      expect(await r.proc.waitExit(EXIT_MS)).toEqual({ code: 0, signal: null });
      expect(r.proc.stdout()).toContain(`"signal":"${signal}"`);
      expect(r.proc.stdout()).toContain('"msg":"draining"');
      // The last line says it stopped, and how long closing took: within the grace (10 s by default).
      const last = JSON.parse(r.proc.stdout().trim().split("\n").filter((l) => l.startsWith("{")).pop()!) as { msg: string; ms: number };
      expect(last.msg).toBe("stopped");
      expect(last.ms).toBeLessThan(10_000);
      // The store was closed, not recovered on the next start: the lock is released, no browser is left.
      expect(existsSync(join(dir, "svc.lock"))).toBe(false);
      expect(browsers.filter((pid) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z "))).toEqual([]);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it("npm start: SIGTERM to npm drains svc serve and releases the data directory (the compiled build, built first when stale)", { timeout: 120_000 }, async () => {
    const dir = await dataDir();
    const { env, adminPort } = await svcEnvFor(dir, { SVC_LOG_LEVEL: "info" });
    const child = spawn("npm", ["start"], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? dir, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => (out += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => (out += t));
    const exited = new Promise<number | null>((done) => child.once("close", (c) => done(c)));
    try {
      await waitFor("npm start ready", 100_000, async () => ((await http(`http://127.0.0.1:${adminPort}/readyz`).catch(() => null))?.status === 200 ? true : undefined), 250);
      expect(existsSync(join(dir, "svc.lock"))).toBe(true);
      child.kill("SIGTERM");
      expect(await Promise.race([exited, sleep(EXIT_MS, "still running")])).toBe(0);
      expect(out).toContain('"msg":"draining"');
      // svc serve is gone with npm: its lock released, nothing answers on its admin port.
      expect(existsSync(join(dir, "svc.lock"))).toBe(false);
      await expect(http(`http://127.0.0.1:${adminPort}/healthz`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});

/**
 * POSTs /sites with half the body, sends SIGTERM, checks the process is still waiting, sends the
 * rest; returns the answer and the process's exit (and its time since SIGTERM).
 */
async function sigtermDuringRequest(
  r: Running,
  key: string,
  host: string,
  keepAlive: boolean,
  graceMs: number,
): Promise<{ answer: { status: number; text: string }; exit: { code: number | null; signal: NodeJS.Signals | null }; ms: number }> {
  const body = JSON.stringify({ host });
  const agent = keepAlive ? new Agent({ keepAlive: true }) : false;
  try {
    let req!: ClientRequest;
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req = httpRequest(
        {
          host: "127.0.0.1",
          port: r.port,
          path: "/api/v1/sites",
          method: "POST",
          agent,
          headers: {
            "x-api-key": key,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            connection: keepAlive ? "keep-alive" : "close",
          },
          timeout: 10_000,
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (s: string) => (text += s));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("timeout", () => req.destroy(new Error("the request in flight timed out")));
      req.on("error", reject);
    });
    req.write(body.slice(0, 5)); // headers and the start of the body
    await sleep(300);
    const t0 = Date.now();
    r.proc.child.kill("SIGTERM");
    await sleep(300);
    expect(r.proc.exit()).toBeNull(); // waiting for the request in flight
    req.end(body.slice(5));
    const answer = await response;
    const exit = await r.proc.waitExit(graceMs + 5_000);
    return { answer, exit, ms: Date.now() - t0 };
  } finally {
    if (agent) agent.destroy();
  }
}

/** Pids of the direct children of pid whose command name contains `name` (Linux /proc). */
function childrenNamed(pid: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid && comm.includes(name)) found.push(Number(entry));
    } catch {
      // the process ended while the list was read
    }
  }
  return found;
}
