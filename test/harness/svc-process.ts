import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.ts";

// The real `svc` executable as a separate process: spawned with a minimal environment (PATH, HOME
// and the SVC_* variables a test chooses), its output collected, every wait bounded.

/** The repository root: bin/svc.js is run from here. */
export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface SvcProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<Exit>;
  /** The exit, or null while it runs. */
  exit(): Exit | null;
  /** Waits for the exit; throws after timeoutMs. */
  waitExit(timeoutMs: number): Promise<Exit>;
}

const started = new Set<SvcProcess>();

/** How an `svc` process is started: the command and its arguments for `svc …args` with this environment. */
export type SvcLauncher = (args: readonly string[], svcEnv: Record<string, string>) => { command: string; argv: string[]; env: Record<string, string> };

/** `node bin/svc.js …args` from the checkout, with exactly this environment (plus PATH and HOME). */
export const checkoutLauncher: SvcLauncher = (args, svcEnv) => ({
  command: process.execPath,
  argv: ["bin/svc.js", ...args],
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? tmpdir(), ...svcEnv },
});

/** Runs `svc …args` (by default `node bin/svc.js` of the checkout) with exactly this environment (NODE_OPTIONS for a bench's profiling). */
export function spawnSvc(args: readonly string[], svcEnv: Record<string, string>, launcher: SvcLauncher = checkoutLauncher): SvcProcess {
  for (const name of Object.keys(svcEnv)) if (!name.startsWith("SVC_") && !name.startsWith("MALLOC_") && name !== "NODE_OPTIONS") throw new Error(`only SVC_* variables are passed, not ${name}`);
  const launch = launcher(args, svcEnv);
  const child = spawn(launch.command, launch.argv, { cwd: REPO_ROOT, env: launch.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
  let exit: Exit | null = null;
  const exited = new Promise<Exit>((done) => {
    // "close" fires once the process has exited and its output is fully read.
    child.once("close", (code, signal) => {
      exit = { code, signal };
      done(exit);
    });
    child.once("error", (e) => {
      err += `spawn failed: ${e.message}\n`;
      exit = { code: null, signal: null };
      done(exit);
    });
  });
  const proc: SvcProcess = {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => err,
    exited,
    exit: () => exit,
    async waitExit(timeoutMs) {
      const timer = sleep(timeoutMs, "timeout" as const, { ref: false });
      const outcome = await Promise.race([exited, timer]);
      if (outcome === "timeout") throw new Error(`svc ${args.join(" ")} (pid ${proc.pid}) did not exit within ${timeoutMs} ms; stderr:\n${err}`);
      return outcome;
    },
  };
  started.add(proc);
  void exited.then(() => started.delete(proc));
  return proc;
}

/** Runs a short-lived command (`svc admin …`, a start expected to fail) to its end. */
export async function runSvc(args: readonly string[], svcEnv: Record<string, string>, timeoutMs = 30_000): Promise<Exit & { stdout: string; stderr: string }> {
  const p = spawnSvc(args, svcEnv);
  const exit = await p.waitExit(timeoutMs);
  return { ...exit, stdout: p.stdout(), stderr: p.stderr() };
}

/** `svc admin …args`, which must succeed; returns its printed JSON. */
export async function svcAdmin(args: readonly string[], svcEnv: Record<string, string>, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const r = await runSvc(["admin", ...args], svcEnv, timeoutMs);
  if (r.code !== 0) throw new Error(`svc admin ${args.join(" ")} exited ${r.code ?? r.signal}; stderr:\n${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** Kills (SIGKILL) every process started here that still runs, and waits for each to go. */
export async function killAllSvc(): Promise<void> {
  const running = [...started];
  for (const p of running) if (p.exit() === null) p.child.kill("SIGKILL");
  await Promise.all(running.map((p) => p.waitExit(10_000).catch(() => undefined)));
  started.clear();
}

/** A temporary data directory and its removal. */
export async function tempDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "svc-process-"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }) };
}

/** The environment of one `svc` process on dataDir with fresh ports; extra variables override. */
export async function svcEnvFor(dataDir: string, extra: Record<string, string> = {}): Promise<{ env: Record<string, string>; port: number; adminPort: number }> {
  const port = await freePort();
  let adminPort = await freePort();
  while (adminPort === port) adminPort = await freePort();
  return {
    env: { SVC_DATA_DIR: dataDir, SVC_PORT: String(port), SVC_ADMIN_PORT: String(adminPort), SVC_LOG_LEVEL: "warn", SVC_PARSE_WARMUP_PAGES: "1", SVC_BROWSER: "off", ...extra },
    port,
    adminPort,
  };
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

/** One HTTP request with plain fetch, bounded; the body parsed as JSON when it is JSON. */
export async function http(url: string, init: { method?: string; key?: string; body?: unknown; timeoutMs?: number } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.key !== undefined) headers["x-api-key"] = init.key;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(init.timeoutMs ?? 5_000),
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (/metrics)
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * Polls until check returns a value other than undefined; throws after timeoutMs with the last
 * state. An error thrown by check is retried, unless it carries fatal: true.
 */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
      last = "not yet";
    } catch (err) {
      if ((err as { fatal?: boolean }).fatal) throw err;
      last = (err as Error).message;
    }
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${last})`);
    await sleep(everyMs);
  }
}

/** Waits until /readyz on the admin port answers 200; fails at once should the process exit. */
export async function waitReady(p: SvcProcess, adminPort: number, timeoutMs = 30_000): Promise<Answer> {
  return waitFor(`svc (pid ${p.pid}) ready on :${adminPort}`, timeoutMs, async () => {
    const exit = p.exit();
    if (exit) throw Object.assign(new Error(`svc exited (${exit.code ?? exit.signal}) before ready; stdout:\n${p.stdout()}\nstderr:\n${p.stderr()}`), { fatal: true });
    const a = await http(`http://127.0.0.1:${adminPort}/readyz`, { timeoutMs: 2_000 }).catch(() => undefined);
    return a?.status === 200 ? a : undefined;
  });
}
