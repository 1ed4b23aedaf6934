// Pages blocked from indexing and then dropping out of the index; with search data, the traffic
// that fell with them. The chain the owner asked for first: "traffic fell because pages dropped
// out of the index after a robots change". A robots.txt block is read from the diff of the
// versions analyses stored (the Disallow rule a change added for a search engine, named), a
// noindex from the check that fails since a given check.
import { dayOf, dayStart, type DayValue, type SiteEvidence } from "../evidence.ts";
import { blockingRule, robotsDiff } from "../robots-lines.ts";
import { confidence, type Cause, type CauseEvidence, type DiagnosisRule } from "../rule.ts";
import { DROP_SHARE, failingSince, indexChange, trafficChange } from "../signals.ts";

/** Checks whose failure tells search engines to drop pages (robots.txt is read from its diff instead). */
export const BLOCKING_CHECKS: readonly string[] = Object.freeze(["noindex"]);

/** A block of indexing: since when, in words, and what fixes it. */
interface Block {
  readonly since: number;
  /** The block was first seen at the site's first check: it may be older, its start is unknown. */
  readonly seenFirst: boolean;
  /** "a noindex", or what the robots.txt change added. */
  readonly what: string;
  readonly evidence: CauseEvidence;
  readonly fixedBy: readonly string[];
  readonly action: string;
}

/** Rules quoted in a text at most (the evidence counts the rest). */
const QUOTED = 2;

function quote(rules: readonly { line: string; path: string; agent: string }[]): string {
  const shown = rules.slice(0, QUOTED).map((r) => `"Disallow: ${r.path}" for User-agent: ${r.agent}`).join(" and ");
  return rules.length > QUOTED ? `${shown} (and ${rules.length - QUOTED} more)` : shown;
}

/**
 * robots.txt changes that added Disallow rules for a search engine that are still in force: one
 * block per change, since the analysis that first read it.
 */
function robotsBlocks(ev: SiteEvidence): Block[] {
  const versions = ev.robots ?? [];
  const latest = new Set(versions.at(-1)?.lines ?? []);
  const blocksAll = ev.runs.at(-1)?.failing.some((f) => f.code === "robots_blocks_all") ?? false;
  const out: Block[] = [];
  for (let i = 1; i < versions.length; i++) {
    const before = versions[i - 1]!;
    const version = versions[i]!;
    const rules = robotsDiff(before.lines, version.lines)
      .added.filter((line) => latest.has(line))
      .flatMap((line) => {
        const rule = blockingRule(line);
        return rule ? [{ line, ...rule }] : [];
      });
    if (rules.length === 0) continue;
    const day = dayOf(version.seenAt);
    out.push({
      since: version.seenAt,
      seenFirst: false,
      what: `robots.txt added ${quote(rules)}`,
      evidence: { source: "report", fact: `robots.txt changed on ${day}: added ${rules.map((r) => r.line).join("; ")}` },
      fixedBy: blocksAll ? ["robots_blocks_all"] : [],
      action: `Remove ${quote(rules)} from robots.txt (or add Allow rules for the pages to index), then ask the search engines to recrawl.`,
    });
  }
  return out;
}

function noindexBlock(ev: SiteEvidence): Block[] {
  return BLOCKING_CHECKS.flatMap((code) => {
    const since = failingSince(ev.runs, code);
    if (!since) return [];
    const title = since.failing.find((f) => f.code === code)!.title;
    return [
      {
        since: since.checkedAt,
        seenFirst: since === ev.runs[0],
        what: "a noindex",
        evidence: { source: "report", fact: `${code} fails since the check of ${dayOf(since.checkedAt)} (${title})` },
        fixedBy: [code],
        action: "Lift the block (robots.txt or the noindex directive), then ask the search engines to recrawl.",
      },
    ];
  });
}

/**
 * The indexed-pages series from the block on: its last point on or before the block's day (the
 * level the block met), then every later one. A fall that began before the block was seen is not
 * the block's doing, so the series never reaches back past it; a block older than every point
 * keeps them all.
 */
function afterBlock(indexed: readonly DayValue[], since: number): DayValue[] {
  const day = dayStart(dayOf(since));
  let from = 0;
  for (let i = 0; i < indexed.length; i++) if (dayStart(indexed[i]!.day) <= day) from = i;
  return indexed.slice(from);
}

export const indexDropAfterBlock: DiagnosisRule = {
  code: "index_drop_after_block",
  title: "Pages dropped out of the index after they were blocked",
  needs: ["report", "indexing"],
  kind: "internal",
  evaluate({ ev }): Cause | null {
    const blocks = [...noindexBlock(ev), ...robotsBlocks(ev)].sort((a, b) => a.since - b.since);
    const first = blocks[0];
    if (!first) return null;
    const index = indexChange(afterBlock(ev.indexed, first.since));
    if (!index || index.changePct > -DROP_SHARE * 100) return null;
    const evidence: CauseEvidence[] = [first.evidence, { source: "indexing", fact: `indexed pages ${index.from} (${index.fromDay}) → ${index.to} (${index.toDay}), ${index.changePct}%` }];
    const traffic = trafficChange(ev.clicks);
    const trafficFell = traffic !== null && traffic.changePct <= -DROP_SHARE * 100;
    if (trafficFell) evidence.push({ source: "search", fact: `clicks per day ${traffic.before} → ${traffic.recent}, ${traffic.changePct}%` });
    const when = first.seenFirst ? `already there at the first check, on ${dayOf(first.since)}` : `on ${dayOf(first.since)}`;
    const dropped = `pages dropped out of the index (${index.from} → ${index.to}) after ${first.what} ${when}`;
    return {
      code: this.code,
      title: this.title,
      text: trafficFell ? `Traffic fell ${Math.abs(traffic.changePct)}% because ${dropped}.` : `${dropped[0]!.toUpperCase()}${dropped.slice(1)}.`,
      severity: "critical",
      confidence: confidence(trafficFell ? 0.95 : 0.8),
      since: first.since,
      evidence,
      fixedBy: [...new Set(blocks.flatMap((b) => b.fixedBy))],
      action: first.action,
    };
  },
};
