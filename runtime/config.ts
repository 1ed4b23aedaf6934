// The one configuration of every Svc process. Each setting names its SVC_* variable, the roles
// that read it, its default and its unit (config-fields.ts); loadConfig() reads an environment
// object (never process.env itself) for one role, reports every problem at once and returns a
// frozen Config.
import { CLIENT_ENV, CONFIG_FIELDS, REMOVED_SETTINGS, type Field } from "./config-fields.ts";
import { ConfigValueError, type BrowserMode, type BrowserProfile, type BrowserThirdParty, type BrowserThrottling, type CrawlOverride, type LogLevel } from "./config-parse.ts";
import type { ConfigRole } from "./config-roles.ts";

export type { BrowserMode, BrowserProfile, BrowserThirdParty, BrowserThrottling, CrawlOverride, LogLevel };

export interface PlanNumbers {
  readonly sites: number;
  readonly checksPerDay: number;
  readonly rechecksPerDay: number;
  readonly webhooks: number;
  readonly apiKeys: number;
  readonly crawlPages: number;
  readonly crawlDepth: number;
  readonly uptimeMin: number;
  /** Ceiling of the sum of the hourly limits of an account's usable keys. */
  readonly keyRatePerHour: number;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly adminHost: string;
  readonly adminPort: number;
  readonly dataDir: string;
  readonly postgresUrl: string | null;
  readonly postgresPoolSize: number;
  /** ClickHouse for the time series (distributed mode); null: they stay in Postgres/PGlite. */
  readonly clickhouseUrl: string | null;
  readonly clickhouseRetentionMonths: number;
  readonly bootstrapKey: string | null;
  readonly bootstrapEmail: string;
  readonly allowPrivateTargets: boolean;
  /** Link-local and metadata addresses, networks and names that may be targets anyway (refused otherwise). */
  readonly allowLinkLocalTargets: readonly string[];
  readonly logLevel: LogLevel;
  /** OTLP/HTTP collector that receives the spans of traced work; null: no spans are exported (docs/operations.md, "Tracing"). */
  readonly otlpEndpoint: string | null;
  readonly trustedProxies: readonly string[];
  readonly maintenance: boolean;
  readonly ratePerHourDefault: number;
  readonly addressRatePerHour: number;
  readonly idempotencyTtlSeconds: number;
  readonly idempotencyLockSeconds: number;
  readonly usageFlushMs: number;
  readonly keyCacheMs: number;
  readonly stateRefreshMs: number;
  readonly shutdownGraceMs: number;
  /** A request's headers and body must arrive within this. */
  readonly requestTimeoutMs: number;
  readonly publicBaseUrl: string | null;
  /** Lifetime of an OAuth access token (an ordinary key of kind oauth). */
  readonly oauthAccessTtlSeconds: number;
  /** Origins (besides the service's own) whose browser pages may call POST /api/v1/mcp. */
  readonly mcpAllowedOrigins: readonly string[];
  readonly plan: PlanNumbers;
  readonly schedulerAddress: string | null;
  /** host:port the scheduler's gRPC server listens on (`svc scheduler`). */
  readonly grpcListen: string;
  readonly reportFreshSeconds: number;
  readonly leaseMs: number;
  readonly maxAttempts: number;
  readonly staleJobSeconds: number;
  readonly syncWaitMs: number;
  readonly planEverySeconds: number;
  readonly webhookPlanMs: number;
  readonly workerConcurrency: number;
  readonly workerSyncConcurrency: number;
  readonly workerStreamConcurrency: number;
  readonly workerWebhookConcurrency: number;
  readonly uptimeTimeoutMs: number;
  readonly uptimeSlowMs: number;
  readonly uptimePlanEveryMs: number;
  /** Watched pages per monitored site (the home page and the most linked pages); 0 turns the watchdog off. */
  readonly watchPages: number;
  readonly importSyncMaxMb: number;
  readonly importMaxRows: number;
  readonly importMemoryMb: number;
  /** Search data providers (as GET /providers names them) the administrator turned off: their imports and the sections reading only them answer service_off. */
  readonly searchSourcesOff: readonly string[];
  readonly kafkaBrokers: readonly string[] | null;
  readonly kafkaPartitions: number;
  readonly kafkaRetentionHours: number;
  readonly kafkaTopicPrefix: string;
  readonly kafkaSessionTimeoutMs: number;
  readonly crawl: CrawlSettings;
  readonly utilities: UtilitySettings;
}

/** The offline utilities' worker pool in the gateway, and the utilities an administrator turned off. */
export interface UtilitySettings {
  /** Worker threads of the pool (started on first use). */
  readonly threads: number;
  /** Time limit of one run (ms). */
  readonly cpuMs: number;
  /** Heap of each pool thread (MB). */
  readonly memoryMb: number;
  /** Resident memory of each image utilities' process (MB). */
  readonly imageMemoryMb: number;
  /** Utility ids that answer tool_off. */
  readonly off: readonly string[];
  /** Runs of network utilities one key may start per hour (utilities-catalogue.md §9.3). */
  readonly netPerHour: number;
}

