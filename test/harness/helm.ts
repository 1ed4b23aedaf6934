import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runTool, withCacheLock } from "./tool-cache.ts";

// The real `helm` for the chart's tests: the one on PATH when it is Helm 3, otherwise Helm built
// once from source with the machine's Go into the project's .cache/helm. No release binary can be
// downloaded here; the Go module proxy is reachable, and Helm is an ordinary Go module. The build
// takes about 90 s on 2 cores (downloads included); a lock file makes concurrent test processes
// wait for one build.

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const CACHE = join(REPO_ROOT, ".cache", "helm");

/** The pinned Helm; its go.mod asks for Go 1.26 or later. */
export const HELM_VERSION = "v3.22.0";
const HELM_MODULE = "helm.sh/helm/v3";
const BUILD_TIMEOUT_MS = 20 * 60_000;
const GO_CANDIDATES = ["/usr/local/go/bin/go", "/usr/lib/go/bin/go"];

export interface HelmBinary {
  readonly path: string;
  /** What `helm version` says, e.g. "v3.22.0". */
  readonly version: string;
  /** "path": found on PATH; "cache": built by an earlier run; "built": built now. */
  readonly source: "path" | "cache" | "built";
  /** Time spent finding or building it. */
  readonly ms: number;
}

/** A Kubernetes object as `helm template` renders it, parsed. */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Record<string, string>; readonly annotations?: Record<string, string> };
  readonly [field: string]: unknown;
}

export interface RenderOptions {
  readonly release?: string;
  readonly namespace?: string;
  /** Values files, in order (later ones win), written as JSON (which is YAML). */
  readonly values?: readonly object[];
  /** More arguments for `helm template`, e.g. ["--kube-version", "1.23.0"]. */
  readonly args?: readonly string[];
}

/** A failed helm command, with what it printed. */
export class HelmError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly status: number | null,
    readonly stderr: string,
  ) {
    super(`helm ${args.join(" ")} failed (${status}):\n${stderr}`);
  }
}

/**
 * Helm 3 from PATH, or the pinned version from .cache/helm, building it there first when missing.
 * Throws, naming what is missing, when there is no helm and no Go to build one.
 */
export async function helmBinary(): Promise<HelmBinary> {
  const started = Date.now();
  const onPath = findOnPath("helm");
  const pathVersion = onPath ? helmVersion(onPath) : null;
  if (onPath && pathVersion?.startsWith("v3.")) return { path: onPath, version: pathVersion, source: "path", ms: Date.now() - started };
  if (onPath) process.stderr.write(`[harness] ${onPath} is helm ${pathVersion ?? "of unknown version"}, not Helm 3: using ${HELM_VERSION} from .cache/helm\n`);

  const target = join(CACHE, HELM_VERSION, "helm");
  const cached = existsSync(target) ? helmVersion(target) : null;
  if (cached) return { path: target, version: cached, source: "cache", ms: Date.now() - started };

  const built = await withCacheLock(CACHE, HELM_VERSION, BUILD_TIMEOUT_MS, "helm", async () => {
    if (existsSync(target)) return false; // another process built it while this one waited
    await buildHelm(target);
    return true;
  });
  const version = helmVersion(target);
  if (!version) throw new Error(`${target} was built but does not run`);
  return { path: target, version, source: built ? "built" : "cache", ms: Date.now() - started };
}

