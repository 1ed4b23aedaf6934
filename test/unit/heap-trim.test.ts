import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../runtime/index.ts";

/** About 64 MB of objects, unreachable once this returns (as a finished job's structures are); the heap used with them. */
function makeGarbage(): number {
  const junk = Array.from({ length: 64 }, (_, k) => Array.from({ length: 20_000 }, (_, i) => ({ i, s: `${k}:${i}` })));
  return junk.length > 0 ? process.memoryUsage().heapUsed : 0;
}

describe("collectGarbage", () => {
  it("runs a full collection without --expose-gc at start: garbage a job left is gone from the heap at once", () => {
    const before = process.memoryUsage().heapUsed;
    const grown = makeGarbage();
    expect(grown - before).toBeGreaterThan(40 * 1024 * 1024);
    expect(collectGarbage()).toBe(true);
    expect(process.memoryUsage().heapUsed).toBeLessThan(grown - 40 * 1024 * 1024);
    // Once set up, again.
    expect(collectGarbage()).toBe(true);
  });
});
