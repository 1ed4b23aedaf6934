import { hostname } from "node:os";
import type { Registry } from "prom-client";
import { TOPICS } from "../proto/index.ts";
import { buildOpsServer, ConfigError, configNotes, KafkaBus, within, type Config, type ConfigRole, type KafkaBusOptions, type Lifecycle, type Logger } from "../runtime/index.ts";
import { listenOrExplain } from "./listen.ts";

// What the three role commands (`svc gateway`, `svc scheduler`, `svc crawler`) share: the engines
// they refuse to start without, the Kafka bus as the distributed mode configures it, the operator's
// endpoints, and the wait for SIGTERM followed by a drain bounded by SVC_SHUTDOWN_GRACE_MS.

export type RoleName = "gateway" | "scheduler" | "crawler";
export type Engine = "postgres" | "kafka" | "scheduler";

const ENGINES: Record<Engine, { env: string; what: (c: Config) => unknown; needed: string }> = {
  postgres: { env: "SVC_POSTGRES_URL", what: (c) => c.postgresUrl, needed: "a PostgreSQL server, e.g. postgres://svc:pw@db:5432/svc (the embedded store is for `svc serve` only)" },
  kafka: { env: "SVC_KAFKA_BROKERS", what: (c) => c.kafkaBrokers, needed: "Kafka, its bootstrap servers as host:port[,host:port], e.g. kafka:9092" },
  scheduler: { env: "SVC_SCHEDULER_ADDRESS", what: (c) => c.schedulerAddress, needed: "the scheduler's gRPC address as host:port, e.g. svc-scheduler:7070" },
};

/** The engines each role refuses to start without (docs/operations.md's roles table, "needs", is held to this). */
export const ROLE_ENGINES: Readonly<Record<RoleName, readonly Engine[]>> = {
  gateway: ["postgres", "scheduler"],
  scheduler: ["postgres", "kafka"],
  crawler: ["kafka", "scheduler"],
};

/** The variable that configures an engine. */
export function engineEnv(engine: Engine): string {
  return ENGINES[engine].env;
}

/** Stops the start (exit code 2, as any configuration error) when an engine the role needs is not configured. */
export function requireEngines(role: RoleName, config: Config): void {
  const missing = ROLE_ENGINES[role].filter((e) => ENGINES[e].what(config) === null);
  if (missing.length > 0) throw new ConfigError(missing.map((e) => `${ENGINES[e].env}: svc ${role} needs ${ENGINES[e].needed}`));
}

/**
 * Logs, once at start, the SVC_* variables this process does not act on: unknown names (a typo, or
 * a setting an upgrade removed) as a warning, settings of other roles as one info line (an
 * environment shared by every role is normal: the Helm chart's `config`).
 */
export function logConfigNotes(env: NodeJS.ProcessEnv, role: ConfigRole, logger: Logger): void {
  const { unknown, removed, ignored } = configNotes(env, role);
  for (const line of removed) logger.warn(`a removed setting is ignored: ${line}`);
  if (unknown.length > 0) logger.warn({ variables: unknown }, "unknown SVC_* variables are ignored (misspelt? docs/configuration.md lists every setting)");
  if (ignored.length > 0) logger.info({ variables: ignored }, `svc ${role} does not read these settings (other roles do)`);
}

/** This process's name among its role's replicas: the host (the pod) and the pid, plus 4 random hex digits. */
export function replicaName(role: RoleName, random: () => number = Math.random): string {
  const suffix = Math.floor(random() * 0x10000).toString(16).padStart(4, "0");
  return `${role}-${hostname()}-${process.pid}-${suffix}`;
}

/**
 * The bus of the distributed mode. Topic names carry SVC_KAFKA_TOPIC_PREFIX; dead letters of every
 * topic go to svc.dead.v1. A consumer group is the role's, once per topic it reads
 * (`crawler.svc.work.v1`, `crawler.svc.sync.v1`, behind the same prefix): kafkajs assigns a group's
 * partitions as if every member read every topic of the group.
 */
