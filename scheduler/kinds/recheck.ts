import { RecheckTask, SiteFacts } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/** What the gateway sends as a re-check look's target (analyzer/followup/narrow/, docs/followup.md). */
export interface RecheckTarget {
  /** The origin of the site's last report (scheme://host[:port]). */
  readonly origin: string;
  /** robots.txt, its sitemaps and the home page. */
  readonly robots: boolean;
  /** Pages to fetch (on the origin; the crawler takes the first 10). */
  readonly urls: readonly string[];
}

function parseTarget(target: string | null): RecheckTarget {
  const parsed = JSON.parse(target ?? "null") as RecheckTarget | null;
  if (!parsed || typeof parsed.origin !== "string" || !Array.isArray(parsed.urls)) throw new Error("a re-check job without its look");
  return parsed;
}

/**
 * A task re-check's narrow look that no single-check kind takes (robots.txt with its sitemaps, the
 * few pages a page check failed on): the facts are the job's result, which the gateway judges. The
 * gateway starts it uncharged (a re-check counts against rechecks_per_day); a charged start would
 * cost one check.
 */
export const recheckKind: SchedulerKind<"recheck"> = {
  name: "recheck",
  lanes: ["sync"],
  cost: 1,
  hostOf: (target) => new URL(parseTarget(target).origin).host,
  task: async (_ctx, job) => {
    const t = parseTarget(job.target);
    return RecheckTask.fromPartial({ origin: t.origin, robots: t.robots, urls: [...t.urls] });
  },
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: SiteFacts.toJSON(result.facts ?? SiteFacts.fromPartial({})) }),
};
