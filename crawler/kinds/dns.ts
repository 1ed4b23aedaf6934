import { DnsResult } from "../../proto/index.ts";
import { collectDnsFacts } from "../site/dns-facts.ts";
import { splitHost } from "../fetch/politeness.ts";
import type { CrawlerKind } from "./kind.ts";

/** A live DNS lookup of a host (GET /dns/{host}). */
export const dnsKind: CrawlerKind<"dns"> = {
  name: "dns",
  async run(task, ctx) {
    const facts = await collectDnsFacts(splitHost(task.host).hostname, { dnsServers: ctx.node.settings.dnsServers, timeoutMs: 3000 });
    return DnsResult.fromPartial({ facts });
  },
};
