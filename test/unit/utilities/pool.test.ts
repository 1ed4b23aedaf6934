import { afterAll, describe, expect, it } from "vitest";
import { createUtilityPool } from "../../../gateway/utility-pool/utility-pool.ts";

// The pool's limits with a stand-in thread: a run that exhausts its heap or never ends is stopped
// with tool_failed, and the pool goes on serving the runs queued behind it.

const pool = createUtilityPool({ size: 1, cpuMs: 20_000, memoryMb: 48, entry: new URL("./threads/hog-thread.ts", import.meta.url) });
afterAll(() => pool.close());

const task = (utility: string, cpuMs?: number) => ({ utility, input: {}, nowMs: 0, seed: new Uint8Array(1), ...(cpuMs ? { cpuMs } : {}) });

describe("the utility pool", () => {
  it("stops a run that exhausts its memory and one that overruns its time, then serves the queue", async () => {
    const hog = pool.run(task("hog"));
    const spin = pool.run(task("spin", 300));
    const after = pool.run(task("echo"));
    await expect(hog).rejects.toMatchObject({ code: "tool_failed", message: "the run was stopped: it needed more than the 48 MB of memory a utility run may use" });
    await expect(spin).rejects.toMatchObject({ code: "tool_failed", message: "the run was stopped after 300 ms (the time limit of a utility run)" });
    await expect(after).resolves.toEqual({ ran: "echo" });
    expect(pool.threads).toBe(1);
  }, 60_000);
});
