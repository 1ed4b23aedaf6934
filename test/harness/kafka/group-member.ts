// One member of a Kafka consumer group in a process of its own, so that a test can kill it with
// SIGKILL (no LeaveGroup, no last commit: what a crashed node looks like to the group).
//
//   node --import tsx test/harness/kafka/group-member.ts <brokers> <topic> <group>
//
// Writes one JSON line per event to stdout: {"event":"assigned","partitions":[…]} after every join,
// {"event":"message","partition":p,"offset":"o","key":"k","value":"v"} per message handled.
import { Kafka, logLevel } from "kafkajs";

const [brokers, topic, group] = process.argv.slice(2);
if (!brokers || !topic || !group) {
  process.stderr.write("usage: group-member.ts <brokers> <topic> <group>\n");
  process.exit(2);
}

const emit = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

const kafka = new Kafka({ clientId: `member-${process.pid}`, brokers: brokers.split(","), logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId: group, sessionTimeout: 6000, heartbeatInterval: 1000, rebalanceTimeout: 5000, maxWaitTimeInMs: 500 });
consumer.on(consumer.events.GROUP_JOIN, (e) => emit({ event: "assigned", partitions: e.payload.memberAssignment[topic] ?? [] }));
consumer.on(consumer.events.CRASH, (e) => process.stderr.write(`consumer crashed: ${e.payload.error.message}\n`));

await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
await consumer.run({
  eachMessage: async ({ partition, message }) => {
    emit({ event: "message", partition, offset: message.offset, key: message.key?.toString() ?? null, value: message.value?.toString() ?? null });
  },
});

process.once("SIGTERM", () => {
  void consumer.disconnect().finally(() => process.exit(0));
});
