import { RecheckResult } from "../../proto/index.ts";
import { unixSeconds } from "../../runtime/index.ts";
import { fetchUrl } from "../fetch/fetch-page.ts";
import { nodeFetchOptions } from "../node.ts";
import { HostLimiter } from "../fetch/host-limiter.ts";
import { recheckLook } from "../site/recheck-look.ts";
import type { CrawlerKind } from "./kind.ts";

/**
 * A task re-check's narrow look (POST /tasks/{id}/recheck): robots.txt with its sitemaps and the
 * home page, and/or the few pages a page check failed on, through the node's egress guard, the
 * host's politeness and the node's parse threads.
 */
export const recheckKind: CrawlerKind<"recheck"> = {
  name: "recheck",
  async run(task, ctx) {
    const { node } = ctx;
    const origin = new URL(task.origin);
    // Refused targets end the look (bad_host); any other failure is recorded in the facts.
    await node.refuseBlocked(origin.hostname.replace(/^\[|\]$/g, ""));
    const politeness = await node.politeness(ctx.host);
    const limiter = new HostLimiter({ maxConcurrent: politeness.connectionsPerHost, minDelayMs: politeness.minDelayMs });
    const facts = await recheckLook(
      { host: ctx.host, origin: task.origin, robots: task.robots, urls: task.urls, checkedAt: unixSeconds(node.clock) },
      {
        fetch: (url, extra = {}) =>
          limiter.run(new URL(url).host, () =>
            fetchUrl(url, { ...nodeFetchOptions(node, ctx.signal), ...extra }),
          ),
        parse: node.pool.extract,
        signal: ctx.signal,
      },
    );
    return RecheckResult.fromPartial({ facts });
  },
};
