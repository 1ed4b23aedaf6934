import { describe, expect, it } from "vitest";
import { pollDelayMs } from "../../bin/poll-delay.ts";

/** Requests a client following pollDelayMs makes over a job that runs durationMs (the first answer included). */
function requestsOver(durationMs: number): number {
  let n = 1;
  for (let t = 0; t < durationMs; n++) t += pollDelayMs(3, t);
  return n;
}

describe("polling a job within a key's hourly limit (120 requests by default)", () => {
  it("asks at poll_after_s for the first half minute, then waits a tenth of the time followed, at most a minute", () => {
    expect([0, 10_000, 30_000, 60_000, 300_000, 3_600_000].map((t) => pollDelayMs(3, t))).toEqual([3000, 3000, 3000, 6000, 30_000, 60_000]);
    expect(pollDelayMs(null, 0)).toBe(3000);
  });

  it("follows a 6-minute crawl in 38 requests (a flat 3 s would spend 120) and an hour-long job in fewer than 120", () => {
    expect(requestsOver(6 * 60_000)).toBe(38);
    expect(requestsOver(60 * 60_000)).toBeLessThan(120);
    expect(requestsOver(6 * 60_000)).toBeLessThan(6 * 20);
  });
});