export function kafkaBus(config: Config, logger: Logger, role: RoleName, options: Partial<KafkaBusOptions> = {}): KafkaBus {
  const prefix = config.kafkaTopicPrefix;
  return new KafkaBus({
    brokers: config.kafkaBrokers ?? [],
    clientId: `svc-${role}`,
    topicPrefix: prefix,
    consumerGroupId: (group, topic) => `${prefix}${group}.${topic}`,
    deadLetterTopic: () => TOPICS.deadLetters,
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    heartbeatIntervalMs: kafkaHeartbeatMs(config),
    logger,
    ...options,
  });
}

/** A consumer's heartbeat interval, also the longest wait of its fetches (what its disconnect waits for). */
export function kafkaHeartbeatMs(config: Config): number {
  return Math.min(3000, Math.floor(config.kafkaSessionTimeoutMs / 6));
}

/** Readiness of one engine: "ok", or what went wrong, in a few words. */
export async function probe(what: () => Promise<unknown>, timeoutMs = 2500): Promise<string> {
  try {
    await within(timeoutMs, what());
    return "ok";
  } catch (err) {
    return (err as Error).message.slice(0, 200) || "failed";
  }
}

export interface RoleState {
  started: boolean;
  draining: boolean;
}

/**
 * Starts /healthz, /readyz and /metrics first, so that a starting role answers "not ready" rather
 * than nothing; closed last. Ready when started, not draining, and every check answers "ok".
 */
export async function startOps(
  config: Config,
  life: Lifecycle,
  metrics: Registry,
  role: RoleName,
  state: RoleState,
  checks: () => Promise<Record<string, string>>,
  extra: () => Promise<Record<string, unknown>> = async () => ({}),
): Promise<void> {
  const ops = buildOpsServer({
    requestTimeoutMs: config.requestTimeoutMs,
    metrics,
    ready: async () => {
      if (!state.started || state.draining) return { ok: false, detail: { role, started: state.started, draining: state.draining } };
      const [engines, more] = await Promise.all([checks(), extra()]);
      return { ok: Object.values(engines).every((v) => v === "ok"), detail: { role, started: true, draining: false, ...engines, ...more } };
    },
  });
  await listenOrExplain(`${config.adminHost}:${config.adminPort}`, "SVC_ADMIN_PORT", () => ops.listen({ host: config.adminHost, port: config.adminPort }));
  life.add("ops server", ops);
}

/**
 * Resolves with the signal's name at the first SIGTERM, SIGINT (Ctrl-C) or SIGHUP (the terminal
 * closed): each drains and closes alike.
 */
export function shutdownSignal(): Promise<string> {
  return new Promise<string>((resolve) => {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      process.once(signal, () => {
        // After a hangup the terminal is gone: writing the log to it fails, and must not stop the drain.
        if (signal === "SIGHUP") for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
        resolve(signal);
      });
    }
  });
}

/**
 * Waits for the signal, then drains: readiness turns 503 at once, `drain` runs (what it returns
 * runs once everything is closed), and everything is closed in reverse order of opening. After SVC_SHUTDOWN_GRACE_MS the process exits with 1,
 * whatever still runs. Returns the exit code.
 */
export async function runUntilSignal(config: Config, logger: Logger, life: Lifecycle, state: RoleState, drain: () => (() => void) | void = () => undefined): Promise<number> {
  const signal = await shutdownSignal();
  state.draining = true;
  logger.info({ signal, graceMs: config.shutdownGraceMs }, "draining");
  const grace = setTimeout(() => {
    logger.error({ graceMs: config.shutdownGraceMs }, "grace period over; exiting with work in flight");
    process.exit(1);
  }, config.shutdownGraceMs);
  grace.unref();
  const started = Date.now();
  const drained = drain();
  await life.close();
  drained?.();
  clearTimeout(grace);
  logger.info({ ms: Date.now() - started }, "stopped");
  return 0;
}

/**
 * The share of the grace period running work may use; the rest (closeMs, what closing takes once
 * the work has stopped: commits, connections, threads, the browser) is kept for closing. Never less
 * than half the grace period for either.
 */
export function drainBudgetMs(config: Config, closeMs = 3000): number {
  return config.shutdownGraceMs - Math.min(closeMs, Math.floor(config.shutdownGraceMs / 2));
}
