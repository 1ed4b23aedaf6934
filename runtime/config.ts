// The one configuration schema of every Svc process. Each field names its SVC_* variable, its
// default and its unit; loadConfig() reads an environment object (never process.env itself),
// reports every problem at once and returns a frozen Config.
import { isIP } from "node:net";
import { availableParallelism } from "node:os";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

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
  readonly pgliteSharedBuffersMb: number;
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
  readonly eventLoopSampleMs: number;
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
  /** The browser is replaced after this many pages… */
  readonly browserRecyclePages: number;
  /** …or when its memory (PSS) passes this. */
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
  /** The WHOIS server asked first (IANA), and the port of every WHOIS query. */
  readonly whoisRoot: string;
  readonly whoisPort: number;
  /** The port email_verify's SMTP probe connects to (25). */
  readonly smtpPort: number;
  /** An echo service my_ip asks for the node's public address ("" none). */
  readonly echoUrl: string;
}

export type BrowserProfile = "mobile" | "desktop";
export type BrowserThrottling = "provided" | "devtools";

export type BrowserMode = "auto" | "off";
export type BrowserThirdParty = "auto" | "none" | "all";

/** Politeness for hosts matching a name (exact or *.suffix) or whose address is in a network. */
export interface CrawlOverride {
  readonly match: string;
  readonly connectionsPerHost: number;
  readonly minDelayMs: number;
}

interface Field {
  readonly env: string;
  readonly key: string;
  readonly doc: string;
  readonly default: string | null;
  readonly parse: (raw: string) => unknown;
}

class ConfigValueError extends Error {}

function integer(min: number, max: number) {
  return (raw: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigValueError(`must be an integer, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigValueError(`must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

function flag(raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off", ""].includes(v)) return false;
  throw new ConfigValueError(`must be 1/0, true/false, on/off; got "${raw}"`);
}

function text(raw: string): string {
  return raw;
}

function browserMode(raw: string): BrowserMode {
  const v = raw.trim().toLowerCase();
  if (v === "auto" || v === "off") return v;
  throw new ConfigValueError(`must be auto or off, got "${raw}"`);
}

function thirdParty(raw: string): BrowserThirdParty {
  const v = raw.trim().toLowerCase();
  if (v === "auto") return "auto";
  if (v === "0") return "none";
  if (v === "1") return "all";
  throw new ConfigValueError(`must be auto, 0 or 1, got "${raw}"`);
}

function browserProfiles(raw: string): BrowserProfile[] {
  const out: BrowserProfile[] = [];
  for (const part of raw.split(",").map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    if (part !== "mobile" && part !== "desktop") throw new ConfigValueError(`must be mobile, desktop or both (comma-separated), got "${raw}"`);
    if (!out.includes(part)) out.push(part);
  }
  if (out.length === 0) throw new ConfigValueError(`must name at least one profile (mobile, desktop), got "${raw}"`);
  return out;
}

function browserThrottling(raw: string): BrowserThrottling {
  const v = raw.trim().toLowerCase();
  if (v === "provided" || v === "devtools") return v;
  throw new ConfigValueError(`must be provided or devtools, got "${raw}"`);
}

/** A thread count, or auto: one per core, at most 4. */
/** Cores less one (the serving thread keeps a core), at least 1, at most 4. */
function utilityThreads(raw: string): number {
  if (raw.trim().toLowerCase() === "auto") return Math.max(1, Math.min(4, availableParallelism() - 1));
  return integer(1, 64)(raw);
}

/** Comma-separated utility ids. */
function idList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const item of items) if (!/^[a-z0-9_]{1,64}$/.test(item)) throw new ConfigValueError(`"${item}" is not a utility id`);
  return items;
}

/** Comma-separated search data provider ids (GET /providers names them; an id no provider has turns nothing off). */
function providerList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const item of items) if (!/^[a-z0-9_]{1,64}$/.test(item)) throw new ConfigValueError(`"${item}" is not a provider id`);
  return [...new Set(items)];
}

function threadCount(raw: string): number {
  if (raw.trim().toLowerCase() === "auto") return Math.max(1, Math.min(4, availableParallelism()));
  return integer(0, 64)(raw);
}

/** Host patterns: names, *.domain suffixes or CIDRs, comma-separated. */
function hostPatterns(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const item of items) {
    if (item.includes("/")) {
      const [net, bits] = item.split("/");
      if (isIP(net ?? "") === 0 || !/^\d{1,3}$/.test(bits ?? "")) throw new ConfigValueError(`"${item}" is not a CIDR`);
    } else if (!/^(\*\.)?[a-z0-9.-]+$/.test(item) && isIP(item) === 0) throw new ConfigValueError(`"${item}" is not a host name, *.domain or CIDR`);
  }
  return items;
}

/** Addresses, CIDRs or exact host names (no wildcards), comma-separated. */
function hostPatternsExact(raw: string): string[] {
  const items = hostPatterns(raw);
  const wild = items.find((i) => i.startsWith("*."));
  if (wild) throw new ConfigValueError(`"${wild}": name each address, network or host exactly (no *.)`);
  return items;
}

/**
 * The owner's first key, when the operator chooses it: it must look like the keys Svc generates
 * ("svc_" and 40 random base62 characters), because only its first 12 characters are shown and the
 * rest is all that stands between the key and its SHA-256; a short or patterned value would be
 * stored and listed nearly in clear.
 */
