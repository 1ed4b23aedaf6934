import { afterAll, describe, expect, it } from "vitest";
import { createUtilityPool, PoolBusyError, RunAbandonedError, transferablesOf, type PoolRun, type UtilityPool } from "../../../gateway/utility-pool/utility-pool.ts";

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

const STAND_IN = new URL("./threads/hog-thread.ts", import.meta.url);
const run = (p: UtilityPool, utility: string, extra: Partial<PoolRun> = {}) => p.run({ utility, input: {}, nowMs: 0, seed: new Uint8Array(1), ...extra });
/** When a promise settles, in ms since `t0`, and how. */
const settled = (t0: number, p: Promise<unknown>): Promise<{ at: number; ok?: unknown; err?: Error }> =>
  p.then(
    (v) => ({ at: performance.now() - t0, ok: v }),
    (e: Error) => ({ at: performance.now() - t0, err: e }),
  );

describe("the utility pool as a bulkhead between accounts", () => {
  it("serves accounts in turn, and refuses an account's run past its cap of running and waiting runs", async () => {
    const p = createUtilityPool({ size: 1, cpuMs: 20_000, memoryMb: 64, entry: STAND_IN, perCaller: { running: 1, waiting: 2 } });
    try {
      await run(p, "warm");
      const order: string[] = [];
      const track = (name: string, q: Promise<unknown>) => q.then(() => order.push(name));
      const a = [1, 2, 3].map((i) => track(`a${i}`, run(p, "wait", { caller: "a", input: { ms: 150 } })));
      await expect(run(p, "wait", { caller: "a", input: { ms: 150 } })).rejects.toSatisfy((e) => e instanceof PoolBusyError && e.retryAfterS === 20);
      const b = track("b", run(p, "echo", { caller: "b" }));
      await Promise.all([...a, b]);
      // b came after all three of a's, and ran right after the one that was running.
      expect(order).toEqual(["a1", "b", "a2", "a3"]);
    } finally {
      await p.close();
    }
  }, 60_000);

  it("drops a waiting run whose caller has gone, cuts a running one, and a spare thread takes the next run at once", async () => {
    const p = createUtilityPool({ size: 1, cpuMs: 20_000, memoryMb: 64, entry: STAND_IN, spare: true });
    try {
      const tLoad = performance.now();
      await run(p, "warm");
      const loadMs = performance.now() - tLoad;
      await expect.poll(() => p.ready && p.threads === 2, { timeout: 20_000 }).toBe(true);
      const gone = new AbortController();
      const t0 = performance.now();
      const spinning = settled(t0, run(p, "spin", { caller: "a", signal: gone.signal }));
      const waitingRun = settled(t0, run(p, "echo", { caller: "a", signal: gone.signal }));
      setTimeout(() => gone.abort(), 200);
      const [cut, dropped] = await Promise.all([spinning, waitingRun]);
      expect(cut.err).toBeInstanceOf(RunAbandonedError);
      expect((cut.err as RunAbandonedError).started).toBe(true);
      expect((dropped.err as RunAbandonedError).started).toBe(false);
      // The spare was loaded: the next caller does not wait for a thread to start (as the first run did).
      const t1 = performance.now();
      await expect(run(p, "echo", { caller: "b" })).resolves.toEqual({ ran: "echo" });
      expect(performance.now() - t1).toBeLessThan(loadMs / 2);
    } finally {
      await p.close();
    }
  }, 60_000);

  it("answers PoolBusyError to a run that waited past the queue deadline", async () => {
    const p = createUtilityPool({ size: 1, cpuMs: 5_000, memoryMb: 64, entry: STAND_IN, queueMs: 300 });
    try {
      // Loading the thread counts as waiting too: it is loaded first.
      p.start();
      await expect.poll(() => p.ready, { timeout: 20_000 }).toBe(true);
      const t0 = performance.now();
      const long = run(p, "wait", { caller: "a", input: { ms: 1_000 } });
      const late = await settled(t0, run(p, "echo", { caller: "b" }));
      expect(late.err).toBeInstanceOf(PoolBusyError);
      expect(late.err?.message).toBe("the utility could not start within 0.3 s: the utility threads are busy; retry shortly");
      expect(late.at).toBeGreaterThanOrEqual(290);
      expect(late.at).toBeLessThan(900);
      await expect(long).resolves.toEqual({ ran: "wait" });
    } finally {
      await p.close();
    }
  }, 60_000);

  it("keeps a process host whose first run loaded what every run uses, and retires one that a later run left swollen", async () => {
    const p = createUtilityPool({ size: 1, cpuMs: 20_000, memoryMb: 64, entry: STAND_IN, isolation: "process", rssMb: 1_000 });
    const pid = async (mb: number) => ((await p.run({ utility: "keep", input: { mb }, nowMs: 0, seed: new Uint8Array(32) })) as { pid: number }).pid;
    try {
      // The first run loads 56 MB that stays (og_image_generator: libvips, fonts, a layout engine):
      // the host's working set, not a leak; the next run keeps 24 MB more, within what a host may keep.
      const first = await pid(56);
      expect(await pid(24)).toBe(first);
      expect(await pid(0)).toBe(first);
      // A run that leaves 120 MB behind retires its host: the next run has a new process.
      expect(await pid(120)).toBe(first);
      expect(await pid(0)).not.toBe(first);
    } finally {
      await p.close();
    }
  }, 60_000);

  it("kills a process host whose resident memory passes its limit (memory a thread's heap limit does not see), and answers the next run", async () => {
    const threads = createUtilityPool({ size: 1, cpuMs: 1_500, memoryMb: 64, entry: STAND_IN });
    const processes = createUtilityPool({ size: 1, cpuMs: 20_000, memoryMb: 64, entry: STAND_IN, isolation: "process", rssMb: 300 });
    try {
      // In a thread, 16 MB Buffers every 5 ms are not the heap's: only the time limit ends it.
      await expect(run(threads, "native")).rejects.toMatchObject({ code: "tool_failed", message: "the run was stopped after 1500 ms (the time limit of a utility run)" });
      const t0 = performance.now();
      await expect(run(processes, "native")).rejects.toMatchObject({ code: "tool_failed", message: "the run was stopped: it needed more than the 300 MB of memory an image run may use" });
      expect(performance.now() - t0).toBeLessThan(10_000);
      await expect(run(processes, "echo")).resolves.toEqual({ ran: "echo" });
    } finally {
      await threads.close();
      await processes.close();
    }
  }, 60_000);
});
