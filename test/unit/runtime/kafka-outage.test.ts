import { describe, expect, it } from "vitest";
import { BrokerOutage, isConnectionTrouble } from "../../../runtime/kafka-outage.ts";
import type { Logger } from "../../../runtime/index.ts";

// A Kafka outage writes one warning and one recovery line per process, whatever kafkajs says meanwhile.

function recording(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (_fields: unknown, msg: string) => void lines.push(`${level} ${msg}`);
  const logger = { warn: at("warn"), info: at("info"), debug: at("debug"), error: at("error") } as unknown as Logger;
  return { logger, lines };
}

describe("BrokerOutage", () => {
  it("logs the first sign of an outage at warn, the rest at debug, and the return once", () => {
    const { logger, lines } = recording();
    let now = 0;
    const outage = new BrokerOutage(logger, () => now);
    for (let i = 0; i < 250; i++) outage.trouble({}, "Connection error: connect ECONNREFUSED 127.0.0.1:9092");
    now = 30_000;
    outage.answered();
    outage.answered();
    expect(lines.filter((l) => !l.startsWith("debug"))).toEqual([
      "warn Kafka unreachable: consumers and producer retry (every 2 s at most) until it answers; its further errors are at debug level",
      "info Kafka reachable again",
    ]);
    expect(outage.down).toBe(false);
  });

  it("tells kafkajs's connection failures from other errors", () => {
    expect(isConnectionTrouble("Failed to connect to seed broker, trying another broker from the list")).toBe(true);
    expect(isConnectionTrouble(Object.assign(new Error("Connection error: connect ECONNREFUSED"), { name: "KafkaJSConnectionError" }))).toBe(true);
    expect(isConnectionTrouble(Object.assign(new Error("boom"), { name: "KafkaJSNumberOfRetriesExceeded" }))).toBe(true);
    expect(isConnectionTrouble(new Error("handler threw: undecodable message"))).toBe(false);
  });
});
