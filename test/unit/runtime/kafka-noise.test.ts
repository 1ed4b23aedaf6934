import { describe, expect, it } from "vitest";
import { isRebalanceNoise } from "../../../runtime/kafka-bus.ts";

// What kafkajs writes while a consumer group rebalances (one member joining or leaving): each
// member's heartbeats, commits and fetches are refused until it rejoins. Those lines go to debug;
// a real fault stays at its level.
describe("kafkajs rebalance chatter", () => {
  it.each([
    ["Response Heartbeat(key: 12, version: 3)", { error: "The group is rebalancing, so a rejoin is needed", type: "REBALANCE_IN_PROGRESS" }],
    ["The group is rebalancing, re-joining", { groupId: "crawler.svc.work.v1", memberId: "svc-crawler-1" }],
    ["Response OffsetCommit(key: 8, version: 5)", { error: "The coordinator is not aware of this member", type: "UNKNOWN_MEMBER_ID" }],
    ["Response OffsetCommit(key: 8, version: 5)", { error: "Specified group generation id is not valid", type: "ILLEGAL_GENERATION" }],
    ["Response FindCoordinator(key: 10, version: 2)", { error: "The coordinator is not available", type: "COORDINATOR_NOT_AVAILABLE" }],
  ])("%s (%j) is chatter", (message, extra) => {
    expect(isRebalanceNoise(message, extra)).toBe(true);
  });

  it.each([
    ["Connection error: connect ECONNREFUSED 127.0.0.1:9092", { broker: "127.0.0.1:9092" }],
    ["Crash: KafkaJSNumberOfRetriesExceeded: Connection error", { groupId: "crawler.svc.work.v1" }],
    ["Response Produce(key: 0, version: 7)", { error: "This server does not host this topic-partition", type: "UNKNOWN_TOPIC_OR_PARTITION" }],
  ])("%s is not", (message, extra) => {
    expect(isRebalanceNoise(message, extra)).toBe(false);
  });
});
