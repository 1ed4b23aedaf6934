import { PageResult } from "../../proto/index.ts";
import { extractPage } from "../page/extract.ts";
import { fetchUrl } from "../fetch/fetch-page.ts";
import { nodeFetchOptions } from "../node.ts";
import type { CrawlerKind } from "./kind.ts";

/** One page's facts (GET /full, GET /check/{tool}). */
export const pageKind: CrawlerKind<"page"> = {
  name: "page",
  async run(task, ctx) {
    const { node } = ctx;
    // Refused targets end the check (bad_host); any other failure is recorded in the facts.
    await node.refuseBlocked(new URL(task.url).hostname.replace(/^\[|\]$/g, ""));
    const res = await fetchUrl(task.url, nodeFetchOptions(node, ctx.signal));
    node.fetchMetrics.fetched("page", res.response);
    return PageResult.fromPartial({ facts: extractPage({ url: res.response.finalUrl || task.url, response: res.response, html: res.text }).facts });
  },
};
