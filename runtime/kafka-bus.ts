import { setTimeout as sleep } from "node:timers/promises";
import { BrokerOutage, isConnectionTrouble } from "./kafka-outage.ts";
import { Kafka, logLevel, Partitioners, type Consumer, type EachBatchPayload, type IHeaders, type KafkaMessage, type logCreator, type Producer } from "kafkajs";
import { deliverTraced, withTraceHeaders, type Bus, type BusHandler, type BusMessage, type SubscribeOptions } from "./bus.ts";
import { mendKafkajsRequestQueue } from "./kafkajs-request-queue.ts";
import { createLogger, type Logger } from "./logger.ts";

/** A topic the bus needs, by its name before the prefix. */
export interface TopicSpec {
  readonly topic: string;
  readonly partitions: number;
  /** retention.ms of the topic; the broker's default when absent. */
  readonly retentionMs?: number;
}

export interface KafkaBusOptions {
  readonly brokers: readonly string[];
  readonly clientId?: string;
  /** Put before every topic name on the broker (SVC_KAFKA_TOPIC_PREFIX). Default "". */
  readonly topicPrefix?: string;
  /**
   * The Kafka group id of a subscription. Default: the group as given. kafkajs's assigners hand
   * the leader's topics round-robin to every member of a group, whatever each member subscribed
   * to, so a role that subscribes to two topics under one group must map them to two group ids
   * (and installations sharing a cluster must keep their ids apart).
   */
  readonly consumerGroupId?: (group: string, topic: string) => string;
  /** The dead-letter topic of a topic, before the prefix. Default `<topic>.dlq`. */
  readonly deadLetterTopic?: (topic: string) => string;
  /** Attempts of a handler on one message before it goes to the dead-letter topic. Default 5. */
  readonly maxAttempts?: number;
  /** Backoff after the first failed attempt; doubles per attempt up to retryMaxMs, with jitter. Default 500. */
  readonly retryInitialMs?: number;
  readonly retryMaxMs?: number;
  /** Errors that are not worth another attempt go to the dead-letter topic at once. Default: all are. */
  readonly isRetryable?: (err: unknown) => boolean;
  /** Messages one subscription handles at once; fetching pauses while it is full. Default 16. */
  readonly maxInFlight?: number;
  /** How long close() waits for running handlers before it leaves their messages to redelivery. Default 30 s. */
  readonly drainTimeoutMs?: number;
  readonly sessionTimeoutMs?: number;
  readonly heartbeatIntervalMs?: number;
  readonly rebalanceTimeoutMs?: number;
  /**
   * Longest wait of one fetch when nothing arrives (a message ends the wait at once), so how often
   * an idle consumer asks the broker. Default: the heartbeat interval (3 s by default; it was 1 s),
   * because kafkajs heartbeats between fetches (a longer wait would delay a rebalance's notice) and
   * a closing consumer waits for its last fetch (within SVC_SHUTDOWN_GRACE_MS). A full subscription
   * waits for a free slot inside its batch, woken by the handler that frees it, so this does not
   * pace how soon it takes the next message.
   */
  readonly maxWaitMs?: number;
  readonly logger?: Logger;
  readonly random?: () => number;
  /** The kafkajs client to use instead of one made from the options (tests: consumers that fail as no broker can be made to on cue). */
  readonly client?: Kafka;
}

type Settings = Required<Omit<KafkaBusOptions, "logger" | "client">>;

const EMPTY = new Uint8Array(0);
/** Dead-letter headers carry at most this much of an error message. */
const MAX_ERROR_CHARS = 2000;
const COMMIT_RETRY_MS = 1000;
/**
 * kafkajs's retries (connections, requests) and so its consumers' restarts after a crash, which
 * wait the last retry's delay: capped at 2 s, so that work resumes within seconds of the brokers'
 * return (kafkajs's default cap of 30 s made that 45 s once its backoff had grown to 18.7 s).
 */
const KAFKAJS_RETRY = { initialRetryTime: 300, maxRetryTime: 2000, retries: 5 } as const;
/** The bus's own restarts of a consumer after a crash kafkajs does not restart from: the same cap. */
const RESTART_MAX_MS = 2000;

