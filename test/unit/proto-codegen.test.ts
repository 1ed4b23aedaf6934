import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe("proto/", () => {
  it("lints, and the committed ts-proto output is what buf generates now", () => {
    const buf = join(root, "node_modules/.bin/buf");
    execFileSync(buf, ["lint"], { cwd: root });
    const out = mkdtempSync(join(tmpdir(), "svc-proto-"));
    try {
      execFileSync(buf, ["generate", "-o", out], { cwd: root });
      const fresh = join(out, "proto/gen");
      const committed = join(root, "proto/gen");
      const list = (dir: string) => files(dir).map((f) => relative(dir, f)).sort();
      expect(list(committed)).toEqual(list(fresh));
      for (const f of list(fresh)) expect(readFileSync(join(committed, f), "utf8"), f).toBe(readFileSync(join(fresh, f), "utf8"));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
