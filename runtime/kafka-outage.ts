import type { Logger } from "./logger.ts";

/** kafkajs's words for brokers that do not answer (its lines and its errors' messages and names). */
const CONNECTION_TROUBLE = /connection error|failed to connect|connection timeout|closed connection|connection (is )?closed|ECONNREFUSED|ECONNRESET|EPIPE|KafkaJSConnection|KafkaJSNumberOfRetriesExceeded|KafkaJSNonRetriableError|KafkaJSBrokerNotFound|broker not (found|connected)|not available|no (available )?brokers|coordinator.*not (found|available)|Restarting the consumer/i;

/** Whether a kafkajs log line or error says the brokers are unreachable. */
export function isConnectionTrouble(what: unknown): boolean {
  for (let e = what, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e === "string") return CONNECTION_TROUBLE.test(e);
    const o = e as { name?: unknown; message?: unknown; type?: unknown };
    if ([o.name, o.message, o.type].some((v) => typeof v === "string" && CONNECTION_TROUBLE.test(v))) return true;
  }
  return false;
}

/**
 * A Kafka outage as one process's bus sees it: one warning when the brokers stop answering and one
 * line when they answer again, however many connections, retries, crashes and restarts of its
 * consumers and producer meet it meanwhile (those go to debug). A 30-s outage was about 250 lines
 * per crawler before.
 */
export class BrokerOutage {
  private since: number | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly nowMs: () => number = Date.now,
  ) {}

  get down(): boolean {
    return this.since !== null;
  }

  /** A sign the brokers are unreachable: the first of an outage is logged (warn), the rest at debug. */
  trouble(fields: Record<string, unknown>, message: string): void {
    if (this.since !== null) {
      this.logger.debug(fields, message);
      return;
    }
    this.since = this.nowMs();
    this.logger.warn({ ...fields, cause: message }, "Kafka unreachable: consumers and producer retry (every 2 s at most) until it answers; its further errors are at debug level");
  }

  /** The brokers answered (a consumer group joined, a send landed). */
  answered(): void {
    if (this.since === null) return;
    this.logger.info({ downMs: this.nowMs() - this.since }, "Kafka reachable again");
    this.since = null;
  }
}
