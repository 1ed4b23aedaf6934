import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withCacheLock } from "./tool-cache.ts";
import { REPO_ROOT, spawnSvc, svcAdmin, svcEnvFor, tempDataDir, waitReady, type SvcProcess } from "./svc-process.ts";

// Contract fuzzing (issue 21 §6): schemathesis from PyPI, pinned, installed once by the harness
// into a virtual environment under the project's .cache/schemathesis (the way helm is built into
// .cache/helm), run against `svc serve` as a separate process with two accounts (Web Fuzzing
// Commons auth: alice fuzzes, bob is the peer whose objects alice must not read).

export const SCHEMATHESIS_VERSION = "4.32.5";
const CACHE = join(REPO_ROOT, ".cache", "schemathesis");
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const HOOKS_DIR = join(REPO_ROOT, "test", "harness", "schemathesis");

/**
 * The checks every run makes: no 5xx, every status, content type, header and body as documented,
 * and no object of one account readable by the other.
 */
export const FUZZ_CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_headers_conformance",
  "response_schema_conformance",
  "object_level_authorization",
] as const;

/** The pinned schemathesis executable, installed into .cache/schemathesis first when missing. */
export async function schemathesisBinary(): Promise<{ path: string; source: "cache" | "installed"; ms: number }> {
  const started = Date.now();
  const target = join(CACHE, SCHEMATHESIS_VERSION, "venv", "bin", "schemathesis");
  if (works(target)) return { path: target, source: "cache", ms: Date.now() - started };
  await withCacheLock(CACHE, SCHEMATHESIS_VERSION, INSTALL_TIMEOUT_MS, "schemathesis", async () => {
    if (works(target)) return;
    const build = join(CACHE, `build-${process.pid}`);
    const python = spawnSync("python3", ["-m", "venv", build], { encoding: "utf8", timeout: 120_000 });
    if (python.status !== 0) throw new Error(`python3 -m venv failed (${python.status}): ${python.stderr || python.error?.message}; install python3 with its venv module to fuzz`);
    const pip = spawnSync(join(build, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `schemathesis==${SCHEMATHESIS_VERSION}`], { encoding: "utf8", timeout: INSTALL_TIMEOUT_MS });
    if (pip.status !== 0) throw new Error(`pip install schemathesis==${SCHEMATHESIS_VERSION} failed (${pip.status}):\n${pip.stderr}`);
    // A venv's scripts name its interpreter by absolute path, so it is created where it stays:
    // the build directory is renamed, then the scripts' first lines are pointed at the new place.
    const home = join(CACHE, SCHEMATHESIS_VERSION, "venv");
    mkdirSync(join(CACHE, SCHEMATHESIS_VERSION), { recursive: true });
    renameSync(build, home);
    for (const name of readdirSync(join(home, "bin"))) {
      const file = join(home, "bin", name);
      const text = readFileSync(file).toString("latin1");
      if (text.startsWith(`#!${build}/`)) writeFileSync(file, Buffer.from(text.replace(`#!${build}/`, `#!${home}/`), "latin1"));
    }
    for (const name of ["pyvenv.cfg"]) {
      const file = join(home, name);
      if (existsSync(file)) writeFileSync(file, readFileSync(file, "utf8").split(build).join(home));
    }
  });
  if (!works(target)) throw new Error(`schemathesis ${SCHEMATHESIS_VERSION} was installed into ${CACHE} but does not run`);
  return { path: target, source: "installed", ms: Date.now() - started };
}

function works(path: string): boolean {
  if (!existsSync(path)) return false;
  const r = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 60_000 });
  return r.status === 0 && r.stdout.includes(SCHEMATHESIS_VERSION);
}


export interface FuzzAccount {
  readonly name: string;
  readonly key: string;
  readonly keyId: number;
}

export interface FuzzTarget {
  readonly proc: SvcProcess;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly adminPort: number;
  /** alice (the bootstrap owner) and bob (a second account). */
  readonly accounts: readonly [FuzzAccount, FuzzAccount];
  stop(): Promise<void>;
}

const ALICE_KEY = "svc_fUzZ7aL1cEkEy0nLyF0rTeStS9a8b7c6d5e4f3g2";

/**
 * `svc serve` on a fresh data directory with two accounts, limits high enough that fuzzing is not
 * answered 429 throughout, periodic work off. Private targets stay refused: nothing a fuzzer
 * names is contacted on loopback.
 */