/**
 * The bus of the distributed mode, on Kafka. Messages are keyed by the registrable domain, so one
 * domain's messages share a partition and reach one member of a group, in order. Delivery is at
 * least once: an offset is committed only once every message before it was handled (or
 * dead-lettered). Topics are never created implicitly: call ensureTopics() first.
 */
export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly settings: Settings;
  private readonly logger: Logger;
  private producing: Promise<Producer> | null = null;
  private readonly subscriptions: GroupSubscription[] = [];
  /** What each subscription is, for consumerLag(). */
  private readonly subscribed: { topic: string; group: string; groupId: string; brokerTopic: string }[] = [];
  private closing: Promise<void> | null = null;
  /** The brokers unreachable, as one warning per outage. */
  private readonly outage: BrokerOutage;

  constructor(options: KafkaBusOptions) {
    this.settings = {
      brokers: options.brokers,
      clientId: options.clientId ?? "svc",
      topicPrefix: options.topicPrefix ?? "",
      consumerGroupId: options.consumerGroupId ?? ((group) => group),
      deadLetterTopic: options.deadLetterTopic ?? ((topic) => `${topic}.dlq`),
      maxAttempts: options.maxAttempts ?? 5,
      retryInitialMs: options.retryInitialMs ?? 500,
      retryMaxMs: options.retryMaxMs ?? 30_000,
      isRetryable: options.isRetryable ?? (() => true),
      maxInFlight: options.maxInFlight ?? 16,
      drainTimeoutMs: options.drainTimeoutMs ?? 30_000,
      sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 3000,
      rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 60_000,
      maxWaitMs: options.maxWaitMs ?? options.heartbeatIntervalMs ?? 3000,
      random: options.random ?? Math.random,
    };
    this.logger = (options.logger ?? createLogger("silent")).child({ component: "kafka-bus" });
    this.outage = new BrokerOutage(this.logger);
    // kafkajs 2.2.4 spins a 1 ms timer per broker connection while idle (kafkajs-request-queue.ts).
    if (!mendKafkajsRequestQueue()) this.logger.warn("kafkajs's request queue is not where 2.2.x keeps it: its idle timer loop is left as it is");
    this.kafka = options.client ?? new Kafka({
      clientId: this.settings.clientId,
      brokers: [...options.brokers],
      retry: KAFKAJS_RETRY,
      ...(options.logger
        ? { logLevel: options.logger.isLevelEnabled("debug") ? logLevel.INFO : logLevel.WARN, logCreator: kafkajsLogs(this.logger, this.outage) }
        : { logLevel: logLevel.NOTHING }),
    });
  }

  /** The name of a topic on the broker. */
  brokerTopic(topic: string): string {
    return this.settings.topicPrefix + topic;
  }

  /** Where a topic's messages go after their last failed attempt (before the prefix). */
  deadLetterTopicOf(topic: string): string {
    return this.settings.deadLetterTopic(topic);
  }

  /** Creates the topics that do not exist yet; returns their names. Existing topics are left as they are. */
  async ensureTopics(specs: readonly TopicSpec[]): Promise<string[]> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const missing = specs.filter((s) => !existing.has(this.brokerTopic(s.topic)));
      if (missing.length > 0) {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((s) => ({
            topic: this.brokerTopic(s.topic),
            numPartitions: s.partitions,
            configEntries: s.retentionMs === undefined ? [] : [{ name: "retention.ms", value: String(s.retentionMs) }],
          })),
        });
      }
      const kept = specs.filter((s) => existing.has(this.brokerTopic(s.topic))).map((s) => this.brokerTopic(s.topic));
      if (kept.length > 0) {
        // Partitions cannot be added without moving keys between consumers: only say so.
        const { topics } = await admin.fetchTopicMetadata({ topics: kept });
        for (const t of topics) {
          const wanted = specs.find((s) => this.brokerTopic(s.topic) === t.name)?.partitions ?? 0;
          if (t.partitions.length < wanted) this.logger.warn({ topic: t.name, partitions: t.partitions.length, wanted }, "topic has fewer partitions than configured");
        }
      }
      return missing.map((s) => s.topic);
    } finally {
      await admin.disconnect();
    }
  }

  async publish(messages: readonly BusMessage[]): Promise<void> {
    if (this.closing) throw new Error("bus closed");
    if (messages.length === 0) return;
    const byTopic = new Map<string, { key: string; value: Buffer; headers?: IHeaders }[]>();
    for (const published of messages) {
      const m = withTraceHeaders(published);
      const topic = this.brokerTopic(m.topic);
      const list = byTopic.get(topic) ?? [];
      const value = Buffer.from(m.payload.buffer, m.payload.byteOffset, m.payload.byteLength);
      list.push(m.headers ? { key: m.key, value, headers: { ...m.headers } } : { key: m.key, value });
      byTopic.set(topic, list);
    }
    const producer = await this.producer();
    await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })) });
    this.outage.answered();
  }

  async subscribe(topic: string, group: string, handler: BusHandler, options: SubscribeOptions = {}): Promise<void> {
    if (this.closing) throw new Error("bus closed");
    const groupId = this.settings.consumerGroupId(group, topic);
    const subscription = new GroupSubscription({
      kafka: this.kafka,
      settings: options.maxInFlight ? { ...this.settings, maxInFlight: options.maxInFlight } : this.settings,
      // The group as the broker knows it (prefixed, per topic): the lines of the subscription name it once.
      logger: this.logger.child({ topic, group: groupId }),
      outage: this.outage,
      topic,
      brokerTopic: this.brokerTopic(topic),
      deadLetterTopic: this.brokerTopic(this.settings.deadLetterTopic(topic)),
      group: groupId,
      handler,
      send: async (to, message) => {
        const producer = await this.producer();
        await producer.send({ topic: to, acks: -1, messages: [message] });
      },
    });
    this.subscriptions.push(subscription);
    this.subscribed.push({ topic, group, groupId, brokerTopic: this.brokerTopic(topic) });
    await subscription.start();
  }

  /**
   * How far each subscription's consumer group is behind its topic: per (topic, group) as
   * subscribed (before the prefix and the group-id mapping, so the labels stay a fixed set), the
   * sum over partitions of the topic's end offset minus the group's committed offset (the start
   * offset when the group has committed nothing there). Asks the brokers with one admin client.
   */
  async consumerLag(): Promise<{ topic: string; group: string; lag: number }[]> {
    if (this.subscriptions.length === 0 || this.closing) return [];
    // No retries: the next sample is the retry.
    const admin = this.kafka.admin({ retry: { retries: 0 } });
    await admin.connect();
    try {
      const out: { topic: string; group: string; lag: number }[] = [];
      for (const s of this.subscribed) {
        const [ends, committed] = await Promise.all([admin.fetchTopicOffsets(s.brokerTopic), admin.fetchOffsets({ groupId: s.groupId, topics: [s.brokerTopic] })]);
        const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
        let lag = 0n;
        for (const p of ends) {
          const end = BigInt(p.high);
          const at = done.get(p.partition) ?? -1n;
          const from = at < 0n ? BigInt(p.low) : at;
          if (end > from) lag += end - from;
        }
        out.push({ topic: s.topic, group: s.group, lag: Number(lag) });
      }
      return out;
    } finally {
      await admin.disconnect();
    }
  }

  /** Stops every subscription (running handlers finish and are committed), then the producer. */
  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.close()));
    const producer = await this.producing?.catch(() => null);
    if (producer && !(await settledWithin(this.settings.maxWaitMs + DISCONNECT_SLACK_MS, producer.disconnect()))) {
      this.logger.warn("kafka producer did not disconnect in time; its connections are left to close with the process");
    }
  }

  private producer(): Promise<Producer> {
    this.producing ??= (async () => {
      // One request in flight per broker keeps a key's messages in order across retries; the
      // idempotent producer would also do that, but only with unbounded retries (a publish to a
      // missing topic would then never fail).
      const producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false, maxInFlightRequests: 1 });
      await producer.connect();
      return producer;
    })().catch((err: unknown) => {
      this.producing = null;
      throw err;
    });
    return this.producing;
  }
}

