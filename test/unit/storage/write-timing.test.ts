import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { storeWriteMetrics } from "../../../runtime/index.ts";
import { timedClickHouse, timedDb, type ClickHouse, type Db, type Queryable } from "../../../storage/index.ts";

// svc_store_write_duration_seconds: the store's writes timed around the database ports, with a
// stopwatch the test moves (no wall clock).

function stopwatch(): { now: () => number; advance(s: number): void } {
  let t = 0;
  return { now: () => t, advance: (s) => (t += s) };
}

function sample(text: string, suffix: string, labels: string): string | undefined {
  return text.split("\n").find((l) => l.startsWith(`svc_store_write_duration_seconds_${suffix}{${labels}`))?.split(" ")[1];
}

describe("timed store writes", () => {
  it("time each transaction to its commit or rollback, labelled by engine and outcome, and leave queries untimed", async () => {
    const registry = new Registry();
    const clock = stopwatch();
    const inner: Db = {
      kind: "postgres",
      query: async <R,>() => [{ n: 1 }] as R[],
      exec: async () => undefined,
      listen: async () => ({ close: async () => undefined }),
      close: async () => undefined,
      async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
        clock.advance(0.03);
        return fn(this);
      },
    };
    const db = timedDb(inner, storeWriteMetrics(registry), clock.now);
    expect(await db.query("SELECT 1")).toEqual([{ n: 1 }]);
    expect(await db.tx(async () => "committed")).toBe("committed");
    await expect(
      db.tx(async () => {
        clock.advance(2);
        throw new Error("conflict");
      }),
    ).rejects.toThrow("conflict");
    const text = await registry.metrics();
    expect(sample(text, "count", 'engine="postgres",target="transaction",outcome="ok"')).toBe("1");
    expect(sample(text, "sum", 'engine="postgres",target="transaction",outcome="ok"')).toBe("0.03");
    expect(sample(text, "bucket", 'le="0.05",engine="postgres",target="transaction",outcome="ok"')).toBe("1");
    expect(sample(text, "bucket", 'le="0.025",engine="postgres",target="transaction",outcome="ok"')).toBe("0");
    expect(sample(text, "count", 'engine="postgres",target="transaction",outcome="error"')).toBe("1");
    expect(sample(text, "bucket", 'le="2.5",engine="postgres",target="transaction",outcome="error"')).toBe("1");
    expect(sample(text, "bucket", 'le="1",engine="postgres",target="transaction",outcome="error"')).toBe("0");
    expect(text.split("\n").filter((l) => l.startsWith("svc_store_write_duration_seconds_count"))).toHaveLength(2);
  });

  it("time each ClickHouse insert by table", async () => {
    const registry = new Registry();
    const clock = stopwatch();
    const inserted: string[] = [];
    const inner: ClickHouse = {
      version: "18.16.1",
      features: {} as ClickHouse["features"],
      query: async <R,>() => [] as R[],
      command: async () => undefined,
      close: async () => undefined,
      async insert(table, _columns, rows) {
        clock.advance(0.2);
        inserted.push(`${table}:${rows.length}`);
      },
    };
    const ch = timedClickHouse(inner, storeWriteMetrics(registry), clock.now);
    await ch.insert("crawl_pages", ["url"], [{ url: "a" }, { url: "b" }]);
    expect(inserted).toEqual(["crawl_pages:2"]);
    const text = await registry.metrics();
    expect(sample(text, "count", 'engine="clickhouse",target="crawl_pages",outcome="ok"')).toBe("1");
    expect(sample(text, "bucket", 'le="0.25",engine="clickhouse",target="crawl_pages",outcome="ok"')).toBe("1");
    expect(sample(text, "bucket", 'le="0.1",engine="clickhouse",target="crawl_pages",outcome="ok"')).toBe("0");
  });
});
