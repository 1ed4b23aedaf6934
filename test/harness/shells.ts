// Debian's zsh and fish for the completion tests (bash is always there): installed with apt-get
// when missing, as chromium.ts installs Chromium.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const PATHS = { zsh: ["/usr/bin/zsh", "/bin/zsh"], fish: ["/usr/bin/fish"] } as const;

/** The path of a shell, installing Debian's package when it is not there. */
export function shellPath(shell: "zsh" | "fish"): string {
  const found = () => PATHS[shell].find((p) => existsSync(p));
  const path = found();
  if (path) return path;
  if (!isRoot) throw new Error(`${shell} is not installed and this user cannot install it: apt-get install ${shell}`);
  process.stderr.write(`[harness] installing Debian's ${shell} package\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", shell], { stdio: ["ignore", "ignore", "inherit"], env });
  const installed = found();
  if (!installed) throw new Error(`${shell} was installed but is not at ${PATHS[shell].join(" or ")}`);
  return installed;
}
