import { afterAll, describe, expect, it } from "vitest";
import { createUtilityPool, transferablesOf } from "../../../gateway/utility-pool/utility-pool.ts";

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

  it("moves a run's file bytes to the thread instead of copying them; a small Buffer of Node's shared pool is copied", async () => {
    const big = new Uint8Array(1_000_000).fill(3);
    const run = pool.run({ utility: "bytes", input: { file: big }, nowMs: 0, seed: new Uint8Array(1) });
    // Transferred: the caller's view is detached at once, the thread has every byte.
    expect(big.byteLength).toBe(0);
    await expect(run).resolves.toEqual({ length: 1_000_000, sum: 3_000_000 });

    const small = Buffer.from("abc");
    const neighbour = Buffer.from("xyz");
    expect(small.buffer).toBe(neighbour.buffer);
    expect(transferablesOf({ file: small })).toEqual([]);
    await expect(pool.run({ utility: "bytes", input: { file: small }, nowMs: 0, seed: new Uint8Array(1) })).resolves.toEqual({ length: 3, sum: 97 + 98 + 99 });
    expect(small.toString()).toBe("abc");
    expect(neighbour.toString()).toBe("xyz");
    // Two views of one memory move it once.
    const shared = new ArrayBuffer(100_000);
    expect(transferablesOf({ file: new Uint8Array(shared, 0, 10), other: new Uint8Array(shared, 10, 10), text: "x" })).toEqual([shared]);
  }, 60_000);
});
