import { describe, expect, it } from "vitest";
import { InProcessBus, type BusMessage } from "../../runtime/index.ts";

const message = (key: string, n: number): BusMessage => ({ topic: "work", key, payload: Uint8Array.of(n) });

/** Resolves once `count` messages were handled, with what each handler saw. */
function collector(count: number) {
  const seen: string[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const handler = (name: string) => async (m: BusMessage) => {
    seen.push(`${name}:${m.key}:${m.payload[0]}`);
    if (seen.length === count) done();
  };
  return { seen, all, handler };
}

describe("InProcessBus", () => {
  it("keeps what was published before anyone subscribed and hands it to the first subscriber, in order", async () => {
    // The scheduler republishes unfinished jobs at start; the worker subscribes once its parse
    // threads are ready. Dropping those messages lost the jobs (they stayed queued for good).
    const bus = new InProcessBus(10);
    await bus.publish([message("a.test", 1), message("a.test", 2), message("b.test", 3)]);
    const c = collector(4);
    await bus.subscribe("work", "crawlers", c.handler("w1"));
    await bus.publish([message("a.test", 4)]);
    await c.all;
    expect(c.seen.filter((s) => s.includes("a.test"))).toEqual(["w1:a.test:1", "w1:a.test:2", "w1:a.test:4"]);
    expect(c.seen).toContain("w1:b.test:3");
    await bus.close();
  });

  it("hands kept messages over once: a group that subscribes later gets only what is published after", async () => {
    const bus = new InProcessBus(10);
    await bus.publish([message("a.test", 1)]);
    const first = collector(2);
    await bus.subscribe("work", "crawlers", first.handler("crawlers"));
    const later = collector(1);
    await bus.subscribe("work", "audit", later.handler("audit"));
    await bus.publish([message("a.test", 2)]);
    await Promise.all([first.all, later.all]);
    expect(first.seen).toEqual(["crawlers:a.test:1", "crawlers:a.test:2"]);
    expect(later.seen).toEqual(["audit:a.test:2"]);
    await bus.close();
  });

  it("retries a handler that throws until it succeeds", async () => {
    const bus = new InProcessBus(5);
    let calls = 0;
    const handled = new Promise<number>((resolve) =>
      void bus.subscribe("work", "crawlers", async () => {
        calls += 1;
        if (calls < 3) throw new Error("not yet");
        resolve(calls);
      }),
    );
    await bus.publish([message("a.test", 1)]);
    expect(await handled).toBe(3);
    await bus.close();
  });
});
