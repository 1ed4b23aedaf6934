import { randomBytes } from "node:crypto";
import type { Clock, CrawlSettings } from "../runtime/index.ts";
import { collectSiteFacts } from "./collect-site.ts";
import { createEgress, EgressBlockedError } from "./egress.ts";
import type { ClassifyFailure, CollectFacts } from "./worker.ts";

export interface SiteCollector {
  readonly collect: CollectFacts;
  readonly classify: ClassifyFailure;
  close(): Promise<void>;
}

/** The crawler node's collection, configured from the operator's settings (one egress for all of it). */
export function createSiteCollector(settings: CrawlSettings & { allowPrivateTargets: boolean; extraCa: string | null }, clock: Clock): SiteCollector {
  const egress = createEgress({
    allowPrivateTargets: settings.allowPrivateTargets,
    dnsServers: settings.dnsServers,
    extraCa: settings.extraCa,
    connectTimeoutMs: Math.min(10_000, settings.fetchTimeoutMs),
  });
  return {
    collect: (host, { pageSample, onProgress, signal }) =>
      collectSiteFacts(
        host,
        {
          userAgent: settings.userAgent,
          maxPages: pageSample,
          maxConnectionsPerHost: settings.connectionsPerHost,
          minDelayMs: settings.minDelayMs,
          maxCrawlDelayMs: settings.crawlDelayCapSeconds * 1000,
          timeoutMs: settings.fetchTimeoutMs,
          maxBodyBytes: settings.maxBodyBytes,
        },
        { egress, clock, randomHex: (n) => randomBytes(n).toString("hex"), onProgress, signal },
      ),
    classify: (err) => {
      if (err instanceof EgressBlockedError) return { error: err.reason, detail: err.message, retryable: false };
      // Unreachable sites are recorded in the facts; what throws is unexpected, and worth another attempt.
      return { error: "collect_failed", detail: (err as Error).message ?? String(err), retryable: true };
    },
    close: () => egress.close(),
  };
}
