import { DnsTask, SiteFacts } from "../../../proto/index.ts";
import { narrowArm, type RecheckScope } from "./scope.ts";

/** DNS records of the site's name: one live lookup (the `dns` kind) yields every fact these checks read. */
export const dnsScope: RecheckScope = {
  id: "dns",
  mode: "dns",
  codes: ["dns_resolves", "ns_redundancy", "ipv6", "caa", "mx", "spf", "dmarc", "bimi"],
  why: "a live DNS lookup of the site's name",
  applies: () => true,
  target: (ctx) => ({ $case: "dns", value: DnsTask.fromPartial({ host: ctx.host }) }),
  facts: (ctx, result) => SiteFacts.fromPartial({ host: ctx.host, origin: ctx.origin, checkedAt: ctx.now, dns: narrowArm(result, "dns")?.facts }),
};
