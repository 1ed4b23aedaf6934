import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { ManualClock, registerConsumerLag } from "../../../runtime/index.ts";
import { INCIDENT_KINDS, registerSchedulerMetrics } from "../../../scheduler/scheduler-metrics.ts";
import type { JobsRepo } from "../../../storage/index.ts";

// The gauges sampled at scrape time: Kafka consumer lag per topic and group (crawler, scheduler),
// open incidents by kind and disabled webhook addresses (scheduler).

function lines(text: string, name: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}

describe("svc_kafka_consumer_lag", () => {
  it("exports each subscription's lag, asks the brokers at most every 15 s, and keeps the last sample when they are away", async () => {
    const clock = new ManualClock(1_000_000);
    let lag = 7;
    let asked = 0;
    let away = false;
    const registry = new Registry();
    registerConsumerLag(registry, {
      consumerLag: async () => {
        asked++;
        if (away) throw new Error("brokers away");
        return [
          { topic: "svc.work.v1", group: "crawler", lag },
          { topic: "svc.webhooks.v1", group: "crawler", lag: 0 },
        ];
      },
    }, clock);
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")).toEqual([
      'svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 7',
      'svc_kafka_consumer_lag{topic="svc.webhooks.v1",group="crawler"} 0',
    ]);
    lag = 12;
    clock.advance(14_999);
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")[0]).toBe('svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 7');
    expect(asked).toBe(1);
    clock.advance(1);
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")[0]).toBe('svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 12');
    away = true;
    clock.advance(15_000);
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")[0]).toBe('svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 12');
    expect(asked).toBe(3);
  });

  it("answers a scrape with the last sample when the brokers do not answer in time, without asking again meanwhile", async () => {
    const clock = new ManualClock(0);
    let answer: (() => void) | null = null;
    let asked = 0;
    const registry = new Registry();
    registerConsumerLag(
      registry,
      {
        consumerLag: async () => {
          asked++;
          if (asked === 1) return [{ topic: "svc.work.v1", group: "crawler", lag: 3 }];
          await new Promise<void>((r) => (answer = r));
          return [{ topic: "svc.work.v1", group: "crawler", lag: 9 }];
        },
      },
      clock,
      15_000,
      20,
    );
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")).toEqual(['svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 3']);
    clock.advance(15_000);
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")).toEqual(['svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 3']);
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")).toEqual(['svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 3']);
    expect(asked).toBe(2);
    answer!();
    await new Promise((r) => setImmediate(r));
    expect(lines(await registry.metrics(), "svc_kafka_consumer_lag")).toEqual(['svc_kafka_consumer_lag{topic="svc.work.v1",group="crawler"} 9']);
    expect(asked).toBe(2);
  });
});

describe("the scheduler's monitoring gauges", () => {
  it("export every incident kind (0 when none is open) and the disabled webhook addresses", async () => {
    const registry = new Registry();
    const jobs = { liveCounts: async () => ({ queued: 0, running: 0 }), outboxBacklog: async () => ({ waiting: 0, oldest: null }) } as unknown as JobsRepo;
    registerSchedulerMetrics(registry, jobs, new ManualClock(0), {
      incidents: { openCounts: async () => new Map([["certificate", 2], ["down", 1]] as const) },
      webhooks: { disabledCount: async () => 3 },
    });
    const text = await registry.metrics();
    expect(lines(text, "svc_incidents_open")).toEqual(INCIDENT_KINDS.map((k) => `svc_incidents_open{kind="${k}"} ${k === "certificate" ? 2 : k === "down" ? 1 : 0}`));
    expect(lines(text, "svc_webhooks_disabled")).toEqual(["svc_webhooks_disabled 3"]);
  });
});
