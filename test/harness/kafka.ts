import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Kafka, logLevel } from "kafkajs";
import { freePort } from "./free-port.ts";

// A real Apache Kafka broker (KRaft, one node that is broker and controller) for the tests. There
// is no Kafka package and no Docker here, so the broker comes from Maven Central: the pom beside
// this file names org.apache.kafka:kafka_2.13, Maven resolves its runtime classpath into the
// project's .cache/maven once, and the machine's JDK runs kafka.Kafka on loopback ports.

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const POM = join(REPO_ROOT, "test/harness/kafka/pom.xml");
const CACHE = join(REPO_ROOT, ".cache");
const MAVEN_REPO = join(CACHE, "maven");
// Serial GC and the C1 compiler only: ~25% faster start and fewer threads on a small shared machine.
const JVM_ARGS = ["-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"];
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

export interface KafkaBrokerOptions {
  /** num.partitions: partitions of a topic created without a count. Default 4. */
  readonly numPartitions?: number;
  /** Extra server.properties entries; they win over the harness's. */
  readonly properties?: Readonly<Record<string, string>>;
  /** Keep the data directory and log after stop() (the path is printed). */
  readonly keepDir?: boolean;
}

export interface KafkaBroker {
  /** ["127.0.0.1:<port>"] */
  readonly brokers: string[];
  readonly port: number;
  /** The broker's log (log4j and JVM output), appended across restarts. */
  readonly logFile: string;
  readonly dataDir: string;
  /** Stops gracefully (SIGTERM), waits for the exit and removes the data directory. */
  stop(): Promise<void>;
  /** Kills with SIGKILL, waits for the exit and removes the data directory. */
  kill(): Promise<void>;
  /** Takes the broker down but keeps its ports and data: "graceful" is SIGTERM, "crash" SIGKILL. */
  stopTemporarily(how?: "graceful" | "crash"): Promise<void>;
  /** Starts it again on the same ports and data directory; resolves once it serves requests. */
  restart(): Promise<void>;
  /** True while the broker process runs. */
  running(): boolean;
}

export interface KafkaClasspath {
  readonly classpath: string;
  readonly jars: number;
  /** True when the cached classpath was reused (no Maven run, no network). */
  readonly cached: boolean;
  readonly ms: number;
}

/**
 * The broker's Java classpath, resolved with Maven from test/harness/kafka/pom.xml into
 * .cache/maven. The result is cached per pom content; a cache whose jars all exist is reused
 * without running Maven. Throws when Maven is missing or resolution fails.
 */
