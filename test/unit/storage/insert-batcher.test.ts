import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InsertBatcher } from "../../../storage/clickhouse/insert-batcher.ts";
import type { ClickHouse } from "../../../storage/clickhouse/open-clickhouse.ts";

// Group commit of ClickHouse INSERTs: rows of several callers within the linger go in one INSERT;
// each caller learns the fate of the INSERT its rows were in. A fake server records the INSERTs.

type Row = { job: number; n: number };

function fakeClickHouse() {
  const inserts: { table: string; rows: Row[] }[] = [];
  let fail: Error | null = null;
  let pending: (() => void) | null = null;
  let hold = false;
  const ch = {
    async insert(table: string, _columns: readonly string[], rows: readonly Record<string, unknown>[]) {
      if (hold) await new Promise<void>((resolve) => (pending = resolve));
      if (fail) throw fail;
      inserts.push({ table, rows: rows as Row[] });
    },
  } as unknown as ClickHouse;
  return {
    ch,
    inserts,
    failNext: (err: Error | null) => void (fail = err),
    holdInserts: (on: boolean) => void (hold = on),
    release: () => {
      const p = pending;
      pending = null;
      p?.();
    },
  };
}

const rows = (job: number, count: number): Row[] => Array.from({ length: count }, (_, n) => ({ job, n }));

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("InsertBatcher", () => {
  it("writes the rows of every caller within the linger in one INSERT, and answers each caller only once it is written", async () => {
    const f = fakeClickHouse();
    const b = new InsertBatcher<Row>(f.ch, "crawl_pages", ["job", "n"], 250);
    const done: number[] = [];
    const first = b.insert(rows(1, 3)).then(() => done.push(1));
    await vi.advanceTimersByTimeAsync(100);
    const second = b.insert(rows(2, 2)).then(() => done.push(2));
    await vi.advanceTimersByTimeAsync(149);
    expect(f.inserts).toEqual([]);
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, second]);
    expect(f.inserts).toEqual([{ table: "crawl_pages", rows: [...rows(1, 3), ...rows(2, 2)] }]);
    expect(done).toEqual([1, 2]);
    // Rows after the write start a group of their own.
    const third = b.insert(rows(3, 1));
    await vi.advanceTimersByTimeAsync(250);
    await third;
    expect(f.inserts.map((i) => i.rows.length)).toEqual([5, 1]);
  });

  it("fails every caller of a failed INSERT with its error, and the next group is written as usual", async () => {
    const f = fakeClickHouse();
    const b = new InsertBatcher<Row>(f.ch, "t", ["job", "n"], 50);
    f.failNext(new Error("Too many parts"));
    const a = b.insert(rows(1, 1));
    const c = b.insert(rows(2, 1));
    const settled = Promise.allSettled([a, c]);
    await vi.advanceTimersByTimeAsync(50);
    expect((await settled).map((s) => (s.status === "rejected" ? (s.reason as Error).message : "ok"))).toEqual(["Too many parts", "Too many parts"]);
    expect(f.inserts).toEqual([]);
    f.failNext(null);
    const d = b.insert(rows(3, 2));
    await vi.advanceTimersByTimeAsync(50);
    await d;
    expect(f.inserts).toEqual([{ table: "t", rows: rows(3, 2) }]);
  });

  it("writes a group at once when it reaches maxRows, and groups one after another: a group waits for the INSERT before it", async () => {
    const f = fakeClickHouse();
    const b = new InsertBatcher<Row>(f.ch, "t", ["job", "n"], 1000, 4);
    f.holdInserts(true);
    const full = b.insert(rows(1, 4)); // closed at once, its INSERT held by the server
    const next = b.insert(rows(2, 1));
    await vi.advanceTimersByTimeAsync(1000); // the next group's linger is over: it waits for the first
    expect(f.inserts).toEqual([]);
    f.holdInserts(false);
    f.release();
    await full;
    await vi.advanceTimersByTimeAsync(0);
    await next;
    expect(f.inserts.map((i) => i.rows)).toEqual([rows(1, 4), rows(2, 1)]);
  });

  it("writes nothing for no rows", async () => {
    const f = fakeClickHouse();
    const b = new InsertBatcher<Row>(f.ch, "t", ["job", "n"], 10);
    await b.insert([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(f.inserts).toEqual([]);
  });
});
