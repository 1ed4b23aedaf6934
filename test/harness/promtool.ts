import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

// Prometheus's promtool from Debian's prometheus package, installed with apt-get when missing and
// the user is root (as test/harness/postgres.ts does for PostgreSQL).

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const PATH = "/usr/bin/promtool";

export function promtoolBinary(): string {
  if (existsSync(PATH)) return PATH;
  if (!isRoot) throw new Error("promtool is not installed and this user cannot install it: apt-get install prometheus");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "prometheus"], { stdio: "inherit", env });
  return PATH;
}

/** `promtool <args>` with input on stdin; its exit code and everything it printed. */
export function promtool(args: readonly string[], input?: string): { code: number | null; output: string } {
  const r = spawnSync(promtoolBinary(), args, { input, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}
