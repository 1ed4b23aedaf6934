import { describe, expect, it } from "vitest";
import { ProbeHealth } from "../../../crawler/index.ts";

describe("a crawler node's view of its own probes", () => {
  it("suspects itself when most of its recent probes failed across many domains", () => {
    const h = new ProbeHealth(60_000, 20, 5, 0.8);
    for (let i = 0; i < 19; i++) h.record(1000 + i, true, `site${i}.example`);
    expect(h.suspect(2000)).toBe(false); // too few to judge
    h.record(1100, true, "site19.example");
    expect(h.suspect(2000)).toBe(true);
    // A minute later those failures no longer count.
    expect(h.suspect(70_000)).toBe(false);
  });

  it("does not suspect itself when the failures are one provider's sites", () => {
    const h = new ProbeHealth(60_000, 20, 5, 0.8);
    for (let i = 0; i < 30; i++) h.record(1000, true, i % 2 === 0 ? "a.example" : "b.example");
    expect(h.suspect(1000)).toBe(false);
  });

  it("does not suspect itself while most probes succeed", () => {
    const h = new ProbeHealth(60_000, 20, 5, 0.8);
    for (let i = 0; i < 30; i++) h.record(1000, i % 3 === 0, `site${i}.example`);
    expect(h.suspect(1000)).toBe(false);
  });
});
