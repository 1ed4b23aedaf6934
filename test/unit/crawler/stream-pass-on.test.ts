import { describe, expect, it } from "vitest";
import { ProbeResult, StreamItem, StreamResult, TOPICS } from "../../../proto/index.ts";
import { createLogger, InProcessBus } from "../../../runtime/index.ts";
import { CrawlerWorker, STREAM_MAX_HOPS } from "../../../crawler/worker.ts";
import type { CrawlerNode } from "../../../crawler/node.ts";
import type { CrawlerStreamKind } from "../../../crawler/stream/index.ts";
import { NO_WORKER_METRICS } from "../../../crawler/worker-metrics.ts";

// The confirmation of a failed probe names the node whose probe failed: that node passes it on
// (under another key) instead of running it, so that another node confirms; a node alone runs it.

const stubProbe: CrawlerStreamKind<"probe"> = { name: "probe", run: async () => ProbeResult.fromPartial({ outcomes: [] }) };

async function cluster(names: string[]) {
  const bus = new InProcessBus(5);
  const passed: string[] = [];
  const workers = names.map(
    (name) =>
      new CrawlerWorker({
        bus,
        scheduler: {} as never,
        kinds: {},
        node: {} as CrawlerNode,
        logger: createLogger("error"),
        leaseMs: 30_000,
        concurrency: 1,
        syncConcurrency: 1,
        worker: name,
        streams: { probe: stubProbe },
        streamConcurrency: 4,
        metrics: { ...NO_WORKER_METRICS, streamPassedOn: () => passed.push(name) },
      }),
  );
  const ran: string[] = [];
  const keys: string[] = [];
  await bus.subscribe(TOPICS.results, "test", async (m) => {
    ran.push(StreamResult.decode(m.payload).node);
    keys.push(m.key);
  });
  for (const w of workers) await w.start();
  const send = (avoidNode: string) =>
    bus.publish([{ topic: TOPICS.stream, key: "example.com#confirm", payload: StreamItem.encode(StreamItem.fromPartial({ plannedMs: 1, avoidNode, task: { $case: "probe", value: { targets: [] } } })).finish() }]);
  const settled = async (n: number) => {
    while (ran.length < n) await new Promise((r) => setTimeout(r, 5));
  };
  return { send, settled, ran, passed, keys, close: () => Promise.all(workers.map((w) => w.close())) };
}

describe("stream items meant for another node", () => {
  it("are run by another node than the one named", async () => {
    const c = await cluster(["a", "b"]);
    try {
      for (let i = 0; i < 10; i++) await c.send("a");
      await c.settled(10);
      expect(c.ran).toEqual(Array(10).fill("b"));
      // Every time "a" got one, it passed it on once (the bus hands messages round robin).
      expect(c.passed.every((n) => n === "a")).toBe(true);
      expect(c.passed.length).toBeGreaterThan(0);
    } finally {
      await c.close();
    }
  });

  it("are run by the node named when it is alone, after STREAM_MAX_HOPS hops under further keys", async () => {
    const c = await cluster(["a"]);
    try {
      await c.send("a");
      await c.settled(1);
      expect(c.ran).toEqual(["a"]);
      expect(c.passed).toEqual(Array(STREAM_MAX_HOPS).fill("a"));
      // The result answers under the key the item last travelled with.
      expect(c.keys).toEqual([`example.com#confirm${Array.from({ length: STREAM_MAX_HOPS }, (_, i) => `#${i + 1}`).join("")}`]);
    } finally {
      await c.close();
    }
  });

  it("without a node named, run where they land", async () => {
    const c = await cluster(["a", "b"]);
    try {
      await c.send("");
      await c.send("");
      await c.settled(2);
      expect(c.ran.sort()).toEqual(["a", "b"]);
      expect(c.passed).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