/** Runs helm; returns its standard output, or throws HelmError. */
export function runHelm(helm: HelmBinary, args: readonly string[], cwd = REPO_ROOT): string {
  // Helm's own state (repositories, plugins, registry logins) stays out of the user's home.
  const home = join(tmpdir(), "svc-helm-home");
  const env = { ...process.env, HELM_CACHE_HOME: join(home, "cache"), HELM_CONFIG_HOME: join(home, "config"), HELM_DATA_HOME: join(home, "data") };
  const res = spawnSync(helm.path, [...args], { cwd, env, encoding: "utf8", timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (res.error) throw new Error(`helm ${args.join(" ")} did not run: ${res.error.message}`);
  if (res.status !== 0) throw new HelmError(args, res.status, res.stderr);
  return res.stdout;
}

/** `helm template` of a chart directory, each rendered object parsed (by Helm itself, see yamlToJson). */
export function renderChart(helm: HelmBinary, chartDir: string, options: RenderOptions = {}): Manifest[] {
  return withTempDir("svc-helm-values-", (dir) => {
    const args = ["template", options.release ?? "svc", chartDir, "--namespace", options.namespace ?? "default", ...valuesArgs(dir, options), ...(options.args ?? [])];
    return yamlToJson(helm, runHelm(helm, args)) as Manifest[];
  });
}

/** `helm lint --strict` of a chart directory with these values; returns its report, or throws HelmError. */
export function lintChart(helm: HelmBinary, chartDir: string, options: RenderOptions = {}): string {
  return withTempDir("svc-helm-values-", (dir) => runHelm(helm, ["lint", "--strict", chartDir, "--namespace", options.namespace ?? "default", ...valuesArgs(dir, options), ...(options.args ?? [])]));
}

function valuesArgs(dir: string, options: RenderOptions): string[] {
  return (options.values ?? []).flatMap((values, i) => {
    const file = join(dir, `values-${i}.json`);
    writeFileSync(file, JSON.stringify(values));
    return ["--values", file];
  });
}

/**
 * The chart's NOTES.txt as `helm install` would print it. `helm template` leaves NOTES.txt out, so
 * a copy of the chart renders it into a ConfigMap of its own with `tpl`, beside the chart's helpers.
 */
export function renderNotes(helm: HelmBinary, chartDir: string, options: RenderOptions = {}): string {
  return withTempDir("svc-helm-notes-", (dir) => {
    const copy = join(dir, "chart");
    cpSync(resolve(REPO_ROOT, chartDir), copy, { recursive: true });
    writeFileSync(join(copy, "notes-under-test.txt"), readFileSync(join(copy, "templates", "NOTES.txt")));
    writeFileSync(
      join(copy, "templates", "zz-notes-under-test.yaml"),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes-under-test\ndata:\n  notes: {{ tpl (.Files.Get "notes-under-test.txt") . | b64enc | quote }}\n',
    );
    const rendered = renderChart(helm, copy, { ...options, args: [...(options.args ?? []), "--show-only", "templates/zz-notes-under-test.yaml"] });
    const notes = (rendered[0]?.data as { notes?: string } | undefined)?.notes;
    if (notes === undefined) throw new Error("the notes were not rendered");
    return Buffer.from(notes, "base64").toString("utf8");
  });
}

/**
 * Multi-document YAML to JSON values, parsed by Helm: a throwaway chart reads each document with
 * `fromYaml` (sigs.k8s.io/yaml, what Kubernetes itself decodes manifests with) and hands the lot
 * back as base64 JSON. So the tests need no YAML parser of their own, and a value that YAML would
 * read as something else (an unquoted "on", a number) is seen as the cluster would see it.
 * Documents holding only comments are dropped.
 */
export function yamlToJson(helm: HelmBinary, yaml: string): unknown[] {
  return withTempDir("svc-helm-yaml-", (dir) => {
    mkdirSync(join(dir, "templates"));
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "Chart.yaml"), "apiVersion: v2\nname: yaml-to-json\nversion: 0.0.0\n");
    const docs = yaml.split(/^---[ \t]*$/m).filter((d) => d.trim() !== "");
    docs.forEach((doc, i) => writeFileSync(join(dir, "docs", `${String(i).padStart(5, "0")}.yaml`), doc));
    writeFileSync(join(dir, "templates", "json.yaml"), YAML_TO_JSON);
    const out = runHelm(helm, ["template", "x", dir]);
    const m = /^ {2}json: "([A-Za-z0-9+/=]*)"$/m.exec(out);
    if (!m) throw new Error(`the YAML-to-JSON chart printed no data:\n${out.slice(0, 2000)}`);
    const parsed = JSON.parse(Buffer.from(m[1] ?? "", "base64").toString("utf8")) as unknown[];
    return parsed.filter((d) => d !== null && typeof d === "object" && Object.keys(d).length > 0);
  });
}

