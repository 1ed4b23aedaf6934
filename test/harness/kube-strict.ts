import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runTool } from "./tool-cache.ts";

// Strict validation of rendered manifests against the Kubernetes API types: a small Go program
// (test/harness/kube-strict/main.go) decodes each manifest with k8s.io/apimachinery's strict JSON
// serializer into its k8s.io/api type, as the API server's strict field validation does (unknown
// and duplicate fields, wrong types). kubeconform would need JSON schemas fetched from GitHub; the
// types ship in Go modules, pinned by the committed go.sum and fetched from the Go module proxy
// once, like helm (test/harness/helm.ts). The build takes about 100 s on 2 cores; the binary is
// kept in .cache/kube-strict/<hash of the sources>.

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SOURCE = join(REPO_ROOT, "test", "harness", "kube-strict");
const CACHE = join(REPO_ROOT, ".cache", "kube-strict");
const GO_CANDIDATES = ["/usr/local/go/bin/go", "/usr/lib/go/bin/go"];
const BUILD_TIMEOUT_MS = 20 * 60_000;

/** What the validator said of one manifest. */
export type StrictVerdict = { readonly manifest: string; readonly verdict: "ok" | "unknown" | "error"; readonly message: string };

/** The validator's path, built first when missing. Throws when there is no Go to build it. */
export async function kubeStrictBinary(): Promise<string> {
  const hash = createHash("sha256");
  for (const f of ["main.go", "go.mod", "go.sum"]) hash.update(readFileSync(join(SOURCE, f)));
  const target = join(CACHE, hash.digest("hex").slice(0, 16), "kube-strict");
  if (existsSync(target)) return target;
  const go = GO_CANDIDATES.find((p) => existsSync(p)) ?? "go";
  mkdirSync(CACHE, { recursive: true });
  const scratch = mkdtempSync(join(CACHE, "build-"));
  try {
    cpSync(SOURCE, join(scratch, "src"), { recursive: true });
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      GOMODCACHE: join(scratch, "mod"),
      GOCACHE: join(scratch, "cache"),
      GOPATH: join(scratch, "gopath"),
      GOFLAGS: "-modcacherw -mod=readonly",
      GOTOOLCHAIN: "local",
      CGO_ENABLED: "0",
    };
    const started = Date.now();
    process.stderr.write(`[harness] building kube-strict (k8s.io/api from the Go module proxy, once, into ${CACHE})\n`);
    await runTool(go, ["build", "-trimpath", "-ldflags", "-s -w", "-o", join(scratch, "kube-strict"), "."], env, join(scratch, "src"), BUILD_TIMEOUT_MS);
    mkdirSync(join(target, ".."), { recursive: true });
    // A concurrent build may have won: the rename replaces its identical binary.
    renameSync(join(scratch, "kube-strict"), target);
    process.stderr.write(`[harness] kube-strict built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return target;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Each manifest's verdict, in order. */
export function validateStrict(binary: string, manifests: readonly object[]): StrictVerdict[] {
  const res = spawnSync(binary, [], { input: manifests.map((m) => JSON.stringify(m)).join("\n") + "\n", encoding: "utf8", timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`kube-strict failed (${res.status}): ${res.stderr}`);
  return res.stdout
    .trim()
    .split("\n")
    .map((line) => {
      const m = /^(ok|unknown|error) (.*?)(?:: (.*))?$/.exec(line);
      if (!m) throw new Error(`kube-strict printed ${line}`);
      return { verdict: m[1] as StrictVerdict["verdict"], manifest: m[2]!, message: m[3] ?? "" };
    });
}