export function kafkaClasspath(): KafkaClasspath {
  const started = Date.now();
  const pomHash = createHash("sha256").update(readFileSync(POM)).digest("hex").slice(0, 16);
  const cacheFile = join(CACHE, `kafka-classpath-${pomHash}.txt`);
  const cached = readClasspath(cacheFile);
  if (cached) return { classpath: cached.join(":"), jars: cached.length, cached: true, ms: Date.now() - started };

  mkdirSync(CACHE, { recursive: true });
  process.stderr.write(`[harness] resolving the Kafka broker's classpath with Maven into ${MAVEN_REPO}\n`);
  const partial = `${cacheFile}.${process.pid}.tmp`;
  const res = spawnSync(
    "mvn",
    ["-q", "-B", "-f", POM, `-Dmaven.repo.local=${MAVEN_REPO}`, "dependency:build-classpath", "-Dmdep.includeScope=runtime", `-Dmdep.outputFile=${partial}`],
    { encoding: "utf8", cwd: REPO_ROOT, timeout: 600_000 },
  );
  if (res.error) {
    const missing = (res.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(
      missing
        ? "Maven (mvn) is not on PATH: the tests' Kafka broker is resolved from Maven Central with it (apt-get install maven)"
        : `mvn failed to run: ${res.error.message}`,
    );
  }
  if (res.status !== 0) throw new Error(`mvn could not resolve the Kafka broker (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
  const jars = readClasspath(partial);
  if (!jars) throw new Error(`mvn succeeded but wrote no usable classpath to ${partial}`);
  // Renamed into place so that a concurrent run never reads half a file.
  renameSync(partial, cacheFile);
  return { classpath: jars.join(":"), jars: jars.length, cached: false, ms: Date.now() - started };
}

function readClasspath(file: string): string[] | null {
  if (!existsSync(file)) return null;
  const jars = readFileSync(file, "utf8").trim().split(":").filter((p) => p !== "");
  return jars.length > 0 && jars.every((jar) => existsSync(jar)) ? jars : null;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** A JVM outliving its test run would hold ports and a core: kill what is still running on exit. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of live) child.kill("SIGKILL");
  });
}

/** Formats a fresh KRaft log directory and starts a one-node Kafka on free loopback ports. */
export async function startKafka(options: KafkaBrokerOptions = {}): Promise<KafkaBroker> {
  const cp = kafkaClasspath();
  process.stderr.write(`[harness] Kafka classpath (${cp.jars} jars) ${cp.cached ? "from cache" : "resolved with Maven"} in ${cp.ms} ms\n`);

  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "svc-kafka-"));
  const dataDir = join(dir, "data");
  const logFile = join(dir, "server.log");
  const [port, controllerPort] = await twoFreePorts();
  const propsFile = join(dir, "server.properties");
  writeFileSync(propsFile, serverProperties(port, controllerPort, dataDir, options));
  const log4jFile = join(dir, "log4j.properties");
  writeFileSync(log4jFile, LOG4J);
  const jvm = [...JVM_ARGS, `-Dlog4j.configuration=file:${log4jFile}`, "-cp", cp.classpath];

  try {
    format(jvm, propsFile, logFile);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const formatMs = Date.now() - started;
  const brokers = [`127.0.0.1:${port}`];
  installExitHook();

  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const launch = async (): Promise<void> => {
    const out = openSync(logFile, "a");
    try {
      child = spawn("java", [...jvm, "kafka.Kafka", propsFile], { cwd: dir, stdio: ["ignore", out, out] });
    } finally {
      closeSync(out);
    }
    const proc = child;
    live.add(proc);
    exited = new Promise<void>((done) => {
      proc.once("exit", () => {
        live.delete(proc);
        if (child === proc) child = null;
        done();
      });
      proc.once("error", (err) => {
        writeFileSync(logFile, `spawn java failed: ${err.message}\n`, { flag: "a" });
        live.delete(proc);
        if (child === proc) child = null;
        done();
      });
    });
    await waitReady(brokers, () => child === proc, logFile);
  };
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    if (!proc) return;
    proc.kill(signal);
    const timer = new AbortController();
    const timedOut = await Promise.race([exited.then(() => false), sleep(STOP_TIMEOUT_MS, true, { signal: timer.signal }).catch(() => false)]);
    timer.abort();
    if (timedOut) {
      proc.kill("SIGKILL");
      await exited;
    }
  };
  const remove = () => {
    if (options.keepDir) process.stderr.write(`[harness] Kafka data and log kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  };

  try {
    await launch();
  } catch (err) {
    await halt("SIGKILL");
    process.stderr.write(`[harness] Kafka failed to start; its log is ${logFile}\n`);
    throw err;
  }
  process.stderr.write(`[harness] Kafka (KRaft) on ${brokers[0]} in ${Date.now() - started} ms (format ${formatMs} ms)\n`);

  return {
    brokers,
    port,
    logFile,
    dataDir,
    async stop() {
      await halt("SIGTERM");
      remove();
    },
    async kill() {
      await halt("SIGKILL");
      remove();
    },
    async stopTemporarily(how = "graceful") {
      await halt(how === "crash" ? "SIGKILL" : "SIGTERM");
    },
    async restart() {
      if (child) throw new Error("the broker is running: stopTemporarily() first");
      const t = Date.now();
      await launch();
      process.stderr.write(`[harness] Kafka restarted on ${brokers[0]} in ${Date.now() - t} ms\n`);
    },
    running: () => child !== null,
  };
}

/** Two distinct free ports: the client listener and the controller's. */
async function twoFreePorts(): Promise<[number, number]> {
  const a = await freePort();
  for (;;) {
    const b = await freePort();
    if (b !== a) return [a, b];
  }
}

function serverProperties(port: number, controllerPort: number, dataDir: string, options: KafkaBrokerOptions): string {
  const props: Record<string, string> = {
    "process.roles": "broker,controller",
    "node.id": "1",
    "controller.quorum.voters": `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    "advertised.listeners": `PLAINTEXT://127.0.0.1:${port}`,
    "controller.listener.names": "CONTROLLER",
    "inter.broker.listener.name": "PLAINTEXT",
    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    "log.dirs": dataDir,
    "num.partitions": String(options.numPartitions ?? 4),
    "auto.create.topics.enable": "false",
    "offsets.topic.replication.factor": "1",
    // 50 offset partitions (the default) make the first group join of every run slow.
    "offsets.topic.num.partitions": "4",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "transaction.state.log.num.partitions": "4",
    "group.initial.rebalance.delay.ms": "0",
    // Lets a test choose a session timeout below the broker's default minimum of 6 s.
    "group.min.session.timeout.ms": "1000",
    // After a crash the restarted broker waits for its old registration to lapse (default 9 s).
    "broker.heartbeat.interval.ms": "1000",
    "broker.session.timeout.ms": "3000",
    "num.network.threads": "2",
    "num.io.threads": "2",
    "background.threads": "2",
    "log.cleaner.enable": "false",
    // The controller appends a no-op record to the metadata log every 500 ms by default: about a
    // third of an idle broker's CPU here (bench:distribution). A single-node test cluster needs no
    // such liveness beat; docs/operations.md gives the production figure.
    "metadata.max.idle.interval.ms": "5000",
    ...options.properties,
  };
  return Object.entries(props).map(([k, v]) => `${k}=${v}`).join("\n") + "\n";
}

const LOG4J = `log4j.rootLogger=INFO, out
log4j.appender.out=org.apache.log4j.ConsoleAppender
log4j.appender.out.layout=org.apache.log4j.PatternLayout
log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaConfig=WARN
log4j.logger.org.apache.kafka.common.config.AbstractConfig=WARN
`;

/** kafka-storage.sh format, with a random cluster id. */
function format(jvm: string[], propsFile: string, logFile: string): void {
  const res = spawnSync("java", [...jvm, "kafka.tools.StorageTool", "format", "-t", clusterId(), "-c", propsFile], { encoding: "utf8", timeout: 120_000 });
  if (res.error) {
    const missing = (res.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(missing ? "java is not on PATH: the tests' Kafka broker needs a JDK 17 (apt-get install openjdk-17-jre-headless)" : `java failed to run: ${res.error.message}`);
  }
  writeFileSync(logFile, `${res.stdout}${res.stderr}`, { flag: "a" });
  if (res.status !== 0) throw new Error(`Kafka storage format failed (exit ${res.status}):\n${tail(logFile)}`);
}

/** A Kafka Uuid: 16 random bytes in URL-safe base64; Kafka's own never start with "-". */
function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}

async function waitReady(brokers: string[], alive: () => boolean, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const kafka = new Kafka({ clientId: "harness", brokers, logLevel: logLevel.NOTHING, connectionTimeout: 1000, retry: { retries: 0 } });
  let lastError = "";
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the Kafka broker exited during start:\n${tail(logFile)}`);
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      // The broker answers before it has registered with its controller; registered, it lists itself.
      if (cluster.brokers.length > 0) return;
    } catch (err) {
      lastError = (err as Error).message;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    await sleep(100);
  }
  throw new Error(`the Kafka broker was not ready after ${READY_TIMEOUT_MS} ms (${lastError}):\n${tail(logFile)}`);
}

function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return "(no log)";
  return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
}
