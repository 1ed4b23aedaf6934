import { unixSeconds } from "../../runtime/index.ts";
import { probeMessages } from "../stream/probe.ts";
import type { Planner } from "./planner.ts";

/**
 * Uptime slots: each monitored host is probed every interval of its plan (the shortest among the
 * accounts that monitor it), at a stable offset; due probes go out as one stream batch per
 * registrable domain, through the outbox.
 */
export function uptimePlanner(): Planner {
  let lastSync = -Infinity;
  return {
  name: "uptime",
  everyMs: (config) => config.uptimePlanEveryMs,
  async run(ctx) {
    const now = unixSeconds(ctx.clock);
    // Every third pass the monitored hosts are brought into the targets (new sites, removed ones,
    // plan changes). Timer time, as the planners' intervals: the injected clock dates slots only.
    if (performance.now() - lastSync >= 3 * ctx.config.uptimePlanEveryMs) {
      await ctx.store.uptime.syncTargets(now);
      lastSync = performance.now();
    }
    // An idle pass is one read (it was a transaction of three statements every 5 s).
    if (!(await ctx.store.uptime.anyDue(now))) return 0;
    let planned = 0;
    for (;;) {
      // The slots move and the probes' messages are written in one unit: a crash before the
      // relay publishes loses nothing.
      const n = await ctx.store.tx(async (t) => {
        const due = await t.uptime.takeDue(now, 2000);
        for (const m of probeMessages(due, ctx.config, ctx.clock.nowMs())) await t.outbox.enqueue(m, now);
        return due.length;
      });
      planned += n;
      if (n < 2000) break;
    }
    if (planned > 0) ctx.kick();
    return planned;
  },
  };
}
