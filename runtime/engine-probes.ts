import { credentials, makeGenericClientConstructor, type Client, type ServiceError } from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";
import { Kafka, logLevel } from "kafkajs";
import { GRPC_CHANNEL_OPTIONS } from "./grpc-client.ts";
import { mendKafkajsRequestQueue } from "./kafkajs-request-queue.ts";

// What a role's /readyz asks of the engines it needs: every probe is bounded by its own deadline
// and answers with a short word for the readiness detail, never with a stack.

const PROBE_TIMEOUT_MS = 2000;

/** A Kafka cluster seen through a short-lived admin connection (kafkajs reconnects nothing for it). */
export class KafkaProbe {
  private readonly kafka: Kafka;

  constructor(brokers: readonly string[], clientId = "svc-probe") {
    mendKafkajsRequestQueue();
    this.kafka = new Kafka({
      clientId,
      brokers: [...brokers],
      connectionTimeout: 1000,
      requestTimeout: PROBE_TIMEOUT_MS,
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
    });
  }

  /** The number of brokers the cluster lists; throws when it does not answer. */
  async brokers(): Promise<number> {
    return this.withAdmin(async (admin) => (await admin.describeCluster()).brokers.length);
  }

  /** Which of these topics (names on the broker) do not exist yet. */
  async missingTopics(names: readonly string[]): Promise<string[]> {
    return this.withAdmin(async (admin) => {
      const existing = new Set(await admin.listTopics());
      return names.filter((n) => !existing.has(n));
    });
  }

  private async withAdmin<T>(fn: (admin: ReturnType<Kafka["admin"]>) => Promise<T>): Promise<T> {
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      return await within(PROBE_TIMEOUT_MS, fn(admin));
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}

type HealthStatus = "UNKNOWN" | "SERVING" | "NOT_SERVING" | "SERVICE_UNKNOWN";
type HealthClient = Client & {
  check(req: { service: string }, options: { deadline: number }, cb: (err: ServiceError | null, res?: { status: HealthStatus }) => void): void;
};
const HealthClientCtor = makeGenericClientConstructor(healthService, "Health") as unknown as new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
  options: object,
) => HealthClient;

/** The standard grpc.health.v1 service of a gRPC server (the scheduler's). */
export class GrpcHealthProbe {
  private readonly client: HealthClient;

  constructor(address: string) {
    this.client = new HealthClientCtor(address, credentials.createInsecure(), GRPC_CHANNEL_OPTIONS);
  }

  /** SERVING, NOT_SERVING, …; "unreachable" when the server does not answer in time. */
  status(service = ""): Promise<HealthStatus | "unreachable"> {
    return new Promise((resolve) => {
      this.client.check({ service }, { deadline: Date.now() + PROBE_TIMEOUT_MS }, (err, res) => resolve(err || !res ? "unreachable" : res.status));
    });
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

/** The promise's outcome, or a rejection after ms. */
export async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