function bootstrapKey(raw: string): string | null {
  if (raw === "") return null;
  const hint = "leave it unset to have a key generated and printed once";
  if (!/^svc_[0-9A-Za-z]{40}$/.test(raw)) throw new ConfigValueError(`must be "svc_" followed by 40 letters and digits, as Svc generates keys; ${hint}`);
  const body = raw.slice(4);
  // A random 40-character base62 string has about 30 distinct characters (20 or fewer: p < 1e-6)
  // and about one neighbouring pair that runs up or down the alphabet.
  const distinct = new Set(body).size;
  let runs = 0;
  for (let i = 1; i < body.length; i++) if (Math.abs(body.charCodeAt(i) - body.charCodeAt(i - 1)) <= 1) runs++;
  if (distinct < 20 || runs > 8) throw new ConfigValueError(`does not look random (${distinct} distinct characters); ${hint}`);
  return raw;
}

function optionalText(raw: string): string | null {
  return raw === "" ? null : raw;
}

function address(raw: string): string {
  if (isIP(raw) === 0 && raw !== "localhost") throw new ConfigValueError(`must be an IP address, got "${raw}"`);
  return raw;
}

function postgresUrl(raw: string): string | null {
  if (raw === "") return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigValueError("must start with postgres:// or postgresql://");
  return raw;
}

function clickhouseUrl(raw: string): string | null {
  if (raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigValueError("must be a URL such as http://clickhouse:8123/svc");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigValueError("must start with http:// or https:// (the HTTP interface)");
  if (!/^\/?[A-Za-z0-9_]*$/.test(url.pathname)) throw new ConfigValueError("the path, if any, is one database name (letters, digits, _)");
  return raw;
}

function otlpEndpoint(raw: string): string | null {
  if (raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigValueError("must be a URL such as http://otel-collector:4318");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigValueError("must start with http:// or https:// (OTLP over HTTP)");
  return raw;
}

function level(raw: string): LogLevel {
  const levels: LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
  if (!levels.includes(raw as LogLevel)) throw new ConfigValueError(`must be one of ${levels.join(", ")}`);
  return raw as LogLevel;
}

function cidrList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const item of items) {
    const [ip, bits, extra] = item.split("/");
    const family = isIP(ip ?? "");
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined) throw new ConfigValueError(`"${item}" is not an address or CIDR network`);
  }
  return items;
}

/** Origins (scheme://host[:port]), comma-separated. */
function originList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const item of items) {
    if (!/^https?:\/\/[^/\s]+$/.test(item)) throw new ConfigValueError(`"${item}" is not an origin such as https://app.example.com`);
  }
  return items;
}

/** DNS servers: IPv4[:port], [IPv6]:port or a bare IPv6 address. */
/** name=address[:port], comma-separated (the public resolvers of network utilities). */
function resolverMap(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of raw.split(",").map((x) => x.trim()).filter(Boolean)) {
    const m = /^([a-z][a-z0-9_]{0,31})=(.+)$/.exec(item);
    if (!m) throw new ConfigValueError(`"${item}" is not name=address[:port]`);
    out[m[1] as string] = serverList(m[2] as string)[0] as string;
  }
  return out;
}

function portList(raw: string): number[] {
  return raw.split(",").map((x) => x.trim()).filter(Boolean).map((x) => integer(1, 65_535)(x));
}

function serverList(raw: string): string[] {
  const items = raw.split(",").map((x) => x.trim()).filter((x) => x !== "");
  for (const item of items) {
    const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(item);
    const v6 = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(item);
    const [address, port] = v4 ? [v4[1], v4[2]] : v6 ? [v6[1], v6[2]] : [item, undefined];
    const family = isIP(address ?? "");
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
    if (family === 0 || (v4 && family !== 4) || !portOk) throw new ConfigValueError(`"${item}" is not an address or address:port`);
  }
  return items;
}

function crawlOverrides(raw: string): CrawlOverride[] {
  const out: CrawlOverride[] = [];
  for (const item of raw.split(",").map((x) => x.trim()).filter((x) => x !== "")) {
    const m = /^([^=]+)=(\d{1,3})\/(\d{1,6})$/.exec(item);
    const match = m?.[1]?.trim().toLowerCase() ?? "";
    const isNet = match.includes("/") && isIP(match.split("/")[0] ?? "") !== 0;
    const isName = /^(\*\.)?[a-z0-9.-]+$/.test(match);
    if (!m || (!isNet && !isName) || Number(m[2]) < 1) {
      throw new ConfigValueError(`"${item}" is not <host, *.domain or CIDR>=<connections>/<delay ms>`);
    }
    out.push({ match, connectionsPerHost: Number(m[2]), minDelayMs: Number(m[3]) });
  }
  return out;
}

/** host:port to listen on; port 0 picks a free one. */
function listenAddress(raw: string): string {
  if (!/^[A-Za-z0-9.-]+:\d{1,5}$/.test(raw) || Number(raw.slice(raw.lastIndexOf(":") + 1)) > 65535) throw new ConfigValueError("must be host:port, e.g. 0.0.0.0:7070");
  return raw;
}

function hostPort(raw: string): string | null {
  if (raw === "") return null;
  if (!/^[A-Za-z0-9.-]+:\d{1,5}$/.test(raw)) throw new ConfigValueError("must be host:port");
  return raw;
}