/** Beyond a fetch's longest wait, what a closing consumer or producer is given to disconnect. */
const DISCONNECT_SLACK_MS = 1000;

/** True when the promise resolved within ms, false when it had not; its rejection within ms is thrown. */
async function settledWithin(ms: number, promise: Promise<unknown>): Promise<boolean> {
  const timer = new AbortController();
  const settled = promise.then(() => true);
  // Rejecting after the wait, it is nobody's to handle any more.
  settled.catch(() => undefined);
  const late = sleep(ms, false, { signal: timer.signal }).catch(() => false);
  try {
    return await Promise.race([settled, late]);
  } finally {
    timer.abort();
  }
}

interface SubscriptionContext {
  readonly kafka: Kafka;
  readonly settings: Settings;
  readonly logger: Logger;
  readonly outage: BrokerOutage;
  readonly topic: string;
  readonly brokerTopic: string;
  readonly deadLetterTopic: string;
  readonly group: string;
  readonly handler: BusHandler;
  readonly send: (topic: string, message: { key: Buffer | null; value: Buffer | null; headers: IHeaders }) => Promise<void>;
}

/** What one member has taken from one partition: the offsets handed to handlers and not yet done. */
class PartitionProgress {
  constructor(readonly partition: number) {}

  readonly pending = new Set<bigint>();
  /** The offset after the last message handed to a handler; -1 before the first. */
  next = -1n;
  /** The offset last committed by this member. */
  committed = -1n;
  /** Set when a rebalance gave the partition to another member: nothing of it is committed here any more. */
  revoked = false;

