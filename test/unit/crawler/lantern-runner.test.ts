// Lantern's thread (crawler/browser/lantern-runner.ts): a trace it cannot read is refused with the
// reason (the page's run then states its figures unthrottled), and the thread keeps serving.
import { afterAll, describe, expect, it } from "vitest";
import { threadLantern } from "../../../crawler/browser/lantern-runner.ts";
import { PROFILES } from "../../../crawler/index.ts";

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