export async function startFuzzTarget(extraEnv: Record<string, string> = {}): Promise<FuzzTarget> {
  const data = await tempDataDir();
  const { env, port, adminPort } = await svcEnvFor(data.dir, {
    SVC_BOOTSTRAP_KEY: ALICE_KEY,
    SVC_RATE_PER_HOUR: "10000000",
    SVC_ADDRESS_RATE_PER_HOUR: "10000000",
    SVC_PLAN_KEY_RATE_PER_HOUR: "1000000000",
    SVC_PLAN_EVERY_S: "0",
    SVC_UPTIME_PLAN_EVERY_MS: "0",
    SVC_WEBHOOK_PLAN_MS: "0",
    SVC_FETCH_TIMEOUT_MS: "2000",
    ...extraEnv,
  });
  const proc = spawnSvc(["serve"], env);
  try {
    await waitReady(proc, adminPort, 90_000);
    const bob = await svcAdmin(["account", "create", "bob@example.com"], env, 60_000);
    const stop = async () => {
      if (proc.exit() === null) proc.child.kill("SIGTERM");
      await proc.waitExit(20_000).catch(() => proc.child.kill("SIGKILL"));
      await data.remove();
    };
    return {
      proc,
      origin: `http://127.0.0.1:${port}`,
      adminPort,
      accounts: [
        { name: "alice", key: ALICE_KEY, keyId: 1 },
        { name: "bob", key: String(bob.key), keyId: Number(bob.key_id) },
      ],
      stop,
    };
  } catch (err) {
    proc.child.kill("SIGKILL");
    await data.remove();
    throw err;
  }
}

export interface FuzzOptions {
  readonly maxExamples: number;
  readonly phases?: readonly ("examples" | "coverage" | "fuzzing" | "stateful")[];
  readonly seed?: number;
  /** Time budget of the whole run (schemathesis --max-time). */
  readonly maxTimeS?: number;
  readonly workers?: number;
  /** Printed as it runs (npm run fuzz); collected otherwise. */
  readonly echo?: boolean;
}

export interface FuzzResult {
  readonly exitCode: number | null;
  /** The JSON report's summary. */
  readonly report: {
    readonly operations: { total: number; selected: number; tested: number; errored: number };
    readonly test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
    readonly failures: { code: string; title: string; count: number; operations: string[] }[];
    readonly errors: unknown[];
    readonly phases: Record<string, { status: string }>;
  };
  /** What schemathesis printed (the failures with their curl reproductions). */
  readonly output: string;
  readonly ms: number;
}

/** Runs schemathesis against the target's served OpenAPI document, all operations, both accounts. */
export async function runSchemathesis(target: FuzzTarget, options: FuzzOptions): Promise<FuzzResult> {
  const bin = await schemathesisBinary();
  const dir = mkdtempSync(join(tmpdir(), "svc-fuzz-"));
  try {
    writeFileSync(
      join(dir, "auth.json"),
      JSON.stringify({ auth: target.accounts.map((a) => ({ name: a.name, fixedHeaders: [{ name: "X-Api-Key", value: a.key }] })) }),
    );
    const [alice, bob] = target.accounts;
    writeFileSync(join(dir, "schemathesis.toml"), `[auth.wfc]\npath = "auth.json"\nuser = "${alice.name}"\npeers = ["${alice.name}", "${bob.name}"]\n`);
    const args = [
      "run",
      `${target.origin}/api/v1/openapi.json`,
      "--checks",
      FUZZ_CHECKS.join(","),
      "--max-examples",
      String(options.maxExamples),
      "--phases",
      (options.phases ?? ["examples", "coverage", "fuzzing", "stateful"]).join(","),
      "--workers",
      String(options.workers ?? 1),
      "--request-timeout",
      "30",
      "--no-color",
      "--report",
      "json",
      "--report-json-path",
      join(dir, "report.json"),
      "--generation-database",
      "none",
      ...(options.seed !== undefined ? ["--seed", String(options.seed)] : []),
      ...(options.maxTimeS !== undefined ? ["--max-time", String(options.maxTimeS)] : []),
    ];
    const started = Date.now();
    const child = spawn(bin.path, args, {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: dir,
        PYTHONPATH: HOOKS_DIR,
        // No __pycache__ next to the hooks in the work tree.
        PYTHONDONTWRITEBYTECODE: "1",
        SCHEMATHESIS_HOOKS: "svc_fuzz_hooks",
        SVC_FUZZ_PROTECTED_KEY_IDS: target.accounts.map((a) => a.keyId).join(","),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let echoed = 0;
    const collect = (s: Buffer) => {
      output += s.toString("utf8");
      if (!options.echo) return;
      // Whole lines only, so the closing banner can be rewritten: schemathesis closes like pytest
      // ("==== 2 warnings in 28.7s ===="), and CI's reader takes such a line, which counts no
      // passed tests, for a test runner that ran none. The figures stay; the banner goes.
      const end = output.lastIndexOf("\n") + 1;
      if (end <= echoed) return;
      process.stdout.write(output.slice(echoed, end).replace(/^=+ (.+ in [\d.]+s) =+$/gm, "schemathesis closing: $1"));
      echoed = end;
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const exitCode = await new Promise<number | null>((done) => child.once("close", (code) => done(code)));
    if (options.echo && echoed < output.length) process.stdout.write(`${output.slice(echoed)}\n`);
    const reportFile = join(dir, "report.json");
    if (!existsSync(reportFile)) throw new Error(`schemathesis wrote no report (exit ${exitCode}):\n${output.slice(-4000)}`);
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as FuzzResult["report"];
    return { exitCode, report, output, ms: Date.now() - started };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
