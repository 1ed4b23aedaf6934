import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDirOwner, DataDirLockedError, lockDataDir, processIdentity } from "../../../storage/index.ts";

// The embedded store's lock against real processes. PID reuse itself cannot be caused on demand,
// so its aftermath is written as it would be found: a lock naming a pid that now belongs to
// another, later process.

let other: ChildProcess;
let dir: string;
beforeAll(async () => {
  other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  await new Promise((resolve) => other.once("spawn", resolve));
  dir = mkdtempSync(join(tmpdir(), "svc-lock-"));
});
afterAll(() => {
  other.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => join(dir, "svc.lock");
const identity = (pid: number) => processIdentity(pid) as string;

describe.runIf(processIdentity(process.pid) !== null)("the data-directory lock (Linux /proc)", () => {
  it("records the owner's pid, boot id and start time", () => {
    const lock = lockDataDir(dir);
    expect(readFileSync(lockFile(), "utf8")).toBe(`${process.pid}\n${identity(process.pid)}\n`);
    expect(identity(process.pid)).toMatch(/^[0-9a-f-]{36} \d+$/);
    lock.release();
  });

  it("refuses while the recorded process runs", () => {
    lockDataDir(dir, other.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(dataDirOwner(dir)).toBe(other.pid);
    writeFileSync(lockFile(), ""); // let go without the owner's release
  });

  it("takes over when the recorded pid now belongs to another process (pid reuse after a crash)", () => {
    // The crashed owner had other's pid but started earlier (or in another boot).
    const [boot, start] = identity(other.pid!).split(" ") as [string, string];
    for (const stale of [`${boot} ${Number(start) - 1}`, `00000000-0000-0000-0000-000000000000 ${start}`]) {
      writeFileSync(lockFile(), `${other.pid}\n${stale}\n`);
      expect(dataDirOwner(dir)).toBeNull();
      const lock = lockDataDir(dir);
      expect(readFileSync(lockFile(), "utf8").split("\n")[0]).toBe(String(process.pid));
      lock.release();
    }
  });

  it("still refuses a live pid from a lock without identity (written by an older Svc)", () => {
    writeFileSync(lockFile(), `${other.pid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    writeFileSync(lockFile(), "");
  });
});
