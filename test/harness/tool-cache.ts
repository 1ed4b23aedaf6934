/**
 * What the harness's provisioned tools share (helm and the strict Kubernetes decoder built from
 * the Go module proxy, schemathesis from PyPI): a lock around building one into .cache/, so that
 * parallel test files build it once, and running a build step with its error output kept.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { processAlive } from "../../runtime/index.ts";

/**
 * Runs fn holding <cache>/<name>.lock (created exclusively, holding the pid). A lock whose process
 * is gone is taken over; otherwise this waits, up to timeoutMs. Before fn runs, what a build killed
 * midway left behind (`build-*` directories) is removed: nobody else builds while the lock is held.
 */
export async function withCacheLock<T>(cache: string, name: string, timeoutMs: number, what: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(cache, { recursive: true });
  const lock = join(cache, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      writeFileSync(lock, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = Number(readFileSync(lock, "utf8").trim());
    if (holder > 0 && !processAlive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lock} is still held by process ${holder} after ${Math.round(timeoutMs / 60_000)} minutes`);
    if (!announced) process.stderr.write(`[harness] waiting for process ${holder || "?"}, which is building ${what} (${lock})\n`);
    announced = true;
    await sleep(1000);
  }
  try {
    for (const entry of readdirSync(cache)) if (entry.startsWith("build-")) rmSync(join(cache, entry), { recursive: true, force: true });
    return await fn();
  } finally {
    unlinkSync(lock);
  }
}

/** Runs one build step; resolves with its standard output, rejects with the tail of its errors. */
export function runTool(cmd: string, args: readonly string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, [...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
    child.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString("utf8")).slice(-20_000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      fail(new Error(`${cmd} ${args.join(" ")} did not run: ${err.message}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done(stdout);
      else fail(new Error(`${cmd} ${args.join(" ")} failed (${code ?? signal}):\n${stderr}`));
    });
  });
}
