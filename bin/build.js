// The compiled build (dist/): `npm run build`, and what `npm start` runs first (`--if-stale`) so
// that the quick start stays `npm ci && npm start`. Plain JavaScript, so that it runs before
// anything is compiled. The build is fresh when no source, migration, tsconfig or package.json
// changed after dist/.build-stamp was written; concurrent starts build once (a lock directory).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SOURCE_DIRS = ["clients/typescript/src", "runtime", "storage", "gateway", "scheduler", "crawler", "analyzer", "utilities", "proto", "bin"];
const SOURCE_FILES = ["tsconfig.json", "tsconfig.build.json", "package.json"];
const STAMP = join(ROOT, "dist", ".build-stamp");
const LOCK = join(ROOT, "dist.build-lock");
const LOCK_STALE_MS = 5 * 60_000;
/** Prints how long the compilation has run, every 15 s, until it is killed. */
const TICKER = 'let s = 0; setInterval(() => process.stderr.write("svc: still compiling (" + (s += 15) + " s) …\\n"), 15000);';

/** The sources' newest modification time (ms) and how many there are (a deleted file changes the count). */
function sources() {
  let newest = 0;
  let count = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(ts|sql)$/.test(e.name) && !e.name.endsWith(".d.ts")) {
        newest = Math.max(newest, statSync(path).mtimeMs);
        count += 1;
      }
    }
  };
  for (const d of SOURCE_DIRS) walk(join(ROOT, d));
  for (const f of SOURCE_FILES) {
    try {
      newest = Math.max(newest, statSync(join(ROOT, f)).mtimeMs);
    } catch {
      // absent in an image
    }
  }
  return { newest, count };
}

/** "fresh", "stale" or "missing". An image holds dist/ without the sources: fresh. */
export function distState() {
  if (!existsSync(join(ROOT, "dist", "bin", "entry.js"))) return "missing";
  const now = sources();
  if (now.count === 0) return "fresh";
  if (!existsSync(STAMP)) return "stale";
  const stamp = readFileSync(STAMP, "utf8").trim().split(" ");
  return statSync(STAMP).mtimeMs >= now.newest && Number(stamp[1]) === now.count ? "fresh" : "stale";
}

/** The TypeScript compiler, when the development dependencies are installed. */
function tscPath() {
  try {
    return createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    return null;
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Takes the build lock (waiting while another process builds); false when that other process built meanwhile. */
function lock() {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return true;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // released meanwhile
    }
    sleep(200);
    if (!existsSync(LOCK) && distState() === "fresh") return false;
  }
}

/** Compiles the sources into dist/ (tsc -p tsconfig.build.json), copies the migrations, writes the stamp. Throws on failure. */
export function build(log = (line) => process.stderr.write(`${line}\n`)) {
  const tsc = tscPath();
  if (!tsc) throw new Error("TypeScript is not installed (npm ci --omit=dev?): build dist/ where the development dependencies are (npm ci && npm run build)");
  if (!lock()) return;
  try {
    if (distState() === "fresh") return;
    const started = Date.now();
    log("svc: compiling the sources into dist/ (npm run build), once: about 25 s of CPU, half a minute on an idle 2-core machine, two on a busy one …");
    rmSync(join(ROOT, "dist"), { recursive: true, force: true });
    // Stamped as of before compiling: a source saved while tsc runs leaves the build stale.
    const stampDate = new Date();
    const count = sources().count;
    // tsc says nothing until it is done: a ticker process tells the waiting user it is alive.
    const ticker = spawn(process.execPath, ["-e", TICKER], { stdio: ["ignore", "ignore", "inherit"] });
    let r;
    try {
      r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
    } finally {
      ticker.kill();
    }
    if (r.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${r.status ?? r.signal})`);
    cpSync(join(ROOT, "storage", "migrations"), join(ROOT, "dist", "storage", "migrations"), { recursive: true });
    writeFileSync(STAMP, `${stampDate.toISOString()} ${count}\n`);
    utimesSync(STAMP, stampDate, stampDate);
    log(`svc: dist/ built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

// `node bin/build.js` builds; `--if-stale` only when dist/ is missing or older than the sources,
// and without TypeScript (production dependencies only) a stale dist/ is used as it is.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifStale = process.argv.includes("--if-stale");
  const state = distState();
  try {
    if (!ifStale || state !== "fresh") {
      if (ifStale && state === "stale" && !tscPath()) process.stderr.write("svc: dist/ is older than the sources and TypeScript is not installed: running dist/ as it is\n");
      else build();
    }
  } catch (err) {
    process.stderr.write(`svc: ${err.message}\n`);
    process.exitCode = 1;
  }
}
