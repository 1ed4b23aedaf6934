import { linkSync, mkdirSync, openSync, closeSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../../runtime/index.ts";

export class DataDirLockedError extends Error {
  constructor(readonly dir: string, readonly pid: number) {
    super(`the data directory ${dir} is in use by process ${pid}; stop it first (or use \`svc admin\`, which talks to it)`);
  }
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

/**
 * What tells a process apart from a later one that was given the same pid: the boot's id and the
 * process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). Null where
 * /proc does not exist; the pid alone decides there.
 */
export function processIdentity(pid: number): string | null {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ")".
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return start ? `${boot} ${start}` : null;
  } catch {
    return null;
  }
}


// A takeover marker older than this belongs to a process that died while taking over.
const TAKEOVER_STALE_MS = 10_000;

/**
 * Takes the embedded store's lock: a file holding the owner's pid and identity (boot id and start
 * time), created atomically with link(2). The owner counts as running only if a process with
 * its pid runs and has its identity: after a crash, its pid may belong to another process (in a
 * container, the restarted service often gets the same small pid).
 * A lock left by a process that no longer runs (a crash) is taken over; the takeover itself is
 * guarded by an exclusively created marker, so two processes starting after a crash cannot both
 * win. A live owner makes this throw.
 */
export function lockDataDir(dir: string, pid = process.pid): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "svc.lock");
  const tmp = join(dir, `.svc.lock.${pid}`);
  const identity = processIdentity(pid);
  writeFileSync(tmp, identity ? `${pid}\n${identity}\n` : `${pid}\n`);
  try {
    if (tryLink(tmp, path)) return handle(path, pid);
    const owner = ownerOf(path);
    if (owner !== null && owner !== pid && ownerRuns(path, owner)) throw new DataDirLockedError(dir, owner);
    // The owner is gone: take over under the marker.
    const marker = join(dir, "svc.lock.takeover");
    if (!claimMarker(marker)) throw new DataDirLockedError(dir, ownerOf(path) ?? 0);
    try {
      const again = ownerOf(path);
      if (again !== null && again !== pid && ownerRuns(path, again)) throw new DataDirLockedError(dir, again);
      unlinkSafe(path);
      if (!tryLink(tmp, path)) throw new DataDirLockedError(dir, ownerOf(path) ?? 0);
      return handle(path, pid);
    } finally {
      unlinkSafe(marker);
    }
  } finally {
    unlinkSafe(tmp);
  }
}

/** The pid holding dir's lock, or null when it is free (or held by a dead process). */
export function dataDirOwner(dir: string): number | null {
  const path = join(dir, "svc.lock");
  const owner = ownerOf(path);
  return owner !== null && ownerRuns(path, owner) ? owner : null;
}

/** Whether the lock's owner still runs: its pid is alive and, when recorded, its identity matches. */
function ownerRuns(path: string, owner: number): boolean {
  if (!processAlive(owner)) return false;
  const recorded = identityOf(path);
  if (recorded === null) return true; // a lock without identity (older Svc, no /proc): the pid decides
  const current = processIdentity(owner);
  return current === null || current === recorded;
}

function handle(path: string, pid: number): DataDirLock {
  return {
    path,
    release: () => {
      if (ownerOf(path) === pid) unlinkSafe(path);
    },
  };
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

function claimMarker(marker: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(marker, "wx"));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let age = 0;
      try {
        age = Date.now() - statSync(marker).mtimeMs;
      } catch {
        continue; // removed meanwhile: try again
      }
      if (age < TAKEOVER_STALE_MS) return false;
      unlinkSafe(marker);
    }
  }
  return false;
}

function ownerOf(path: string): number | null {
  try {
    const owner = Number(readFileSync(path, "utf8").split("\n")[0]?.trim());
    return Number.isInteger(owner) && owner > 0 ? owner : null;
  } catch {
    return null;
  }
}

function identityOf(path: string): string | null {
  try {
    return readFileSync(path, "utf8").split("\n")[1]?.trim() || null;
  } catch {
    return null;
  }
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