const YAML_TO_JSON = `{{- $out := list }}
{{- range $path, $_ := .Files.Glob "docs/*.yaml" }}
{{- $doc := $.Files.Get $path | fromYaml }}
{{- if hasKey $doc "Error" }}{{ fail (printf "%s: %s" $path $doc.Error) }}{{ end }}
{{- $out = append $out $doc }}
{{- end }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: yaml-to-json
data:
  json: {{ $out | toJson | b64enc | quote }}
`;

function withTempDir<T>(prefix: string, fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, name);
    if (dir !== "" && existsSync(candidate)) return candidate;
  }
  return null;
}

/** "v3.22.0", or null when the file does not run as helm. */
function helmVersion(path: string): string | null {
  const res = spawnSync(path, ["version", "--template", "{{.Version}}"], { encoding: "utf8", timeout: 30_000 });
  return res.status === 0 && res.stdout.trim() !== "" ? res.stdout.trim() : null;
}


/**
 * `go install helm.sh/helm/v3/cmd/helm@HELM_VERSION` with the link flags of Helm's own Makefile
 * (its version, and the Kubernetes version of its client-go as the default for --kube-version and
 * lint's deprecation checks; without them a source build says Kubernetes v1.20.0). Modules and build
 * cache go to a scratch directory, removed afterwards; only the binary is kept, renamed into place.
 */
async function buildHelm(target: string): Promise<void> {
  const go = findOnPath("go") ?? GO_CANDIDATES.find((p) => existsSync(p)) ?? null;
  if (!go) throw new Error(`neither helm (Helm 3) nor Go is installed: install Helm 3, or Go 1.26+ (e.g. under /usr/local/go) so that the tests build ${HELM_MODULE} ${HELM_VERSION}`);
  const started = Date.now();
  const scratch = mkdtempSync(join(CACHE, "build-"));
  try {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      GOMODCACHE: join(scratch, "mod"),
      GOCACHE: join(scratch, "cache"),
      GOPATH: join(scratch, "gopath"),
      GOBIN: join(scratch, "bin"),
      // Module files writable, so that the scratch directory can be removed.
      GOFLAGS: "-modcacherw",
      // The installed Go or nothing: a newer toolchain would be a download of its own.
      GOTOOLCHAIN: "local",
      CGO_ENABLED: "0",
    };
    const goVersion = (await runTool(go, ["env", "GOVERSION"], env, scratch, BUILD_TIMEOUT_MS)).trim();
    process.stderr.write(`[harness] building helm ${HELM_VERSION} with ${goVersion} from the Go module proxy (once, into ${CACHE})\n`);
    const info = JSON.parse(await runTool(go, ["mod", "download", "-json", `${HELM_MODULE}@${HELM_VERSION}`], env, scratch, BUILD_TIMEOUT_MS)) as { GoMod?: string; Error?: string };
    if (!info.GoMod) throw new Error(`go mod download ${HELM_MODULE}@${HELM_VERSION}: ${info.Error ?? "no go.mod"}`);
    const clientGo = /^\s*k8s\.io\/client-go v0\.(\d+)\./m.exec(readFileSync(info.GoMod, "utf8"));
    if (!clientGo) throw new Error(`${HELM_MODULE}@${HELM_VERSION} requires no k8s.io/client-go v0.x: cannot tell its Kubernetes version`);
    const kubeMinor = clientGo[1] ?? "";
    const ldflags = [
      "-s",
      "-w",
      `-X ${HELM_MODULE}/internal/version.version=${HELM_VERSION}`,
      `-X ${HELM_MODULE}/internal/version.metadata=`,
      ...["pkg/lint/rules", "pkg/chartutil"].flatMap((pkg) => [`-X ${HELM_MODULE}/${pkg}.k8sVersionMajor=1`, `-X ${HELM_MODULE}/${pkg}.k8sVersionMinor=${kubeMinor}`]),
    ].join(" ");
    await runTool(go, ["install", "-trimpath", "-ldflags", ldflags, `${HELM_MODULE}/cmd/helm@${HELM_VERSION}`], env, scratch, BUILD_TIMEOUT_MS);
    mkdirSync(join(target, ".."), { recursive: true });
    renameSync(join(scratch, "bin", "helm"), target);
    process.stderr.write(`[harness] helm ${HELM_VERSION} (Kubernetes 1.${kubeMinor}) built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

