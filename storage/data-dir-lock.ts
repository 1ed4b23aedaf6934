import { mkdirSync, readFileSync, unlinkSync, writeFileSync, linkSync } from "node:fs";
import { join } from "node:path";

export class DataDirLockedError extends Error {
  constructor(readonly dir: string, readonly pid: number) {
    super(`the data directory ${dir} is in use by process ${pid}; stop it first (or use \`svc admin\`, which talks to it)`);
  }
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the embedded store's lock: a file holding the owner's pid, created atomically with link(2).
 * A lock left by a process that no longer runs (a crash) is taken over; a live owner makes this throw.
 */
export function lockDataDir(dir: string, pid = process.pid): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "svc.lock");
  const tmp = join(dir, `.svc.lock.${pid}`);
  writeFileSync(tmp, String(pid));
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(tmp, path);
        return { path, release: () => releaseIfOwned(path, pid) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const owner = Number(readFileSafe(path));
        if (Number.isInteger(owner) && owner > 0 && owner !== pid && alive(owner)) throw new DataDirLockedError(dir, owner);
        unlinkSafe(path);
      }
    }
    throw new DataDirLockedError(dir, Number(readFileSafe(path)));
  } finally {
    unlinkSafe(tmp);
  }
}

/** The pid holding dir's lock, or null when it is free (or held by a dead process). */
export function dataDirOwner(dir: string): number | null {
  const owner = Number(readFileSafe(join(dir, "svc.lock")));
  return Number.isInteger(owner) && owner > 0 && alive(owner) ? owner : null;
}

function releaseIfOwned(path: string, pid: number): void {
  if (Number(readFileSafe(path)) === pid) unlinkSafe(path);
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
