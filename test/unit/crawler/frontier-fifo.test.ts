// The frontier's queue: first in, first out across its compactions, at the size of a large crawl.
import { describe, expect, it } from "vitest";
import { Fifo } from "../../../crawler/crawl/crawl-frontier.ts";

describe("Fifo", () => {
  it("gives 300,000 items back in the order they came, pushes and shifts interleaved", () => {
    const q = new Fifo<number>();
    const out: number[] = [];
    let next = 0;
    // Two in, one out, until 300,000 are in; then drain.
    while (next < 300_000) {
      q.push(next++);
      q.push(next++);
      out.push(q.shift() as number);
    }
    expect(q.length).toBe(150_000);
    expect(q.some((x) => x === 150_000)).toBe(true);
    expect(q.some((x) => x === 149_999)).toBe(false);
    while (q.length > 0) out.push(q.shift() as number);
    expect(out.length).toBe(300_000);
    let ordered = true;
    for (let i = 0; i < out.length; i++) if (out[i] !== i) ordered = false;
    expect(ordered).toBe(true);
    expect([q.shift(), q.peek()]).toEqual([undefined, undefined]);
  });
});
