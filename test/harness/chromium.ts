// Debian's Chromium for the browser-metrics tests and bench:lighthouse-seo: installed with apt-get
// when missing (as postgres.ts installs postgresql). Browsers are never downloaded from elsewhere.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = "/usr/bin/chromium";

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** The path of Debian's Chromium, installing the package when it is not there. */
export function chromiumPath(log: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (!isRoot) throw new Error("Chromium is not installed and this user cannot install it: apt-get install chromium");
  const started = Date.now();
  log("[harness] installing Debian's chromium package");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { stdio: ["ignore", "ignore", "inherit"], env });
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`chromium was installed but ${CHROMIUM_PATH} is missing`);
  log(`[harness] chromium installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return CHROMIUM_PATH;
}
