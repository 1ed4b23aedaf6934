// Lantern's thread (crawler/browser/lantern-runner.ts): a trace it cannot read is refused with the
// reason (the page's run then states its figures unthrottled), and the thread keeps serving.
import { afterAll, describe, expect, it } from "vitest";
import { threadLantern } from "../../../crawler/browser/lantern-runner.ts";
import { PROFILES } from "../../../crawler/index.ts";
import { TRACE_CATEGORIES, traceEventKept } from "../../../crawler/browser/lantern.ts";

const lantern = threadLantern();
afterAll(() => lantern.close());

describe("Lantern on its own thread", () => {
  it("refuses a trace without a navigation, and one that is not JSON, each with its reason", async () => {
    await expect(lantern.simulate(["[]"], PROFILES.mobile.throttling)).rejects.toThrow(/navigation|trace/i);
    await expect(lantern.simulate(["[{"], PROFILES.mobile.throttling)).rejects.toThrow(/JSON/);
  });

  it("refuses work once closed", async () => {
    const closed = threadLantern();
    await closed.close();
    await expect(closed.simulate(["[]"], PROFILES.desktop.throttling)).rejects.toThrow("closed");
  });
});

describe("the trace Svc records", () => {
  it("asks for every category Lighthouse 12.8 records, screenshots and frames included", () => {
    const ours = new Set(TRACE_CATEGORIES.split(","));
    for (const c of ["disabled-by-default-devtools.screenshot", "disabled-by-default-devtools.timeline.frame", "devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "v8.execute", "blink.user_timing", "latencyInfo"]) expect(ours.has(c), c).toBe(true);
    expect(TRACE_CATEGORIES.startsWith("-*,")).toBe(true);
  });

  it("keeps what Lantern reads and drops the frames' JPEGs and the scripts' sources", () => {
    const kept = [
      { cat: "devtools.timeline", name: "ResourceSendRequest" },
      { cat: "loading", name: "largestContentfulPaint::Candidate" },
      { cat: "disabled-by-default-devtools.timeline.frame", name: "DrawFrame" },
      { cat: "__metadata", name: "thread_name" },
      { name: "no category" },
    ];
    const dropped = [
      { cat: "disabled-by-default-devtools.screenshot", name: "Screenshot" },
      { cat: "disabled-by-default-devtools.v8-source-rundown-sources", name: "ScriptCatchup" },
      { cat: "disabled-by-default-devtools.v8-source-rundown", name: "ScriptCompiled" },
    ];
    expect([...kept, ...dropped].filter(traceEventKept)).toEqual(kept);
  });
});