export interface CrawlSettings {
  readonly pageSample: number;
  readonly dnsServers: readonly string[];
  readonly extraCaFile: string | null;
  readonly connectionsPerHost: number;
  readonly minDelayMs: number;
  readonly crawlDelayCapSeconds: number;
  readonly fetchTimeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
  readonly overrides: readonly CrawlOverride[];
  /** Before a severe failure caps a rank, it is observed again this long after the collection (same run). */
  readonly confirmDelayMs: number;
  /** A whole-site crawl stops after this long (truncated_by time_limit). */
  readonly crawlMaxMinutes: number;
  /** URLs sharing one pattern beyond which the rest are reported as a trap. */
  readonly crawlMaxPerPattern: number;
  /** What a whole-site crawl keeps of its pages for the whole-crawl analysis, at most (truncated_by memory_limit). */
  readonly crawlMemoryMb: number;
  /** Folder of the crawls' page-facts files ("": the data directory's crawl-facts for `svc serve` on its embedded store, else the OS temp dir's svc-crawl-facts). */
  readonly crawlFactsDir: string;
  /** Threads that parse and check crawled pages (0: on the fetching thread). */
  readonly parseThreads: number;
  /** Generated pages each parse thread runs through the page path before the node takes work. */
  readonly parseWarmUpPages: number;
  readonly parseIdleSeconds: number;
  /** Not a setting: the parse threads start with the first task rather than with the node (the test harness's gateways). */
  readonly parseStartAsleep?: boolean;
  /** External hosts whose links a crawl may fetch to tell whether they are broken (names, *.domain, CIDRs). */
  readonly egressAllow: readonly string[];
  /** A crawl's findings feed later analyses of the host for this long. */
  readonly crawlFindingsDays: number;
  /** Browser measurements: auto (the default: where the browser binary exists) or off. */
  readonly browser: BrowserMode;
  readonly browserPath: string;
  /** One page's measurement, navigation to settled, at most this long. */
  readonly browserTimeoutMs: number;
  /** Third-party requests of a measured page: auto (hosts in egressAllow), none, or any host the egress guard accepts. */
  readonly browserThirdParty: BrowserThirdParty;
  /** Browser contexts (pages measured at once) per crawler node. */
  readonly browserContexts: number;
  /** The browser is replaced when its memory (PSS) passes this (and after 50 pages). */
  readonly browserMaxMemoryMb: number;
  /** Profiles each measured page is loaded with, in order (the first one's home page feeds the rank). */
  readonly browserProfiles: readonly BrowserProfile[];
  /** Pages measured per analysis: the home page plus the most linked sample pages. */
  readonly browserPages: number;
  /** provided: no throttling (the machine as it is); devtools: Lighthouse's network and CPU throttling of the profile. */
  readonly browserThrottling: BrowserThrottling;
  /** Public DNS resolvers a network utility may name (name → address[:port]). */
  readonly utilityResolvers: Readonly<Record<string, string>>;
  /** Ports a network utility may connect to (port_check, TLS probes). */
  readonly utilityPorts: readonly number[];
  /** The WHOIS server asked first (IANA). */
  readonly whoisRoot: string;
  /** Not settings: the ports of WHOIS queries (43) and SMTP probes (25), injected only by tests that run their own servers. */
  readonly whoisPort?: number;
  readonly smtpPort?: number;
  /** An echo service my_ip asks for the node's public address ("" none). */
  readonly echoUrl: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

/** The settings a role reads, in the table's order. */
export function fieldsOf(role: ConfigRole): readonly Field[] {
  return CONFIG_FIELDS.filter((f) => f.roles.includes(role));
}

/**
 * Reads and validates the configuration of one role; throws ConfigError listing every bad
 * variable. Only the role's own settings are parsed: a setting another role reads keeps its
 * default here and its value is not looked at, so a crawler never refuses to start over a
 * gateway's value (an environment shared by every role is the Helm chart's `config`).
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, role: ConfigRole): Config {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const field of CONFIG_FIELDS) {
    const read = field.roles.includes(role);
    const raw = (read ? env[field.env] : undefined) ?? field.default;
    try {
      setPath(out, field.key, field.parse(raw));
    } catch (err) {
      if (!(err instanceof ConfigValueError)) throw err;
      problems.push(`${field.env}: ${err.message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(out) as unknown as Config;
}

export interface ConfigNotes {
  /** SVC_* names no setting has (misspelt): warned of, never fatal. */
  readonly unknown: readonly string[];
  /** Settings an upgrade removed, and what replaced each. */
  readonly removed: readonly string[];
  /** Settings that are set but that this role does not read. */
  readonly ignored: readonly string[];
}

/** What an environment holds beyond the role's settings, for the role to log at start. */
export function configNotes(env: Readonly<Record<string, string | undefined>>, role: ConfigRole): ConfigNotes {
  const byName = new Map(CONFIG_FIELDS.map((f) => [f.env, f]));
  const client = new Set<string>(CLIENT_ENV);
  const names = Object.keys(env).filter((n) => n.startsWith("SVC_") && env[n] !== undefined && !client.has(n));
  const removed = new Map(REMOVED_SETTINGS.map((r) => [r.env, r.instead]));
  return {
    unknown: names.filter((n) => !byName.has(n) && !removed.has(n)),
    removed: names.filter((n) => removed.has(n)).map((n) => `${n}: ${removed.get(n) ?? ""}`),
    ignored: names.filter((n) => byName.has(n) && !byName.get(n)?.roles.includes(role)),
  };
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1] as string] = value;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