  /** Every message before this offset is done: the offset to commit. */
  watermark(): bigint {
    let low = this.next;
    for (const offset of this.pending) if (offset < low) low = offset;
    return low;
  }
}

/**
 * One member of a consumer group. Messages are handed to handlers without waiting for them, at most
 * maxInFlight at once (fetching pauses while full); messages of one key wait for each other, so a
 * slow domain holds up only itself, not its whole partition.
 */
class GroupSubscription {
  private readonly consumer: Consumer;
  private readonly partitions = new Map<number, PartitionProgress>();
  private assigned = new Set<number>();
  /** Per key, the last handling queued: the next message of the key waits for it. */
  private readonly chains = new Map<string, Promise<void>>();
  private inFlight = 0;
  private paused = false;
  private closing = false;
  private readonly stopping = new AbortController();
  private committing: Promise<void> | null = null;
  private commitAgain = false;
  /** A batch waiting for a free slot: woken by the handler that frees one, or by close(). */
  private readonly slotWaiters: Array<() => void> = [];
  /** Starts again after crashes kafkajs does not restart from, and the one pending. */
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: SubscriptionContext) {
    const s = ctx.settings;
    this.consumer = ctx.kafka.consumer({
      groupId: ctx.group,
      sessionTimeout: s.sessionTimeoutMs,
      heartbeatInterval: s.heartbeatIntervalMs,
      rebalanceTimeout: s.rebalanceTimeoutMs,
      maxWaitTimeInMs: s.maxWaitMs,
      allowAutoTopicCreation: false,
    });
  }

  async start(): Promise<void> {
    this.consumer.on(this.consumer.events.GROUP_JOIN, (e) => {
      const partitions = e.payload.memberAssignment[this.ctx.brokerTopic] ?? [];
      // One line per rebalance of each group (kafkajs's own lines about it are at debug level).
      // group and topic are the logger's own fields (once each in the line).
      this.ctx.logger.info({ partitions: partitions.length, leader: e.payload.isLeader, ms: e.payload.duration }, "consumer group joined");
      this.ctx.outage.answered();
      this.restarts = 0;
      this.onAssignment(partitions);
    });
    this.consumer.on(this.consumer.events.CRASH, (e) => {
      // kafkajs restarts its consumer only after errors it calls retriable; after the others (a
      // group coordinator not found while the broker is away is one) the member would stay gone
      // for good, its partitions left to the group's other members or to no one: it is started
      // again here, with backoff, until it runs or the bus closes.
      const again = !e.payload.restart && !this.closing;
      const fields = { err: e.payload.error, restart: e.payload.restart || again, kafkajsRestarts: e.payload.restart };
      // The brokers away: one line for the outage, not one per crash and restart of each consumer.
      if (this.ctx.outage.down || isConnectionTrouble(e.payload.error)) this.ctx.outage.trouble(fields, "kafka consumer crashed");
      else this.ctx.logger.error(fields, "kafka consumer crashed");
      if (again) this.restartLater();
    });
    await this.consumer.connect();
    // A new group starts at the beginning: work published before its first member joined is not skipped.
    await this.consumer.subscribe({ topic: this.ctx.brokerTopic, fromBeginning: true });
    await this.run();
  }

  /** Offsets are resolved and committed here, never by kafkajs. One batch at a time is enough: handling is not awaited, so messages of all partitions run concurrently anyway. */
  private run(): Promise<void> {
    return this.consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: (payload) => this.onBatch(payload) });
  }

  /** Starts the member again after a crash kafkajs does not restart from (it has disconnected it; the subscription stays). */
  private restartLater(): void {
    const attempt = ++this.restarts;
    const { retryInitialMs, retryMaxMs } = this.ctx.settings;
    const delay = Math.min(retryMaxMs, RESTART_MAX_MS, retryInitialMs * 2 ** Math.min(attempt - 1, 16));
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.closing) return;
      void (async () => {
        try {
          if (this.ctx.outage.down) this.ctx.logger.debug({ attempt }, "kafka consumer starting again after a crash");
          else this.ctx.logger.warn({ attempt }, "kafka consumer starting again after a crash");
          await this.consumer.connect();
          // Once connected, a failure to join comes as another CRASH event (back here), not as a rejection.
          await this.run();
        } catch (err) {
          this.ctx.outage.trouble({ err, attempt }, "kafka consumer could not start again; retrying");
          this.restartLater();
        }
      })();
    }, delay);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.stopping.abort();
    this.wakeSlotWaiters();
    this.pause();
    const timer = new AbortController();
    await Promise.race([Promise.allSettled([...this.chains.values()]), sleep(this.ctx.settings.drainTimeoutMs, undefined, { signal: timer.signal }).catch(() => undefined)]);
    timer.abort();
    // A disconnect waits for the member's last fetch (maxWaitMs). A member still rejoining its group
    // after a broker outage waited far longer: a scheduler stopped a second after Kafka came back
    // outlived SVC_SHUTDOWN_GRACE_MS and was killed "with work in flight". Past this wait the member
    // is left to the broker, which drops it after its session timeout, as after a crash; whatever the
    // commit did not reach is delivered again, which every handler already allows.
    const waitMs = this.ctx.settings.maxWaitMs + DISCONNECT_SLACK_MS;
    const done = await settledWithin(waitMs, (async () => {
      while (this.committing) await this.committing;
      await this.commit();
      await this.consumer.disconnect();
    })());
    if (!done) this.ctx.logger.warn({ topic: this.ctx.brokerTopic, group: this.ctx.group, waitMs }, "kafka consumer did not disconnect in time; left to the broker's session timeout");
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    if (!this.assigned.has(batch.partition)) return;
    const progress = this.progressOf(batch.partition);
    for (const message of batch.messages) {
      if (this.closing || !payload.isRunning() || payload.isStale()) return;
      if (BigInt(message.offset) < progress.next) {
        // Fetched again from the committed offset after a rebalance that left the partition here:
        // this member already has it (running or done).
        payload.resolveOffset(message.offset);
        continue;
      }
      // Full: wait here for a free slot. (Pausing the consumer instead would be noticed only after
      // a whole fetch wait, maxWaitMs.) Closing or a rebalance: the rest, unresolved, is fetched again.
      if (this.inFlight >= this.ctx.settings.maxInFlight && !(await this.freeSlot(payload))) return;
      this.dispatch(progress, message);
      payload.resolveOffset(message.offset);
      await payload.heartbeat();
    }
  }

  private dispatch(progress: PartitionProgress, message: KafkaMessage): void {
    const offset = BigInt(message.offset);
    progress.pending.add(offset);
    progress.next = offset + 1n;
    this.inFlight++;
    const key = message.key?.toString() ?? "";
    const run = (this.chains.get(key) ?? Promise.resolve()).then(() => this.handle(progress, offset, key, message));
    this.chains.set(key, run);
    void run.finally(() => {
      if (this.chains.get(key) === run) this.chains.delete(key);
    });
  }

  /** Never rejects: the outcome is recorded in progress. */
  private async handle(progress: PartitionProgress, offset: bigint, key: string, message: KafkaMessage): Promise<void> {
    let done = false;
    try {
      done = await this.deliver(progress, key, message);
    } catch (err) {
      this.ctx.logger.error({ err, offset: message.offset }, "message handling failed unexpectedly; left for redelivery");
    } finally {
      this.inFlight--;
      if (done) {
        progress.pending.delete(offset);
        this.commitSoon();
      }
      this.wakeSlotWaiters();
      if (this.paused && !this.closing && this.inFlight < this.ctx.settings.maxInFlight) this.resume();
    }
  }

  /**
   * Runs the handler until it succeeds, retrying with backoff; after the last attempt (or an error
   * that is not retryable) the message goes to the dead-letter topic. True when the message is done
   * with; false when it was given up (closing, partition moved) and is left for redelivery.
   */
  private async deliver(progress: PartitionProgress, key: string, message: KafkaMessage): Promise<boolean> {
    const s = this.ctx.settings;
    const headers = stringHeaders(message.headers);
    const busMessage: BusMessage = headers ? { topic: this.ctx.topic, key, payload: message.value ?? EMPTY, headers } : { topic: this.ctx.topic, key, payload: message.value ?? EMPTY };
    for (let attempt = 1; ; attempt++) {
      if (this.closing || progress.revoked) return false;
      try {
        await deliverTraced(this.ctx.handler, busMessage);
        return true;
      } catch (err) {
        if (attempt >= s.maxAttempts || !s.isRetryable(err)) return this.deadLetter(progress, message, err, attempt);
        this.ctx.logger.debug({ err, key, offset: message.offset, attempt }, "handler failed; retrying");
        await this.wait(this.backoff(attempt));
      }
    }
  }

  private async deadLetter(progress: PartitionProgress, message: KafkaMessage, err: unknown, attempts: number): Promise<boolean> {
    const headers: IHeaders = {
      ...message.headers,
      "svc-error-class": err instanceof Error ? err.constructor.name : typeof err,
      "svc-error-message": (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR_CHARS),
      "svc-attempts": String(attempts),
      "svc-source-topic": this.ctx.brokerTopic,
      "svc-source-partition": String(progress.partition),
      "svc-source-offset": message.offset,
      "svc-group": this.ctx.group,
    };
    for (let attempt = 1; ; attempt++) {
      if (this.closing || progress.revoked) return false;
      try {
        await this.ctx.send(this.ctx.deadLetterTopic, { key: message.key, value: message.value, headers });
        this.ctx.logger.warn({ err, offset: message.offset, attempts, deadLetterTopic: this.ctx.deadLetterTopic }, "message dead-lettered");
        return true;
      } catch (sendErr) {
        this.ctx.logger.warn({ err: sendErr, deadLetterTopic: this.ctx.deadLetterTopic }, "dead-letter publish failed; retrying");
        await this.wait(this.backoff(attempt));
      }
    }
  }

  /** Capped exponential backoff with equal jitter. */
  private backoff(failedAttempts: number): number {
    const s = this.ctx.settings;
    const base = Math.min(s.retryMaxMs, s.retryInitialMs * 2 ** (failedAttempts - 1));
    return base / 2 + s.random() * (base / 2);
  }

  /** Sleeps, but wakes at once when the subscription closes. */
  private async wait(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }

  /**
   * Waits, inside a batch, until a handler frees a slot, heartbeating meanwhile so that the group
   * keeps this member. False when the subscription closes, the batch went stale or the group is
   * rebalancing (the heartbeat says so).
   */
  private async freeSlot(payload: EachBatchPayload): Promise<boolean> {
    const beatMs = Math.max(100, this.ctx.settings.heartbeatIntervalMs);
    while (this.inFlight >= this.ctx.settings.maxInFlight) {
      const timer = new AbortController();
      await Promise.race([new Promise<void>((resolve) => this.slotWaiters.push(resolve)), sleep(beatMs, undefined, { signal: timer.signal }).catch(() => undefined)]);
      timer.abort();
      if (this.closing || !payload.isRunning() || payload.isStale()) return false;
      try {
        await payload.heartbeat();
      } catch {
        return false;
      }
    }
    return true;
  }

  private wakeSlotWaiters(): void {
    for (const wake of this.slotWaiters.splice(0)) wake();
  }

  private onAssignment(partitions: readonly number[]): void {
    this.assigned = new Set(partitions);
    for (const [partition, progress] of this.partitions) {
      if (this.assigned.has(partition)) continue;
      progress.revoked = true;
      this.partitions.delete(partition);
    }
    // A commit refused during the rebalance is made again in the new generation.
    this.commitSoon();
  }

  private progressOf(partition: number): PartitionProgress {
    let progress = this.partitions.get(partition);
    if (!progress) {
      progress = new PartitionProgress(partition);
      this.partitions.set(partition, progress);
    }
    return progress;
  }

  private pause(): void {
    // Unconditional: a consumer restarted after a crash has forgotten an earlier pause.
    this.paused = true;
    try {
      this.consumer.pause([{ topic: this.ctx.brokerTopic }]);
    } catch {
      // not running (restarting after a crash): its next batch finds the subscription full again
    }
  }

  private resume(): void {
    this.paused = false;
    try {
      this.consumer.resume([{ topic: this.ctx.brokerTopic }]);
    } catch {
      // not running: a restarted consumer starts unpaused
    }
  }

  /** Commits soon; commits never overlap, and one asked for during another follows it. */
  private commitSoon(): void {
    if (this.committing) {
      this.commitAgain = true;
      return;
    }
    this.committing = this.commit().finally(() => {
      this.committing = null;
      if (this.commitAgain) {
        this.commitAgain = false;
        this.commitSoon();
      }
    });
  }

  private async commit(): Promise<void> {
    const due = [...this.partitions].flatMap(([partition, progress]) => {
      const offset = progress.watermark();
      return offset > progress.committed ? [{ partition, progress, offset }] : [];
    });
    if (due.length === 0) return;
    try {
      await this.consumer.commitOffsets(due.map((d) => ({ topic: this.ctx.brokerTopic, partition: d.partition, offset: d.offset.toString() })));
      for (const d of due) if (d.offset > d.progress.committed) d.progress.committed = d.offset;
    } catch (err) {
      // Refused during a rebalance, or the broker is away: tried again shortly (and by the next
      // completion, join or close).
      this.ctx.logger.debug({ err }, "offset commit failed");
      if (!this.closing) setTimeout(() => this.commitSoon(), COMMIT_RETRY_MS).unref();
    }
  }
}

