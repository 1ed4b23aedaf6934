import { AnalyzeResult } from "../../proto/index.ts";
import { collectSiteFacts } from "../site/collect-facts.ts";
import type { CrawlerKind } from "./kind.ts";
import { ThrottledWorkError } from "../work-errors.ts";

/** When an analysis whose browser crashed is tried again. */
export const BROWSER_CRASH_RETRY_MS = 30_000;

/** A site analysis: home page, robots.txt, sitemaps, a page sample, TLS and DNS facts. */
export const analyzeKind: CrawlerKind<"analyze"> = {
  name: "analyze",
  async run(task, ctx) {
    const node = ctx.node;
    const politeness = await node.politeness(ctx.host);
    const facts = await collectSiteFacts(ctx.host, { ...node.collectOptions(politeness, task.pageSample, ctx.sync), watchUrls: task.watch }, {
      egress: node.egress,
      clock: node.clock,
      randomHex: node.randomHex,
      onProgress: (p, step) => ctx.progress(p, step),
      signal: ctx.signal,
      parse: node.pool.extract,
      metrics: node.fetchMetrics,
      // The synchronous lane has a deadline a browser run would eat into: no browser metrics there.
      ...(node.browser && !ctx.sync ? { browser: node.browser, browserPlan: { pages: node.settings.browserPages, profiles: node.settings.browserProfiles } } : {}),
      noBrowserReason: ctx.sync ? "sync" : node.settings.browser === "off" ? "off" : "absent",
      externalAllowed: node.externalAllowed,
    });
    ctx.signal.throwIfAborted();
    // A browser that crashed twice under a page is this node's trouble, not the site's: the analysis
    // is queued again (the attempt not counted, nothing charged again).
    if (facts.browserPages.some((p) => p.crashed)) throw new ThrottledWorkError("browser_crashed", BROWSER_CRASH_RETRY_MS, "the browser crashed while measuring a page");
    await ctx.checkpoint(99, "analysing");
    return AnalyzeResult.fromPartial({ facts });
  },
};
