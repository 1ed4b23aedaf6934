import { describe, expect, it, vi } from "vitest";
import { collectGarbage } from "../../../crawler/index.ts";

/** Objects a finished job leaves behind and the few it keeps (every 50th), spread over the heap's pages. */
const kept: unknown[] = [];

/** About 64 MB of objects, all but one in 50 unreachable once this returns; the heap used and committed with them. */
function makeGarbage(): { used: number; committed: number } {
  const junk = Array.from({ length: 64 }, (_, k) => Array.from({ length: 20_000 }, (_, i) => ({ i, s: `${k}:${i}` })));
  for (const a of junk) for (let i = 0; i < a.length; i += 50) kept.push(a[i]);
  const { heapUsed, heapTotal } = process.memoryUsage();
  return { used: heapUsed, committed: heapTotal };
}

describe("collectGarbage", () => {
  it("runs full collections without --expose-gc at start: garbage a job left is gone, and the heap's pages with it, fragmented ones too", () => {
    // From a collected heap: garbage that loading the modules left, collected while the job's
    // garbage is made, made the heap look smaller after it once (-4.5 MB instead of +64 on CI).
    expect(collectGarbage()).toBe(true);
    const before = process.memoryUsage().heapUsed;
    const grown = makeGarbage();
    expect(grown.used - before).toBeGreaterThan(40 * 1024 * 1024);
    expect(collectGarbage()).toBe(true);
    const after = process.memoryUsage();
    expect(after.heapUsed).toBeLessThan(grown.used - 40 * 1024 * 1024);
    // Committed memory given back, not only freed inside the heap (one collection left 108 of 119 MB committed).
    expect(after.heapTotal).toBeLessThan(grown.committed - 40 * 1024 * 1024);
    expect(kept).toHaveLength(64 * 400);
    // Once set up, again.
    expect(collectGarbage()).toBe(true);
  });

  it("uses the gc that --expose-gc at start exposes (the launchers pass it) when there is one", async () => {
    const exposed = vi.fn();
    const g = globalThis as { gc?: unknown };
    const had = g.gc;
    g.gc = exposed;
    try {
      vi.resetModules();
      const fresh = await import("../../../crawler/heap-trim.ts");
      expect(fresh.collectGarbage()).toBe(true);
      expect(exposed).toHaveBeenCalledTimes(2);
    } finally {
      if (had === undefined) delete g.gc;
      else g.gc = had;
    }
  });
});
