import { AnalyzeResult } from "../../proto/index.ts";
import { collectSiteFacts } from "../site/collect-site.ts";
import type { CrawlerKind } from "./kind.ts";

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
      // The synchronous lane has a deadline a browser run would eat into: no browser metrics there.
      ...(node.browser && !ctx.sync ? { browser: node.browser } : {}),
    });
    ctx.signal.throwIfAborted();
    await ctx.checkpoint(99, "analysing");
    return AnalyzeResult.fromPartial({ facts });
  },
};
