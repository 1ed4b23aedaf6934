import type { StreamKind } from "../../proto/index.ts";
import { ProbeHealth } from "./probe-health.ts";
import { probeKind } from "./probe.ts";
import type { CrawlerStreamKind } from "./stream-kind.ts";
import { webhookStreamKind } from "./webhook.ts";

export type { CrawlerStreamKind } from "./stream-kind.ts";
export { ProbeHealth } from "./probe-health.ts";
export { probeFailureText, probeOne } from "./probe.ts";
export { probeMetrics } from "./probe-metrics.ts";

/** The stream-lane kinds of a crawler node, by name (the node's own probe health inside): uptime probes, webhook batches. */
export function crawlerStreamKinds(health: ProbeHealth = new ProbeHealth(), observe?: (latenessSeconds: number, ok: boolean) => void): { readonly [K in StreamKind]: CrawlerStreamKind<K> } {
  return { probe: probeKind(health, observe), webhook: webhookStreamKind };
}