/** Kafka bootstrap servers, host:port comma-separated; empty: none (the embedded bus). */
function brokerList(raw: string): string[] | null {
  const items = raw.split(",").map((x) => x.trim()).filter((x) => x !== "");
  if (items.length === 0) return null;
  for (const item of items) {
    try {
      hostPort(item);
    } catch {
      throw new ConfigValueError(`"${item}" is not host:port`);
    }
  }
  return items;
}

/** Kafka topic names allow ASCII letters, digits, ".", "_" and "-". */
function topicPrefix(raw: string): string {
  if (!/^[A-Za-z0-9._-]*$/.test(raw)) throw new ConfigValueError(`may hold only letters, digits, ".", "_" and "-"; got "${raw}"`);
  return raw;
}

function baseUrl(raw: string): string | null {
  if (raw === "") return null;
  if (!/^https?:\/\/[^/]+$/.test(raw)) throw new ConfigValueError("must be an origin such as https://svc.example.com (no path)");
  return raw;
}

/** The schema: one row per variable. docs/configuration.md is generated from the same rows. */
export const CONFIG_FIELDS: readonly Field[] = [
  { env: "SVC_HOST", key: "host", default: "127.0.0.1", parse: address, doc: "Address the REST gateway listens on." },
  { env: "SVC_PORT", key: "port", default: "8080", parse: integer(0, 65535), doc: "Port of the REST gateway (0 picks a free port)." },
  { env: "SVC_ADMIN_HOST", key: "adminHost", default: "127.0.0.1", parse: address, doc: "Address of /metrics, /healthz and /readyz." },
  { env: "SVC_ADMIN_PORT", key: "adminPort", default: "9464", parse: integer(0, 65535), doc: "Port of /metrics, /healthz and /readyz (0 picks a free port)." },
  { env: "SVC_DATA_DIR", key: "dataDir", default: "./data", parse: text, doc: "Embedded store (PGlite) and the admin socket live here; locked by one process at a time." },
  { env: "SVC_PGLITE_SHARED_BUFFERS_MB", key: "pgliteSharedBuffersMb", default: "16", parse: integer(1, 4096), doc: "PGlite's shared_buffers (MB) in the embedded store's WASM heap; memory `svc serve` keeps all its life (PGlite's own default is 128)." },
  { env: "SVC_POSTGRES_URL", key: "postgresUrl", default: "", parse: postgresUrl, doc: "A Postgres server instead of the embedded store, e.g. postgres://svc:pw@db:5432/svc." },
  { env: "SVC_POSTGRES_POOL", key: "postgresPoolSize", default: "10", parse: integer(1, 200), doc: "Connections in the Postgres pool of one process." },
  { env: "SVC_CLICKHOUSE_URL", key: "clickhouseUrl", default: "", parse: clickhouseUrl, doc: "ClickHouse (HTTP interface) for the time series, with the database as path, e.g. http://svc:pw@clickhouse:8123/svc; empty keeps them in Postgres." },
  { env: "SVC_CLICKHOUSE_RETENTION_MONTHS", key: "clickhouseRetentionMonths", default: "13", parse: integer(1, 1200), doc: "Months of time series kept in ClickHouse; older monthly partitions are dropped." },
  { env: "SVC_BOOTSTRAP_KEY", key: "bootstrapKey", default: "", parse: bootstrapKey, doc: "On first start, the owner's key takes this value (svc_ and 40 random letters and digits, as Svc generates keys; anything else is refused); otherwise a new key is printed once." },
  { env: "SVC_BOOTSTRAP_EMAIL", key: "bootstrapEmail", default: "owner@localhost", parse: text, doc: "E-mail of the owner account created on first start." },
  { env: "SVC_ALLOW_PRIVATE_TARGETS", key: "allowPrivateTargets", default: "0", parse: flag, doc: "Allow .test names, private and loopback addresses as sites and targets (tests, intranets)." },
  { env: "SVC_ALLOW_LINK_LOCAL_TARGETS", key: "allowLinkLocalTargets", default: "", parse: hostPatternsExact, doc: "Link-local (169.254.0.0/16, fe80::/10) and cloud metadata addresses, networks or names (comma-separated) that may be sites and targets anyway; all others stay refused whatever SVC_ALLOW_PRIVATE_TARGETS says." },
  { env: "SVC_LOG_LEVEL", key: "logLevel", default: "info", parse: level, doc: "pino log level: fatal, error, warn, info, debug, trace, silent." },
  { env: "SVC_OTLP_ENDPOINT", key: "otlpEndpoint", default: "", parse: otlpEndpoint, doc: "OpenTelemetry collector (OTLP/HTTP, JSON) that receives the spans of every request and the work it causes, e.g. http://otel-collector:4318 (spans go to its /v1/traces); empty sends nothing anywhere and never loads the OpenTelemetry SDK." },
  { env: "SVC_EVENT_LOOP_SAMPLE_MS", key: "eventLoopSampleMs", default: "100", parse: integer(1, 1000), doc: "How often the event-loop delay behind nodejs_eventloop_lag_* is sampled (ms; prom-client's default was 10). Each sample wakes the process: 10 ms cost an idle role about 2 ms of CPU a second, 100 ms about 0.3; a stall shorter than this is seen only when it covers a sample (a stall of at least this long always is)." },
  { env: "SVC_TRUSTED_PROXIES", key: "trustedProxies", default: "", parse: cidrList, doc: "Comma-separated addresses/CIDRs whose X-Forwarded-For is believed." },
  { env: "SVC_MAINTENANCE", key: "maintenance", default: "0", parse: flag, doc: "Start in maintenance: every API call answers 503 maintenance (also `svc admin maintenance on`)." },
  { env: "SVC_RATE_PER_HOUR", key: "ratePerHourDefault", default: "120", parse: integer(1, 10_000_000), doc: "Default hourly request limit of a new key." },
  { env: "SVC_ADDRESS_RATE_PER_HOUR", key: "addressRatePerHour", default: "600", parse: integer(1, 10_000_000), doc: "Hourly limit per client address for keyless routes and failed authentication." },
  { env: "SVC_IDEMPOTENCY_TTL_S", key: "idempotencyTtlSeconds", default: "86400", parse: integer(60, 604800), doc: "How long an Idempotency-Key and its stored answer are kept (seconds)." },
  { env: "SVC_IDEMPOTENCY_LOCK_S", key: "idempotencyLockSeconds", default: "60", parse: integer(1, 3600), doc: "After this many seconds a request that never finished (crash) no longer holds its key." },
  { env: "SVC_USAGE_FLUSH_MS", key: "usageFlushMs", default: "10000", parse: integer(100, 60000), doc: "Per-day usage counters are flushed to storage at least this often (ms)." },
  { env: "SVC_KEY_CACHE_MS", key: "keyCacheMs", default: "60000", parse: integer(0, 3_600_000), doc: "How long a gateway may reuse a looked-up key; changes are pushed at once over Postgres notifications (0: look up every request)." },
  { env: "SVC_STATE_REFRESH_MS", key: "stateRefreshMs", default: "2000", parse: integer(100, 60000), doc: "How often a gateway re-reads the maintenance/closed switches (ms)." },
  { env: "SVC_SHUTDOWN_GRACE_MS", key: "shutdownGraceMs", default: "10000", parse: integer(0, 600000), doc: "On SIGTERM, time allowed to drain and close (ms): requests in flight (gateway), running jobs (crawler; what cannot finish is abandoned and its lease handed back), then connections, closed side by side where they can be." },
  { env: "SVC_REQUEST_TIMEOUT_MS", key: "requestTimeoutMs", default: "30000", parse: integer(1000, 600_000), doc: "A request, headers and body, must arrive within this (ms); a slower one is answered 400 bad_request and its connection closed (slow-body attacks)." },
  { env: "SVC_PUBLIC_BASE_URL", key: "publicBaseUrl", default: "", parse: baseUrl, doc: "Public origin shown in /capabilities and OpenAPI servers (unset: the request's Host), and the OAuth metadata's and the tool server's own origin (DNS-rebinding check; unset: the request's Host only when it is an IP literal or localhost or comes through SVC_TRUSTED_PROXIES, else the address and port the connection reached). Set it behind a proxy." },
  { env: "SVC_OAUTH_ACCESS_TTL_S", key: "oauthAccessTtlSeconds", default: "3600", parse: integer(60, 86400), doc: "Lifetime of an OAuth access token (seconds); clients renew it with their refresh token, which rotates on every use and lives 30 days." },
  { env: "SVC_MCP_ALLOWED_ORIGINS", key: "mcpAllowedOrigins", default: "", parse: originList, doc: "Comma-separated origins besides the service's own whose pages may call POST /api/v1/mcp; a request with any other Origin header is refused (403, DNS-rebinding defence)." },
  { env: "SVC_SCHEDULER_ADDRESS", key: "schedulerAddress", default: "", parse: hostPort, doc: "host:port of the scheduler's gRPC server for a gateway or crawler role; empty in `svc serve` (a loopback port of its own)." },
  { env: "SVC_GRPC_LISTEN", key: "grpcListen", default: "127.0.0.1:7070", parse: listenAddress, doc: "host:port the scheduler's gRPC server listens on in `svc scheduler` (0.0.0.0:7070 to serve other machines; port 0 picks a free one); `svc serve` uses a loopback port of its own." },
  { env: "SVC_REPORT_FRESH_S", key: "reportFreshSeconds", default: "3600", parse: integer(0, 30 * 86400), doc: "A report younger than this answers POST /analyze at once (a cache hit, not charged) unless fresh is true." },
  { env: "SVC_LEASE_MS", key: "leaseMs", default: "30000", parse: integer(500, 3_600_000), doc: "A worker's lease on a job; renewed by heartbeats, and the job is handed to another worker when it lapses." },
  { env: "SVC_MAX_ATTEMPTS", key: "maxAttempts", default: "3", parse: integer(1, 20), doc: "Attempts of a job before it ends in error." },
  { env: "SVC_STALE_JOB_S", key: "staleJobSeconds", default: "120", parse: integer(1, 86400), doc: "A queued job untouched this long is published again (its message was lost)." },
  { env: "SVC_SYNC_WAIT_MS", key: "syncWaitMs", default: "25000", parse: integer(1000, 120_000), doc: "Deadline of synchronous checks (GET /analyze); after it the answer is 409 not_ready with the job to poll." },
  { env: "SVC_PLAN_EVERY_S", key: "planEverySeconds", default: "60", parse: integer(0, 86400), doc: "How often the scheduler looks for sites due for their periodic re-check (each site every interval_h; a new site at once); 0 turns periodic checks off." },
  { env: "SVC_WEBHOOK_PLAN_MS", key: "webhookPlanMs", default: "1000", parse: integer(0, 60_000), doc: "How often the scheduler turns new events into webhook deliveries and hands out the attempts that are due (ms); 0 turns webhook deliveries off." },
  { env: "SVC_WORKER_CONCURRENCY", key: "workerConcurrency", default: "2", parse: integer(1, 64), doc: "Jobs of the job lane (analyses, crawls) one crawler worker runs at once." },
  { env: "SVC_WORKER_STREAM_CONCURRENCY", key: "workerStreamConcurrency", default: "128", parse: integer(1, 1024), doc: "Stream-lane batches (uptime probes) one crawler worker runs at once, on slots of their own and with their own bound on Kafka messages in flight. A probe mostly waits on the network: 10,000 sites at a 1-minute interval need about 170 probes a second, so about 85 at once at 0.5 s each (docs/benchmarks.md, bench:uptime)." },
  { env: "SVC_WORKER_WEBHOOK_CONCURRENCY", key: "workerWebhookConcurrency", default: "32", parse: integer(1, 1024), doc: "Webhook delivery attempts one crawler worker sends at once, on slots of their own (and, on Kafka, their own topic and bound on messages in flight): slow receivers never hold the job lane's slots, nor analyses and crawls the deliveries'. A delivery costs about 8 CPU-ms in the embedded mode (bench:webhooks), so a core sends about 125 a second: 32 slots keep it busy while receivers answer within 250 ms, and 32 receivers that never answer (8 s each) still leave 4 attempts a second (docs/webhooks.md)." },
  { env: "SVC_WORKER_SYNC_CONCURRENCY", key: "workerSyncConcurrency", default: "4", parse: integer(1, 64), doc: "Jobs of the synchronous lane (GET /analyze, /full, /check, /ssl, /dns) one crawler worker runs at once, on slots of their own: a waiting caller never queues behind analyses and crawls." },
  { env: "SVC_UPTIME_TIMEOUT_MS", key: "uptimeTimeoutMs", default: "10000", parse: integer(1000, 60_000), doc: "An uptime probe without a complete answer in this time fails with cause timeout (independent of the probing interval)." },
  { env: "SVC_UPTIME_SLOW_MS", key: "uptimeSlowMs", default: "3000", parse: integer(100, 60_000), doc: "An uptime probe answered slower than this is slow; three slow probes in a row make the site degraded (its own incident), two fast ones end it." },
  { env: "SVC_WATCH_PAGES", key: "watchPages", default: "10", parse: integer(0, 50), doc: "Watched pages per monitored site: the home page and the most important pages by internal link rank (of the latest crawl; before one, the first pages an analysis samples). Every analysis compares their status, title, description, robots, canonical, H1 and text; a change is a watchdog event. 0 turns the watchdog off." },
  { env: "SVC_IMPORT_SYNC_MAX_MB", key: "importSyncMaxMb", default: "5", parse: integer(0, 64), doc: "Uploads to POST /imports/{host} up to this size (MB, decoded) are imported within the request (201, or 200 for a file imported before); larger ones answer 202 with an import job that runs in the background of the gateway that took the upload (GET /jobs/{id} shows it; docs/search-data.md). 0 sends every upload to a job." },
  { env: "SVC_IMPORT_MAX_ROWS", key: "importMaxRows", default: "500000", parse: integer(1000, 100_000_000), doc: "Rows one import may hold (the rows of its tables, or the facts of a JSON export, summed over a ZIP's files and a workbook's sheets); a larger file is refused with bad_param saying the cap, as soon as the parser reaches it, and nothing of it is stored (docs/search-data.md)." },
  { env: "SVC_IMPORT_MEMORY_MB", key: "importMemoryMb", default: "384", parse: integer(64, 16_384), doc: "Heap of the thread that parses one import (MB): every upload is parsed off the serving thread, in a thread of its own with this heap; a file that needs more is refused with bad_param, and nothing of it is stored. The parsed facts are stored from the gateway's own heap, which holds them (at most SVC_IMPORT_MAX_ROWS of them) while they are written." },
  { env: "SVC_SEARCH_SOURCES_OFF", key: "searchSourcesOff", default: "", parse: providerList, doc: "Comma-separated search data providers (as GET /providers names them: gsc, gsc_indexing, yandex_webmaster, topvisor, keysso, ahrefs, semrush) the administrator turned off for every account: their imports, and the sections that read only turned-off providers, answer 503 service_off; GET /providers lists them with enabled false (docs/search-data.md). An id no provider has stops the gateway at start." },
  { env: "SVC_UPTIME_PLAN_EVERY_MS", key: "uptimePlanEveryMs", default: "5000", parse: integer(0, 600_000), doc: "How often the scheduler plans the uptime probes that are due (each site every uptime_min of its plan, 5 by default); 0 turns uptime probing off." },
  { env: "SVC_KAFKA_BROKERS", key: "kafkaBrokers", default: "", parse: brokerList, doc: "Kafka bootstrap servers (host:port, comma-separated) of the distributed mode's bus; empty: the in-process bus of `svc serve`." },
  { env: "SVC_KAFKA_PARTITIONS", key: "kafkaPartitions", default: "16", parse: integer(1, 10_000), doc: "Partitions of a bus topic created by Svc; at least 4x the largest crawler replica count you expect (adding partitions later moves domains between crawlers)." },
  { env: "SVC_KAFKA_RETENTION_H", key: "kafkaRetentionHours", default: "72", parse: integer(1, 8760), doc: "Retention of a bus topic created by Svc (hours)." },
  { env: "SVC_KAFKA_TOPIC_PREFIX", key: "kafkaTopicPrefix", default: "", parse: topicPrefix, doc: "Put before the name of every bus topic (svc.work.v1, svc.sync.v1, svc.stream.v1, svc.webhooks.v1, svc.results.v1, svc.dead.v1), so that several installations can share one Kafka cluster." },
  { env: "SVC_KAFKA_SESSION_TIMEOUT_MS", key: "kafkaSessionTimeoutMs", default: "30000", parse: integer(1000, 300_000), doc: "Kafka consumer session timeout: a crawler that dies holds its partitions this long before the others take them over (heartbeats every sixth of it, at most 3 s); the broker's group.min.session.timeout.ms (6 s by default) is the floor." },
  { env: "SVC_PAGE_SAMPLE", key: "crawl.pageSample", default: "20", parse: integer(0, 500), doc: "Internal pages sampled by an analysis besides the home page." },
  { env: "SVC_DNS_SERVERS", key: "crawl.dnsServers", default: "", parse: serverList, doc: "DNS servers the crawler asks (address or address:port, comma-separated); empty: the system's." },
  { env: "SVC_EXTRA_CA_FILE", key: "crawl.extraCaFile", default: "", parse: optionalText, doc: "PEM file of certificate authorities trusted besides the system's (intranets, tests)." },
  { env: "SVC_CRAWL_CONNECTIONS_PER_HOST", key: "crawl.connectionsPerHost", default: "4", parse: integer(1, 64), doc: "Politeness: concurrent connections to one host." },
  { env: "SVC_CRAWL_MIN_DELAY_MS", key: "crawl.minDelayMs", default: "250", parse: integer(0, 60_000), doc: "Politeness: minimum delay between two requests to one host." },
  { env: "SVC_CRAWL_DELAY_CAP_S", key: "crawl.crawlDelayCapSeconds", default: "5", parse: integer(0, 120), doc: "Politeness: robots.txt Crawl-delay is honoured up to this many seconds." },
  { env: "SVC_FETCH_TIMEOUT_MS", key: "crawl.fetchTimeoutMs", default: "15000", parse: integer(100, 120_000), doc: "Timeout of one fetch." },
  { env: "SVC_MAX_BODY_BYTES", key: "crawl.maxBodyBytes", default: "5242880", parse: integer(1024, 100 * 1024 * 1024), doc: "Largest body read of one response (the rest is cut off and flagged)." },
  { env: "SVC_MAX_REDIRECTS", key: "crawl.maxRedirects", default: "10", parse: integer(0, 30), doc: "Redirects followed for one fetch." },
  { env: "SVC_USER_AGENT", key: "crawl.userAgent", default: "SvcBot/0.1 (+https://github.com/svc)", parse: text, doc: "User-Agent of the crawler; robots.txt groups are matched on its product token (SvcBot)." },
  { env: "SVC_CRAWL_OVERRIDES", key: "crawl.overrides", default: "", parse: crawlOverrides, doc: "Politeness overrides, comma-separated <host, *.domain or CIDR>=<connections>/<delay ms>, e.g. 127.0.0.0/8=8/0 for loopback fixtures; the first match wins." },
  { env: "SVC_CONFIRM_DELAY_MS", key: "crawl.confirmDelayMs", default: "60000", parse: integer(0, 600_000), doc: "Before a severe failure caps a rank, the crawler observes it again after this delay (same run; at most 5 s for GET /analyze); 0 confirms at once." },
  { env: "SVC_PLAN_SITES", key: "plan.sites", default: "50", parse: integer(0, 1_000_000), doc: "Default plan: number of sites." },
  { env: "SVC_PLAN_CHECKS_PER_DAY", key: "plan.checksPerDay", default: "200", parse: integer(0, 1_000_000), doc: "Default plan: checks a user may start per UTC day." },
  { env: "SVC_PLAN_RECHECKS_PER_DAY", key: "plan.rechecksPerDay", default: "100", parse: integer(0, 1_000_000), doc: "Default plan: task re-checks per UTC day." },
  { env: "SVC_PLAN_WEBHOOKS", key: "plan.webhooks", default: "10", parse: integer(0, 10_000), doc: "Default plan: number of webhooks." },
  { env: "SVC_PLAN_API_KEYS", key: "plan.apiKeys", default: "10", parse: integer(1, 10_000), doc: "Default plan: number of API keys." },
  { env: "SVC_PLAN_KEY_RATE_PER_HOUR", key: "plan.keyRatePerHour", default: "10000", parse: integer(1, 1_000_000_000), doc: "Default plan: the hourly limits of an account's usable keys add up to at most this many requests (POST /keys answers 429 limit past it)." },
  { env: "SVC_PLAN_CRAWL_PAGES", key: "plan.crawlPages", default: "500", parse: integer(1, 1_000_000), doc: "Default plan: URLs one whole-site crawl fetches at most (truncated_by page_limit)." },
  { env: "SVC_PLAN_CRAWL_DEPTH", key: "plan.crawlDepth", default: "10", parse: integer(0, 100), doc: "Default plan: link hops from the home page a crawl follows (truncated_by depth_limit)." },
  { env: "SVC_PLAN_UPTIME_MIN", key: "plan.uptimeMin", default: "5", parse: integer(1, 1440), doc: "Default plan: minutes between uptime probes of a site (a site several accounts monitor is probed at the shortest of their plans' intervals)." },
  { env: "SVC_CRAWL_MAX_MINUTES", key: "crawl.crawlMaxMinutes", default: "30", parse: integer(1, 24 * 60), doc: "A whole-site crawl stops after this many minutes (truncated_by time_limit)." },
  { env: "SVC_CRAWL_MEMORY_MB", key: "crawl.crawlMemoryMb", default: "512", parse: integer(16, 1_000_000), doc: "A whole-site crawl stops once what it keeps of its pages for the whole-crawl analysis (URLs, links, the facts it reads: about 1 KB a page) reaches this many MB (truncated_by memory_limit)." },
  { env: "SVC_CRAWL_FACTS_DIR", key: "crawl.crawlFactsDir", default: "", parse: text, doc: "Folder where a whole-site crawl keeps its pages' compact facts (gzip'd) until its analysis has read them; each file is removed when its attempt ends, and files a crashed process left (its pid no longer running) at the next start. Empty: SVC_DATA_DIR/crawl-facts for `svc serve` on its embedded store, else svc-crawl-facts in the OS temporary directory (the crawler pod's /tmp)." },
  { env: "SVC_CRAWL_MAX_PER_PATTERN", key: "crawl.crawlMaxPerPattern", default: "100", parse: integer(1, 1_000_000), doc: "Crawler traps: URLs sharing a path pattern (numbers collapsed) and parameter names beyond this many are skipped and reported as a trap." },
  { env: "SVC_PARSE_THREADS", key: "crawl.parseThreads", default: "auto", parse: threadCount, doc: "Worker threads that parse and check crawled pages off the serving thread; auto: one per core, at most 4; 0 parses on the serving thread (tests)." },
  { env: "SVC_PARSE_WARMUP_PAGES", key: "crawl.parseWarmUpPages", default: "100", parse: integer(0, 1000), doc: "Generated pages (about 47 KB each) every parse thread parses and checks at start, before /readyz says ready (about 1 s of startup with 100): a fresh thread is two to three times slower on its first pages and compiles its hot code meanwhile, which the first crawl would otherwise pay. 0 skips it." },
  { env: "SVC_PARSE_IDLE_S", key: "crawl.parseIdleSeconds", default: "300", parse: integer(0, 86_400), doc: "Parse threads that had no page for this many seconds exit (about 38 MB resident each) and start again, without warm-up pages, with the next crawl or page check: a crawler node that only probes uptime holds none. 0 keeps them for good." },
  { env: "SVC_EGRESS_ALLOW", key: "crawl.egressAllow", default: "", parse: hostPatterns, doc: "External hosts a crawl may fetch to check its external links (comma-separated names, *.domain or CIDRs); others are reported as unchecked, never as broken." },
  { env: "SVC_CRAWL_FINDINGS_DAYS", key: "crawl.crawlFindingsDays", default: "30", parse: integer(1, 365), doc: "A crawl's crawl-scope findings feed the rank of later analyses of the host for this many days." },
  { env: "SVC_BROWSER", key: "crawl.browser", default: "auto", parse: browserMode, doc: "Headless-browser measurements (performance, JavaScript dependency) of the home page and the most linked pages, once per analysis (not GET /analyze): auto measures with headless Chromium where SVC_BROWSER_PATH exists (apt-get install chromium) and reports the state where it does not; off never starts a browser. Without a run the rank carries the site's last measured run forward (7 days), then scores performance on its diagnostics alone." },
  { env: "SVC_BROWSER_PATH", key: "crawl.browserPath", default: "/usr/bin/chromium", parse: text, doc: "Chromium executable for browser metrics (Debian's chromium package); Svc never downloads a browser." },
  { env: "SVC_BROWSER_TIMEOUT_MS", key: "crawl.browserTimeoutMs", default: "30000", parse: integer(1000, 300_000), doc: "One page's browser measurement, from navigation until the page settles, at most this long (ms); past it the metrics are recorded as an error." },
  { env: "SVC_BROWSER_THIRD_PARTY", key: "crawl.browserThirdParty", default: "auto", parse: thirdParty, doc: "Requests of a measured page to other origins than the site's: auto allows the hosts in SVC_EGRESS_ALLOW, 0 none, 1 any; addresses the egress guard refuses are aborted in every case." },
  { env: "SVC_BROWSER_CONTEXTS", key: "crawl.browserContexts", default: "1", parse: integer(1, 16), doc: "Browser contexts per crawler node: pages measured at once (each in a fresh context). Metrics inflate with parallelism on a small machine: keep 1 unless the node has cores to spare." },
  { env: "SVC_BROWSER_RECYCLE_PAGES", key: "crawl.browserRecyclePages", default: "50", parse: integer(1, 100_000), doc: "The browser is replaced by a fresh one after this many pages (the old one finishes its pages first)." },
  { env: "SVC_BROWSER_MAX_MEMORY_MB", key: "crawl.browserMaxMemoryMb", default: "1024", parse: integer(64, 65_536), doc: "The browser is replaced when the memory of its processes (PSS, sampled after each page) passes this (MiB)." },
  { env: "SVC_BROWSER_PROFILES", key: "crawl.browserProfiles", default: "mobile,desktop", parse: browserProfiles, doc: "Profiles each measured page is loaded with (mobile, desktop: Lighthouse's screens and user agents), comma-separated; the rank uses the home page's mobile run." },
  { env: "SVC_BROWSER_PAGES", key: "crawl.browserPages", default: "3", parse: integer(1, 20), doc: "Pages measured in the browser per analysis: the home page plus the sample pages with the most internal links to them." },
  { env: "SVC_BROWSER_THROTTLING", key: "crawl.browserThrottling", default: "devtools", parse: browserThrottling, doc: "devtools: each profile's Lighthouse DevTools throttling, the conditions of Lighthouse's and PageSpeed Insights' default mobile run applied for real (slow 4G: 562.5 ms request latency, 1,474.56 / 675 Kbit/s, and a 4× slower CPU; desktop, as Lighthouse's desktop preset, none); provided: pages load as fast as the machine and network allow (Lighthouse's --throttling-method=provided). Each run states its throttling." },
  { env: "SVC_UTILITY_THREADS", key: "utilities.threads", default: "auto", parse: utilityThreads, doc: "Worker threads of the gateway that run the offline utilities (POST /utilities/{id}), started on first use; auto: one per core less one, 1-4." },
  { env: "SVC_UTILITY_CPU_MS", key: "utilities.cpuMs", default: "10000", parse: integer(100, 600_000), doc: "Time limit of one offline utility run (ms); past it the run's thread is terminated and the run answers tool_failed (regex_test has 1 s)." },
  { env: "SVC_UTILITY_MEMORY_MB", key: "utilities.memoryMb", default: "256", parse: integer(32, 16_384), doc: "Heap of each utility thread (MB); a run that needs more is stopped and answers tool_failed, and a fresh thread takes its place." },
  { env: "SVC_UTILITY_IMAGE_MEMORY_MB", key: "utilities.imageMemoryMb", default: "512", parse: integer(128, 16_384), doc: "Resident memory (MB) of each process that runs the image utilities (libvips allocates outside the V8 heap, so they run in child processes of the gateway, one per utility thread); a run past it is killed and answers tool_failed, and a fresh process takes its place." },
  { env: "SVC_UTILITIES_OFF", key: "utilities.off", default: "", parse: idList, doc: "Comma-separated utility ids the administrator disabled: they stay listed with enabled false and answer tool_off. An id no utility has stops the gateway at start." },
  { env: "SVC_UTILITY_NET_PER_HOUR", key: "utilities.netPerHour", default: "60", parse: integer(1, 1_000_000), doc: "Runs of network utilities (net: true) one key may start per hour; a bulk run counts 1 plus 1 for every 10 targets after the first; past it POST /utilities/{id} answers 429 limit." },
  { env: "SVC_UTILITY_RESOLVERS", key: "crawl.utilityResolvers", default: "google=8.8.8.8,cloudflare=1.1.1.1,quad9=9.9.9.9,yandex=77.88.8.8", parse: resolverMap, doc: "Public DNS resolvers network utilities may ask besides the crawler's own (dns_lookup's resolvers), comma-separated name=address[:port]." },
  { env: "SVC_UTILITY_PORTS", key: "crawl.utilityPorts", default: "21,22,25,53,80,110,143,443,465,587,993,995,3306,5432,8080,8443", parse: portList, doc: "Ports network utilities may connect to (port_check, tls_http_versions), comma-separated." },
  { env: "SVC_UTILITY_WHOIS_ROOT", key: "crawl.whoisRoot", default: "whois.iana.org", parse: text, doc: "The WHOIS server the whois utility asks first for a domain's registry (it follows the referrals from there)." },
  { env: "SVC_UTILITY_WHOIS_PORT", key: "crawl.whoisPort", default: "43", parse: integer(1, 65_535), doc: "Port of every WHOIS query (43; another only for test servers)." },
  { env: "SVC_UTILITY_SMTP_PORT", key: "crawl.smtpPort", default: "25", parse: integer(1, 65_535), doc: "Port of email_verify's optional SMTP probe (RCPT TO, no mail sent) to a domain's mail server (25; another only for test servers)." },
  { env: "SVC_UTILITY_ECHO_URL", key: "crawl.echoUrl", default: "", parse: text, doc: "An HTTP(S) service that answers the caller's address as text or JSON {ip}; my_ip asks it for the crawler node's public egress address (empty: none, my_ip shows the node's interface addresses only)." },
];

/**
 * Variables of the `svc` client commands (where and who), not of a server process: a server
 * ignores them, so a shell set up for the CLI can still run `svc serve`.
 */
export const CLIENT_ENV = ["SVC_API_URL", "SVC_API_KEY", "SVC_CONFIG"] as const;

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

/** Reads and validates the whole configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const field of CONFIG_FIELDS) {
    const raw = env[field.env] ?? field.default ?? "";
    try {
      setPath(out, field.key, field.parse(raw));
    } catch (err) {
      if (!(err instanceof ConfigValueError)) throw err;
      problems.push(`${field.env}: ${err.message}`);
    }
  }
  const known = new Set<string>([...CONFIG_FIELDS.map((f) => f.env), ...CLIENT_ENV]);
  for (const name of Object.keys(env)) {
    if (name.startsWith("SVC_") && !known.has(name)) problems.push(`${name}: unknown variable (see docs/configuration.md)`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(out) as unknown as Config;
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
