import { describe, expect, it } from "vitest";
import { nextUptimeState, uptimePercent, type ProbeFacts, type UptimeTarget } from "../../../analyzer/index.ts";

const fresh: UptimeTarget = { state: "unknown", since: null, suspectAt: null, fails: 0, successes: 0, slow: 0, recoveringAt: null };
const probe = (p: Partial<ProbeFacts>): ProbeFacts => ({ ok: true, at: 1000, totalMs: 100, confirm: false, held: false, cause: "", ...p });

/** Runs a sequence of probes from a state; returns each decision. */
function run(start: UptimeTarget, probes: ProbeFacts[]) {
  let t = start;
  return probes.map((p) => {
    const d = nextUptimeState(t, p);
    t = d.target;
    return d;
  });
}

describe("the uptime state machine", () => {
  it("takes a failure for a suspicion and asks for a confirmation; the failed confirmation is the down, dated from the first failure", () => {
    const [up, suspect, down] = run(fresh, [probe({ at: 100 }), probe({ ok: false, at: 400, cause: "timeout" }), probe({ ok: false, at: 401, confirm: true })]);
    expect(up).toMatchObject({ target: { state: "up", since: 100 }, transition: null, confirm: false });
    expect(suspect).toMatchObject({ target: { state: "suspect", suspectAt: 400, since: 100 }, transition: null, confirm: true });
    expect(down).toMatchObject({ target: { state: "down", since: 400 }, transition: "down", at: 400, confirm: false });
  });

  it("lets a blip pass: a confirmation that succeeds leaves the site up since it was", () => {
    const [, , blip] = run(fresh, [probe({ at: 100 }), probe({ ok: false, at: 400 }), probe({ at: 401, confirm: true })]);
    expect(blip).toMatchObject({ target: { state: "up", since: 100, suspectAt: null }, transition: null });
  });

  it("ends a down after two consecutive successes, not one, dated from the first of them", () => {
    const down: UptimeTarget = { state: "down", since: 400, suspectAt: 400, fails: 2, successes: 0, slow: 0, recoveringAt: null };
    const [one, fail, two, three] = run(down, [probe({ at: 700 }), probe({ ok: false, at: 1000 }), probe({ at: 1300 }), probe({ at: 1600 })]);
    expect(one).toMatchObject({ target: { state: "down", successes: 1, recoveringAt: 700 }, transition: null });
    expect(fail).toMatchObject({ target: { state: "down", successes: 0, recoveringAt: null }, transition: null, confirm: false });
    expect(two).toMatchObject({ target: { state: "down", successes: 1, recoveringAt: 1300 }, transition: null });
    // The site answered again from 1300: the success at 1600 only confirmed it.
    expect(three).toMatchObject({ target: { state: "up", since: 1300, recoveringAt: null }, transition: "up", at: 1300 });
  });

  it("ignores the failures of a node that suspects itself", () => {
    const up: UptimeTarget = { state: "up", since: 100, suspectAt: null, fails: 0, successes: 3, slow: 0, recoveringAt: null };
    const [held] = run(up, [probe({ ok: false, held: true, at: 400, cause: "dns" })]);
    expect(held).toMatchObject({ target: up, transition: null, confirm: false });
  });

  it("calls three slow answers in a row degraded, and two fast ones the end of it", () => {
    const up: UptimeTarget = { state: "up", since: 100, suspectAt: null, fails: 0, successes: 3, slow: 0, recoveringAt: null };
    const d = run(up, [probe({ totalMs: 5000, at: 1 }), probe({ totalMs: 5000, at: 2 }), probe({ totalMs: 100, at: 3 }), probe({ totalMs: 5000, at: 4 }), probe({ totalMs: 5000, at: 5 }), probe({ totalMs: 5000, at: 6 }), probe({ at: 7 }), probe({ at: 8 })]);
    expect(d.map((x) => x.transition)).toEqual([null, null, null, null, null, "degraded", null, "recovered"]);
    expect(d[5]!.target).toMatchObject({ state: "degraded", since: 6 });
    expect(d[7]!.target).toMatchObject({ state: "up", since: 8 });
  });

  it("measures uptime as time: a share of the seconds observed, to the thousandth of a percent", () => {
    expect(uptimePercent(900, 2700)).toBe(66.667);
    expect(uptimePercent(0, 86_400)).toBe(100);
    expect(uptimePercent(86_400, 86_400)).toBe(0);
    expect(uptimePercent(0, 0)).toBeNull();
  });
});