/** A Kafka message's headers as strings (the first value of each), or undefined when it has none. */
function stringHeaders(headers: IHeaders | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const one = Array.isArray(value) ? value[0] : value;
    if (one !== undefined) out[name] = one.toString();
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * kafkajs's lines about a rebalance under way: each member's heartbeats, fetches and commits are
 * refused and it rejoins, about 16 lines per group per member. The bus logs one line per join
 * ("consumer group joined"); these go to debug.
 */
const REBALANCE_NOISE = /rebalanc|re-?join|not the correct coordinator|coordinator (is )?(not available|loading)|not aware of this member|group generation id is not valid|unknown member|illegal generation/i;

/** Whether a kafkajs log line is routine rebalance chatter. */
export function isRebalanceNoise(message: string, extra: Record<string, unknown>): boolean {
  return REBALANCE_NOISE.test(message) || (typeof extra.error === "string" && REBALANCE_NOISE.test(extra.error)) || extra.type === "REBALANCE_IN_PROGRESS";
}

/**
 * kafkajs's log lines on the service's logger. kafkajs reports routine events (a rebalance, a broker
 * restart) as errors, so each of its levels goes one level down, and rebalance chatter to debug; the
 * bus logs real failures itself.
 */
function kafkajsLogs(logger: Logger, outage: BrokerOutage): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...extra } = log;
      const fields = { kafkajs: namespace, ...extra };
      if (level <= logLevel.WARN && isRebalanceNoise(message, extra)) logger.debug(fields, message);
      // Brokers away: the outage is one warning; kafkajs's retries, crashes and restarts meanwhile go to debug.
      else if (level <= logLevel.WARN && (outage.down || isConnectionTrouble(message) || isConnectionTrouble(extra.error))) outage.trouble(fields, message);
      else if (level === logLevel.ERROR) logger.warn(fields, message);
      else if (level === logLevel.WARN) logger.info(fields, message);
      else if (level === logLevel.INFO) logger.debug(fields, message);
      else logger.trace(fields, message);
    };
}
