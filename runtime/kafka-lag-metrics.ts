import { Gauge, type Registry } from "prom-client";
import type { Clock } from "./clock.ts";

/** What the gauge samples: KafkaBus.consumerLag. */
export interface ConsumerLagSource {
  consumerLag(): Promise<readonly { topic: string; group: string; lag: number }[]>;
}

/** How often the brokers are asked at most, whatever the scrape interval. */
export const CONSUMER_LAG_SAMPLE_MS = 15_000;
/** How long a scrape waits for a sample before it answers with the last one (Kafka away must not make /metrics time out). */
export const CONSUMER_LAG_WAIT_MS = 2000;

/**
 * `svc_kafka_consumer_lag{topic,group}` on a role that consumes (crawler, scheduler): messages of
 * each subscribed topic its consumer group has not committed yet. Sampled when scraped, at most
 * once per sampleMs (the last sample is served in between), so an idle role asks the brokers
 * nothing unless Prometheus scrapes it. Labels are the topics and groups as subscribed (a fixed
 * set: TOPICS × role). A sample that fails keeps the last values; one that takes longer than
 * waitMs (brokers away) leaves the scrape with the last values and finishes in the background.
 */
export function registerConsumerLag(registry: Registry, source: ConsumerLagSource, clock: Clock, sampleMs = CONSUMER_LAG_SAMPLE_MS, waitMs = CONSUMER_LAG_WAIT_MS): void {
  let sampledAt = Number.NEGATIVE_INFINITY;
  let sampling: Promise<void> | null = null;
  new Gauge({
    name: "svc_kafka_consumer_lag",
    help: "Messages of a topic its consumer group on this role has not committed yet (end offset minus committed offset, summed over partitions), sampled at most every 15 s.",
    labelNames: ["topic", "group"],
    registers: [registry],
    async collect() {
      if (clock.nowMs() - sampledAt < sampleMs) return;
      sampling ??= (async () => {
        try {
          const lags = await source.consumerLag();
          for (const l of lags) this.set({ topic: l.topic, group: l.group }, l.lag);
          sampledAt = clock.nowMs();
        } catch {
          // The brokers away: the last sample stays, the next scrape asks again.
        } finally {
          sampling = null;
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((done) => {
        timer = setTimeout(done, waitMs);
        timer.unref();
      });
      await Promise.race([sampling, waited]);
      clearTimeout(timer);
    },
  });
}
