import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CrawledPage } from "../../../proto/index.ts";
import { CrawlCheckpoint, type StoreBatching } from "../../../crawler/crawl/crawl-checkpoint.ts";

// When a crawl's pages are stored (the checkpoint): batches of `every`, growing up to `max` while
// the pages come faster than `every` per `afterMs`. Fake timers: the time is the test's.

const page = (i: number) => CrawledPage.fromPartial({ url: `https://site.example/p/${i}`, status: 200, depth: 1 });

function checkpoint(batching: StoreBatching) {
  const batches: { urls: number; done: number }[] = [];
  const failures: unknown[] = [];
  const cp = new CrawlCheckpoint(
    async (pages, progress) => void batches.push({ urls: pages.length, done: progress.done }),
    { now: () => Date.now(), ...batching },
    () => 1000,
    (err) => failures.push(err),
  );
  let n = 0;
  /** Records `count` pages, `gapMs` apart. */
  const record = async (count: number, gapMs = 0) => {
    for (let i = 0; i < count; i++) {
      if (gapMs > 0) await vi.advanceTimersByTimeAsync(gapMs);
      cp.record(page(n++));
    }
    await vi.advanceTimersByTimeAsync(0);
  };
  return { cp, batches, failures, record };
}

beforeEach(() => void vi.useFakeTimers({ now: 1_800_000_000_000 }));
afterEach(() => void vi.useRealTimers());

describe("a crawl's store batches", () => {
  it("without max and afterMs are exactly `every` pages, the rest at the end", async () => {
    const { cp, batches, record } = checkpoint({ every: 50 });
    await record(120);
    expect(batches).toEqual([
      { urls: 50, done: 50 },
      { urls: 50, done: 100 },
    ]);
    await cp.drain();
    expect(batches.at(-1)).toEqual({ urls: 20, done: 120 });
  });

  it("of a fast crawl grow to `max` pages when they come faster than `every` per afterMs", async () => {
    const { cp, batches, record } = checkpoint({ every: 50, max: 200, afterMs: 2000 });
    await record(450, 1); // 1,000 pages a second
    expect(batches).toEqual([
      { urls: 200, done: 200 },
      { urls: 200, done: 400 },
    ]);
    await cp.drain();
    expect(batches.map((b) => b.urls)).toEqual([200, 200, 50]);
  });

  it("are stored once their first page has waited afterMs, with `every` pages or more, even when no page follows", async () => {
    const { batches, record } = checkpoint({ every: 50, max: 200, afterMs: 2000 });
    await record(80, 20); // 50 pages a second: the first at 20 ms, the 80th at 1,600 ms
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(419);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1); // 2 s after the batch's first page, and the crawl has stalled
    expect(batches).toEqual([{ urls: 80, done: 80 }]);
    // The next batch starts its own clock: its first page at 2,040 ms, its 60th at 3,220 ms.
    await record(60, 20);
    await vi.advanceTimersByTimeAsync(819);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([
      { urls: 80, done: 80 },
      { urls: 60, done: 140 },
    ]);
  });

  it("of a slow crawl stay `every` pages, stored as the 50th arrives (its first has waited longer than afterMs)", async () => {
    const { cp, batches, record } = checkpoint({ every: 50, max: 200, afterMs: 2000 });
    await record(49, 100); // 10 pages a second: 4.9 s
    expect(batches).toEqual([]);
    await record(1, 100);
    expect(batches).toEqual([{ urls: 50, done: 50 }]);
    await record(10, 100);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(batches).toHaveLength(1); // fewer than `every`: they wait for more, or the end
    await cp.drain();
    expect(batches.at(-1)).toEqual({ urls: 10, done: 60 });
  });

  it("drained stop the pending timer: nothing is stored twice", async () => {
    const { cp, batches, record } = checkpoint({ every: 5, max: 100, afterMs: 1000 });
    await record(7);
    await cp.drain();
    await vi.advanceTimersByTimeAsync(5000);
    expect(batches).toEqual([{ urls: 7, done: 7 }]);
  });
});
