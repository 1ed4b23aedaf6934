// Pages blocked from indexing (noindex, robots.txt blocking all) and then dropping out of the
// index; with search data, the traffic that fell with them. The chain the owner asked for first:
// "traffic fell because pages dropped out of the index after a robots change".
import { dayOf, dayStart } from "../evidence.ts";
import { confidence, type Cause, type CauseEvidence, type DiagnosisRule } from "../rule.ts";
import { DROP_SHARE, failingSince, indexChange, trafficChange } from "../signals.ts";

/** Checks whose failure tells search engines to drop pages. */
export const BLOCKING_CHECKS: readonly string[] = Object.freeze(["robots_blocks_all", "noindex"]);

export const indexDropAfterBlock: DiagnosisRule = {
  code: "index_drop_after_block",
  title: "Pages dropped out of the index after they were blocked",
  needs: ["report", "indexing"],
  kind: "internal",
  evaluate({ ev }): Cause | null {
    const blocks = BLOCKING_CHECKS.map((code) => ({ code, since: failingSince(ev.runs, code) })).filter((b) => b.since !== null);
    const first = blocks.sort((a, b) => a.since!.checkedAt - b.since!.checkedAt)[0];
    if (!first) return null;
    const since = first.since!;
    const index = indexChange(ev.indexed);
    // The drop must come after the block: its peak no later than the block's day, the fall after it.
    if (!index || index.changePct > -DROP_SHARE * 100 || dayStart(index.toDay) < dayStart(dayOf(since.checkedAt))) return null;
    const what = since.failing.find((f) => f.code === first.code)!.title;
    const evidence: CauseEvidence[] = [
      { source: "report", fact: `${first.code} fails since the check of ${dayOf(since.checkedAt)} (${what})` },
      { source: "indexing", fact: `indexed pages ${index.from} (${index.fromDay}) → ${index.to} (${index.toDay}), ${index.changePct}%` },
    ];
    const traffic = trafficChange(ev.clicks);
    const trafficFell = traffic !== null && traffic.changePct <= -DROP_SHARE * 100;
    if (trafficFell) evidence.push({ source: "search", fact: `clicks per day ${traffic.before} → ${traffic.recent}, ${traffic.changePct}%` });
    const dropped = `pages dropped out of the index (${index.from} → ${index.to}) after ${first.code === "noindex" ? "a noindex" : "a robots.txt change"} on ${dayOf(since.checkedAt)}`;
    return {
      code: this.code,
      title: this.title,
      text: trafficFell ? `Traffic fell ${Math.abs(traffic.changePct)}% because ${dropped}.` : `${dropped[0]!.toUpperCase()}${dropped.slice(1)}.`,
      severity: "critical",
      confidence: confidence(trafficFell ? 0.95 : 0.8),
      since: since.checkedAt,
      evidence,
      fixedBy: blocks.map((b) => b.code),
      action: "Lift the block (robots.txt or the noindex directive), then ask the search engines to recrawl.",
    };
  },
};
