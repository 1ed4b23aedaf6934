// The table of every SVC_* setting: its variable, the roles that read it, its default (text, as it
// would be written in the environment), its parser and its documentation. loadConfig parses from
// here, and docs/configuration.md and docs/operations.md's roles table are generated from here
// (`npm run docs:config`).
import {
  address,
  baseUrl,
  bootstrapKey,
  browserMode,
  browserProfiles,
  browserThrottling,
  brokerList,
  cidrList,
  clickhouseUrl,
  crawlOverrides,
  flag,
  hostPatterns,
  hostPatternsExact,
  hostPort,
  idList,
  integer,
  level,
  listenAddress,
  optionalText,
  originList,
  otlpEndpoint,
  portList,
  postgresUrl,
  providerList,
  resolverMap,
  serverList,
  text,
  thirdParty,
  threadCount,
  topicPrefix,
  utilityThreads,
} from "./config-parse.ts";
import type { ConfigRole } from "./config-roles.ts";

export interface Field {
  /** The environment variable. */
  readonly env: string;
  /** Every process the variable acts in; the others neither parse nor check it. */
  readonly roles: readonly ConfigRole[];
  /** Where the value lands in Config (dotted path). */
  readonly key: string;
  readonly doc: string;
  /** The value when the variable is unset, as it would be written in the environment. */
  readonly default: string;
  readonly parse: (raw: string) => unknown;
  /** Read only when the store is first set up (plans): later changes go through `svc admin`. */
  readonly seed?: true;
}

const EVERY_ROLE: readonly ConfigRole[] = ["serve", "gateway", "scheduler", "crawler"];
const GATEWAY: readonly ConfigRole[] = ["serve", "gateway"];
const SCHEDULER: readonly ConfigRole[] = ["serve", "scheduler"];
const CRAWLER: readonly ConfigRole[] = ["serve", "crawler"];
/** The processes that open the store (bin/compose.ts openStore). */
const STORE: readonly ConfigRole[] = ["serve", "gateway", "scheduler", "admin"];
/** The processes that open the embedded store in SVC_DATA_DIR. */
const EMBEDDED_STORE: readonly ConfigRole[] = ["serve", "admin"];
/** The default plan is seeded by whoever creates the first account: the gateway's bootstrap or `svc admin`. */
const PLAN: readonly ConfigRole[] = ["serve", "gateway", "admin"];
/** Who judges a site or target's address (the gateway when it is added, the crawler's egress guard when it is fetched). */
const TARGETS: readonly ConfigRole[] = ["serve", "gateway", "crawler"];
/** The roles that call the scheduler over gRPC; `svc serve` has it in process. */
const SCHEDULER_CLIENTS: readonly ConfigRole[] = ["gateway", "crawler"];
/** The roles on the Kafka bus; `svc serve` has an in-process bus. */
const KAFKA: readonly ConfigRole[] = ["scheduler", "crawler"];

/** The schema: one row per variable. docs/configuration.md is generated from the same rows. */
export const CONFIG_FIELDS: readonly Field[] = [
  { env: "SVC_HOST", roles: GATEWAY, key: "host", default: "127.0.0.1", parse: address, doc: "Address the REST gateway listens on." },
  { env: "SVC_PORT", roles: GATEWAY, key: "port", default: "8080", parse: integer(0, 65535), doc: "Port of the REST gateway (0 picks a free port)." },
  { env: "SVC_ADMIN_HOST", roles: EVERY_ROLE, key: "adminHost", default: "127.0.0.1", parse: address, doc: "Address of /metrics, /healthz and /readyz." },
  { env: "SVC_ADMIN_PORT", roles: EVERY_ROLE, key: "adminPort", default: "9464", parse: integer(0, 65535), doc: "Port of /metrics, /healthz and /readyz (0 picks a free port)." },
  { env: "SVC_DATA_DIR", roles: EMBEDDED_STORE, key: "dataDir", default: "./data", parse: text, doc: "Embedded store (PGlite) and the admin socket live here; locked by one process at a time." },
  { env: "SVC_POSTGRES_URL", roles: STORE, key: "postgresUrl", default: "", parse: postgresUrl, doc: "A Postgres server instead of the embedded store, e.g. postgres://svc:pw@db:5432/svc." },
  { env: "SVC_POSTGRES_POOL", roles: STORE, key: "postgresPoolSize", default: "10", parse: integer(1, 200), doc: "Connections in the Postgres pool of one process." },
  { env: "SVC_CLICKHOUSE_URL", roles: STORE, key: "clickhouseUrl", default: "", parse: clickhouseUrl, doc: "ClickHouse (HTTP interface) for the time series, with the database as path, e.g. http://svc:pw@clickhouse:8123/svc; empty keeps them in Postgres." },
  { env: "SVC_CLICKHOUSE_RETENTION_MONTHS", roles: STORE, key: "clickhouseRetentionMonths", default: "13", parse: integer(1, 1200), doc: "Months of time series kept in ClickHouse; older monthly partitions are dropped." },
  { env: "SVC_BOOTSTRAP_KEY", roles: GATEWAY, key: "bootstrapKey", default: "", parse: bootstrapKey, doc: "On first start, the owner's key takes this value (svc_ and 40 random letters and digits, as Svc generates keys; anything else is refused); otherwise a new key is printed once." },
  { env: "SVC_BOOTSTRAP_EMAIL", roles: GATEWAY, key: "bootstrapEmail", default: "owner@localhost", parse: text, doc: "E-mail of the owner account created on first start." },
  { env: "SVC_ALLOW_PRIVATE_TARGETS", roles: TARGETS, key: "allowPrivateTargets", default: "0", parse: flag, doc: "Allow .test names, private and loopback addresses as sites and targets (tests, intranets)." },
  { env: "SVC_ALLOW_LINK_LOCAL_TARGETS", roles: TARGETS, key: "allowLinkLocalTargets", default: "", parse: hostPatternsExact, doc: "Link-local (169.254.0.0/16, fe80::/10) and cloud metadata addresses, networks or names (comma-separated) that may be sites and targets anyway; all others stay refused whatever SVC_ALLOW_PRIVATE_TARGETS says." },
  { env: "SVC_LOG_LEVEL", roles: EVERY_ROLE, key: "logLevel", default: "info", parse: level, doc: "pino log level: fatal, error, warn, info, debug, trace, silent." },
  { env: "SVC_OTLP_ENDPOINT", roles: EVERY_ROLE, key: "otlpEndpoint", default: "", parse: otlpEndpoint, doc: "OpenTelemetry collector (OTLP/HTTP, JSON) that receives the spans of every request and the work it causes, e.g. http://otel-collector:4318 (spans go to its /v1/traces); empty sends nothing anywhere and never loads the OpenTelemetry SDK." },
  { env: "SVC_TRUSTED_PROXIES", roles: GATEWAY, key: "trustedProxies", default: "", parse: cidrList, doc: "Comma-separated addresses/CIDRs whose X-Forwarded-For is believed." },
  { env: "SVC_MAINTENANCE", roles: GATEWAY, key: "maintenance", default: "0", parse: flag, doc: "Start in maintenance: every API call answers 503 maintenance (also `svc admin maintenance on`)." },
  { env: "SVC_RATE_PER_HOUR", roles: PLAN, key: "ratePerHourDefault", default: "120", parse: integer(1, 10_000_000), doc: "Default hourly request limit of a new key." },
  { env: "SVC_ADDRESS_RATE_PER_HOUR", roles: GATEWAY, key: "addressRatePerHour", default: "600", parse: integer(1, 10_000_000), doc: "Hourly limit per client address for keyless routes and failed authentication." },
  { env: "SVC_IDEMPOTENCY_TTL_S", roles: GATEWAY, key: "idempotencyTtlSeconds", default: "86400", parse: integer(60, 604800), doc: "How long an Idempotency-Key and its stored answer are kept (seconds)." },
  { env: "SVC_IDEMPOTENCY_LOCK_S", roles: GATEWAY, key: "idempotencyLockSeconds", default: "60", parse: integer(1, 3600), doc: "After this many seconds a request that never finished (crash) no longer holds its key." },
  { env: "SVC_USAGE_FLUSH_MS", roles: GATEWAY, key: "usageFlushMs", default: "10000", parse: integer(100, 60000), doc: "Per-day usage counters are flushed to storage at least this often (ms)." },
  { env: "SVC_KEY_CACHE_MS", roles: GATEWAY, key: "keyCacheMs", default: "60000", parse: integer(0, 3_600_000), doc: "How long a gateway may reuse a looked-up key; changes are pushed at once over Postgres notifications (0: look up every request)." },
  { env: "SVC_STATE_REFRESH_MS", roles: GATEWAY, key: "stateRefreshMs", default: "2000", parse: integer(100, 60000), doc: "How often a gateway re-reads the maintenance/closed switches (ms)." },
  { env: "SVC_SHUTDOWN_GRACE_MS", roles: EVERY_ROLE, key: "shutdownGraceMs", default: "10000", parse: integer(0, 600000), doc: "On SIGTERM, time allowed to drain and close (ms): requests in flight (gateway), calls in flight (scheduler), running jobs (crawler; what cannot finish is abandoned and its lease handed back), then connections, closed side by side where they can be." },
  { env: "SVC_REQUEST_TIMEOUT_MS", roles: EVERY_ROLE, key: "requestTimeoutMs", default: "30000", parse: integer(1000, 600_000), doc: "A request, headers and body, must arrive within this (ms); a slower one is answered 400 bad_request and its connection closed (slow-body attacks)." },
  { env: "SVC_PUBLIC_BASE_URL", roles: GATEWAY, key: "publicBaseUrl", default: "", parse: baseUrl, doc: "Public origin shown in /capabilities and OpenAPI servers (unset: the request's Host), and the OAuth metadata's and the tool server's own origin (DNS-rebinding check; unset: the request's Host only when it is an IP literal or localhost or comes through SVC_TRUSTED_PROXIES, else the address and port the connection reached). Set it behind a proxy." },
  { env: "SVC_OAUTH_ACCESS_TTL_S", roles: GATEWAY, key: "oauthAccessTtlSeconds", default: "3600", parse: integer(60, 86400), doc: "Lifetime of an OAuth access token (seconds); clients renew it with their refresh token, which rotates on every use and lives 30 days." },
  { env: "SVC_MCP_ALLOWED_ORIGINS", roles: GATEWAY, key: "mcpAllowedOrigins", default: "", parse: originList, doc: "Comma-separated origins besides the service's own whose pages may call POST /api/v1/mcp; a request with any other Origin header is refused (403, DNS-rebinding defence)." },
  { env: "SVC_SCHEDULER_ADDRESS", roles: SCHEDULER_CLIENTS, key: "schedulerAddress", default: "", parse: hostPort, doc: "host:port of the scheduler's gRPC server for a gateway or crawler role; empty in `svc serve` (a loopback port of its own)." },
  { env: "SVC_GRPC_LISTEN", roles: ["scheduler"], key: "grpcListen", default: "127.0.0.1:7070", parse: listenAddress, doc: "host:port the scheduler's gRPC server listens on in `svc scheduler` (0.0.0.0:7070 to serve other machines; port 0 picks a free one); `svc serve` uses a loopback port of its own." },
  { env: "SVC_REPORT_FRESH_S", roles: SCHEDULER, key: "reportFreshSeconds", default: "3600", parse: integer(0, 30 * 86400), doc: "A report younger than this answers POST /analyze at once (a cache hit, not charged) unless fresh is true." },
  { env: "SVC_LEASE_MS", roles: ["serve", "scheduler", "crawler"], key: "leaseMs", default: "30000", parse: integer(500, 3_600_000), doc: "A worker's lease on a job; renewed by heartbeats, and the job is handed to another worker when it lapses." },
  { env: "SVC_MAX_ATTEMPTS", roles: SCHEDULER, key: "maxAttempts", default: "3", parse: integer(1, 20), doc: "Attempts of a job before it ends in error." },
  { env: "SVC_STALE_JOB_S", roles: SCHEDULER, key: "staleJobSeconds", default: "120", parse: integer(1, 86400), doc: "A queued job untouched this long is published again (its message was lost)." },
  { env: "SVC_SYNC_WAIT_MS", roles: GATEWAY, key: "syncWaitMs", default: "25000", parse: integer(1000, 120_000), doc: "Deadline of synchronous checks (GET /analyze); after it the answer is 409 not_ready with the job to poll." },
  { env: "SVC_PLAN_EVERY_S", roles: SCHEDULER, key: "planEverySeconds", default: "60", parse: integer(0, 86400), doc: "How often the scheduler looks for sites due for their periodic re-check (each site every interval_h; a new site at once); 0 turns periodic checks off." },
  { env: "SVC_WEBHOOK_PLAN_MS", roles: SCHEDULER, key: "webhookPlanMs", default: "1000", parse: integer(0, 60_000), doc: "How often the scheduler turns new events into webhook deliveries and hands out the attempts that are due (ms); 0 turns webhook deliveries off." },
  { env: "SVC_WORKER_CONCURRENCY", roles: CRAWLER, key: "workerConcurrency", default: "2", parse: integer(1, 64), doc: "Jobs of the job lane (analyses, crawls) one crawler worker runs at once." },
  { env: "SVC_WORKER_STREAM_CONCURRENCY", roles: CRAWLER, key: "workerStreamConcurrency", default: "128", parse: integer(1, 1024), doc: "Stream-lane batches (uptime probes) one crawler worker runs at once, on slots of their own and with their own bound on Kafka messages in flight. A probe mostly waits on the network: 10,000 sites at a 1-minute interval need about 170 probes a second, so about 85 at once at 0.5 s each (docs/benchmarks.md, bench:uptime)." },
  { env: "SVC_WORKER_WEBHOOK_CONCURRENCY", roles: CRAWLER, key: "workerWebhookConcurrency", default: "32", parse: integer(1, 1024), doc: "Webhook delivery attempts one crawler worker sends at once, on slots of their own (and, on Kafka, their own topic and bound on messages in flight): slow receivers never hold the job lane's slots, nor analyses and crawls the deliveries'. A delivery costs about 8 CPU-ms in the embedded mode (bench:webhooks), so a core sends about 125 a second: 32 slots keep it busy while receivers answer within 250 ms, and 32 receivers that never answer (8 s each) still leave 4 attempts a second (docs/webhooks.md)." },
  { env: "SVC_WORKER_SYNC_CONCURRENCY", roles: CRAWLER, key: "workerSyncConcurrency", default: "4", parse: integer(1, 64), doc: "Jobs of the synchronous lane (GET /analyze, /full, /check, /ssl, /dns) one crawler worker runs at once, on slots of their own: a waiting caller never queues behind analyses and crawls." },
  { env: "SVC_UPTIME_TIMEOUT_MS", roles: SCHEDULER, key: "uptimeTimeoutMs", default: "10000", parse: integer(1000, 60_000), doc: "An uptime probe without a complete answer in this time fails with cause timeout (independent of the probing interval)." },
  { env: "SVC_UPTIME_SLOW_MS", roles: SCHEDULER, key: "uptimeSlowMs", default: "3000", parse: integer(100, 60_000), doc: "An uptime probe answered slower than this is slow; three slow probes in a row make the site degraded (its own incident), two fast ones end it." },
  { env: "SVC_WATCH_PAGES", roles: SCHEDULER, key: "watchPages", default: "10", parse: integer(0, 50), doc: "Watched pages per monitored site: the home page and the most important pages by internal link rank (of the latest crawl; before one, the first pages an analysis samples). Every analysis compares their status, title, description, robots, canonical, H1 and text; a change is a watchdog event. 0 turns the watchdog off." },
  { env: "SVC_IMPORT_SYNC_MAX_MB", roles: GATEWAY, key: "importSyncMaxMb", default: "5", parse: integer(0, 64), doc: "Uploads to POST /imports/{host} up to this size (MB, decoded) are imported within the request (201, or 200 for a file imported before); larger ones answer 202 with an import job that runs in the background of the gateway that took the upload (GET /jobs/{id} shows it; docs/search-data.md). 0 sends every upload to a job." },
  { env: "SVC_IMPORT_MAX_ROWS", roles: GATEWAY, key: "importMaxRows", default: "500000", parse: integer(1000, 100_000_000), doc: "Rows one import may hold (the rows of its tables, or the facts of a JSON export, summed over a ZIP's files and a workbook's sheets); a larger file is refused with bad_param saying the cap, as soon as the parser reaches it, and nothing of it is stored (docs/search-data.md)." },
  { env: "SVC_IMPORT_MEMORY_MB", roles: GATEWAY, key: "importMemoryMb", default: "384", parse: integer(64, 16_384), doc: "Heap of the thread that parses one import (MB): every upload is parsed off the serving thread, in a thread of its own with this heap; a file that needs more is refused with bad_param, and nothing of it is stored. The parsed facts are stored from the gateway's own heap, which holds them (at most SVC_IMPORT_MAX_ROWS of them) while they are written." },
  { env: "SVC_SEARCH_SOURCES_OFF", roles: GATEWAY, key: "searchSourcesOff", default: "", parse: providerList, doc: "Comma-separated search data providers (as GET /providers names them: gsc, gsc_indexing, yandex_webmaster, topvisor, keysso, ahrefs, semrush) the administrator turned off for every account: their imports, and the sections that read only turned-off providers, answer 503 service_off; GET /providers lists them with enabled false (docs/search-data.md). An id no provider has stops the gateway at start." },
  { env: "SVC_UPTIME_PLAN_EVERY_MS", roles: SCHEDULER, key: "uptimePlanEveryMs", default: "5000", parse: integer(0, 600_000), doc: "How often the scheduler plans the uptime probes that are due (each site every uptime_min of its plan, 5 by default); 0 turns uptime probing off." },
  { env: "SVC_KAFKA_BROKERS", roles: KAFKA, key: "kafkaBrokers", default: "", parse: brokerList, doc: "Kafka bootstrap servers (host:port, comma-separated) of the distributed mode's bus; empty: the in-process bus of `svc serve`." },
  { env: "SVC_KAFKA_PARTITIONS", roles: ["scheduler"], key: "kafkaPartitions", default: "16", parse: integer(1, 10_000), doc: "Partitions of a bus topic created by Svc; at least 4x the largest crawler replica count you expect (adding partitions later moves domains between crawlers)." },
  { env: "SVC_KAFKA_RETENTION_H", roles: ["scheduler"], key: "kafkaRetentionHours", default: "72", parse: integer(1, 8760), doc: "Retention of a bus topic created by Svc (hours)." },
  { env: "SVC_KAFKA_TOPIC_PREFIX", roles: KAFKA, key: "kafkaTopicPrefix", default: "", parse: topicPrefix, doc: "Put before the name of every bus topic (svc.work.v1, svc.sync.v1, svc.stream.v1, svc.webhooks.v1, svc.results.v1, svc.dead.v1), so that several installations can share one Kafka cluster." },
  { env: "SVC_KAFKA_SESSION_TIMEOUT_MS", roles: KAFKA, key: "kafkaSessionTimeoutMs", default: "30000", parse: integer(1000, 300_000), doc: "Kafka consumer session timeout: a crawler that dies holds its partitions this long before the others take them over (heartbeats every sixth of it, at most 3 s); the broker's group.min.session.timeout.ms (6 s by default) is the floor." },
  { env: "SVC_PAGE_SAMPLE", roles: SCHEDULER, key: "crawl.pageSample", default: "20", parse: integer(0, 500), doc: "Internal pages sampled by an analysis besides the home page." },
  { env: "SVC_DNS_SERVERS", roles: CRAWLER, key: "crawl.dnsServers", default: "", parse: serverList, doc: "DNS servers the crawler asks (address or address:port, comma-separated); empty: the system's." },
  { env: "SVC_EXTRA_CA_FILE", roles: CRAWLER, key: "crawl.extraCaFile", default: "", parse: optionalText, doc: "PEM file of certificate authorities trusted besides the system's (intranets, tests)." },
  { env: "SVC_CRAWL_CONNECTIONS_PER_HOST", roles: CRAWLER, key: "crawl.connectionsPerHost", default: "4", parse: integer(1, 64), doc: "Politeness: concurrent connections to one host." },
  { env: "SVC_CRAWL_MIN_DELAY_MS", roles: CRAWLER, key: "crawl.minDelayMs", default: "250", parse: integer(0, 60_000), doc: "Politeness: minimum delay between two requests to one host." },
  { env: "SVC_CRAWL_DELAY_CAP_S", roles: CRAWLER, key: "crawl.crawlDelayCapSeconds", default: "5", parse: integer(0, 120), doc: "Politeness: robots.txt Crawl-delay is honoured up to this many seconds." },
  { env: "SVC_FETCH_TIMEOUT_MS", roles: CRAWLER, key: "crawl.fetchTimeoutMs", default: "15000", parse: integer(100, 120_000), doc: "Timeout of one fetch." },
  { env: "SVC_MAX_BODY_BYTES", roles: CRAWLER, key: "crawl.maxBodyBytes", default: "5242880", parse: integer(1024, 100 * 1024 * 1024), doc: "Largest body read of one response (the rest is cut off and flagged)." },
  { env: "SVC_MAX_REDIRECTS", roles: CRAWLER, key: "crawl.maxRedirects", default: "10", parse: integer(0, 30), doc: "Redirects followed for one fetch." },
  { env: "SVC_USER_AGENT", roles: CRAWLER, key: "crawl.userAgent", default: "SvcBot/0.1 (+https://github.com/svc)", parse: text, doc: "User-Agent of the crawler; robots.txt groups are matched on its product token (SvcBot)." },
  { env: "SVC_CRAWL_OVERRIDES", roles: CRAWLER, key: "crawl.overrides", default: "", parse: crawlOverrides, doc: "Politeness overrides, comma-separated <host, *.domain or CIDR>=<connections>/<delay ms>, e.g. 127.0.0.0/8=8/0 for loopback fixtures; the first match wins." },
  { env: "SVC_CONFIRM_DELAY_MS", roles: CRAWLER, key: "crawl.confirmDelayMs", default: "60000", parse: integer(0, 600_000), doc: "Before a severe failure caps a rank, the crawler observes it again after this delay (same run; at most 5 s for GET /analyze); 0 confirms at once." },
  { env: "SVC_PLAN_SITES", roles: PLAN, seed: true, key: "plan.sites", default: "50", parse: integer(0, 1_000_000), doc: "Default plan: number of sites." },
  { env: "SVC_PLAN_CHECKS_PER_DAY", roles: PLAN, seed: true, key: "plan.checksPerDay", default: "200", parse: integer(0, 1_000_000), doc: "Default plan: checks a user may start per UTC day." },
  { env: "SVC_PLAN_RECHECKS_PER_DAY", roles: PLAN, seed: true, key: "plan.rechecksPerDay", default: "100", parse: integer(0, 1_000_000), doc: "Default plan: task re-checks per UTC day." },
  { env: "SVC_PLAN_WEBHOOKS", roles: PLAN, seed: true, key: "plan.webhooks", default: "10", parse: integer(0, 10_000), doc: "Default plan: number of webhooks." },
  { env: "SVC_PLAN_API_KEYS", roles: PLAN, seed: true, key: "plan.apiKeys", default: "10", parse: integer(1, 10_000), doc: "Default plan: number of API keys." },
  { env: "SVC_PLAN_KEY_RATE_PER_HOUR", roles: PLAN, seed: true, key: "plan.keyRatePerHour", default: "10000", parse: integer(1, 1_000_000_000), doc: "Default plan: the hourly limits of an account's usable keys add up to at most this many requests (POST /keys answers 429 limit past it)." },
  { env: "SVC_PLAN_CRAWL_PAGES", roles: PLAN, seed: true, key: "plan.crawlPages", default: "500", parse: integer(1, 1_000_000), doc: "Default plan: URLs one whole-site crawl fetches at most (truncated_by page_limit)." },
  { env: "SVC_PLAN_CRAWL_DEPTH", roles: PLAN, seed: true, key: "plan.crawlDepth", default: "10", parse: integer(0, 100), doc: "Default plan: link hops from the home page a crawl follows (truncated_by depth_limit)." },
  { env: "SVC_PLAN_UPTIME_MIN", roles: PLAN, seed: true, key: "plan.uptimeMin", default: "5", parse: integer(1, 1440), doc: "Default plan: minutes between uptime probes of a site (a site several accounts monitor is probed at the shortest of their plans' intervals)." },
  { env: "SVC_CRAWL_MAX_MINUTES", roles: CRAWLER, key: "crawl.crawlMaxMinutes", default: "30", parse: integer(1, 24 * 60), doc: "A whole-site crawl stops after this many minutes (truncated_by time_limit)." },
  { env: "SVC_CRAWL_MEMORY_MB", roles: CRAWLER, key: "crawl.crawlMemoryMb", default: "512", parse: integer(16, 1_000_000), doc: "A whole-site crawl stops once what it keeps of its pages for the whole-crawl analysis (URLs, links, the facts it reads: about 1 KB a page) reaches this many MB (truncated_by memory_limit)." },
  { env: "SVC_CRAWL_FACTS_DIR", roles: CRAWLER, key: "crawl.crawlFactsDir", default: "", parse: text, doc: "Folder where a whole-site crawl keeps its pages' compact facts (gzip'd) until its analysis has read them; each file is removed when its attempt ends, and files a crashed process left (its pid no longer running) at the next start. Empty: SVC_DATA_DIR/crawl-facts for `svc serve` on its embedded store, else svc-crawl-facts in the OS temporary directory (the crawler pod's /tmp)." },
  { env: "SVC_CRAWL_MAX_PER_PATTERN", roles: CRAWLER, key: "crawl.crawlMaxPerPattern", default: "100", parse: integer(1, 1_000_000), doc: "Crawler traps: URLs sharing a path pattern (numbers collapsed) and parameter names beyond this many are skipped and reported as a trap." },
  { env: "SVC_PARSE_THREADS", roles: CRAWLER, key: "crawl.parseThreads", default: "auto", parse: threadCount, doc: "Worker threads that parse and check crawled pages off the serving thread; auto: one per core, at most 4; 0 parses on the serving thread (tests)." },
  { env: "SVC_PARSE_WARMUP_PAGES", roles: CRAWLER, key: "crawl.parseWarmUpPages", default: "100", parse: integer(0, 1000), doc: "Generated pages (about 47 KB each) every parse thread parses and checks at start, before /readyz says ready (about 1 s of startup with 100): a fresh thread is two to three times slower on its first pages and compiles its hot code meanwhile, which the first crawl would otherwise pay. 0 skips it." },
  { env: "SVC_PARSE_IDLE_S", roles: CRAWLER, key: "crawl.parseIdleSeconds", default: "300", parse: integer(0, 86_400), doc: "Parse threads that had no page for this many seconds exit (about 38 MB resident each) and start again, without warm-up pages, with the next crawl or page check: a crawler node that only probes uptime holds none. 0 keeps them for good." },
  { env: "SVC_EGRESS_ALLOW", roles: CRAWLER, key: "crawl.egressAllow", default: "", parse: hostPatterns, doc: "External hosts a crawl may fetch to check its external links (comma-separated names, *.domain or CIDRs); others are reported as unchecked, never as broken." },
  { env: "SVC_CRAWL_FINDINGS_DAYS", roles: SCHEDULER, key: "crawl.crawlFindingsDays", default: "30", parse: integer(1, 365), doc: "A crawl's crawl-scope findings feed the rank of later analyses of the host for this many days." },
  { env: "SVC_BROWSER", roles: CRAWLER, key: "crawl.browser", default: "auto", parse: browserMode, doc: "Headless-browser measurements (performance, JavaScript dependency) of the home page and the most linked pages, once per analysis (not GET /analyze): auto measures with headless Chromium where SVC_BROWSER_PATH exists (apt-get install chromium) and reports the state where it does not; off never starts a browser. Without a run the rank carries the site's last measured run forward (7 days), then scores performance on its diagnostics alone." },
  { env: "SVC_BROWSER_PATH", roles: CRAWLER, key: "crawl.browserPath", default: "/usr/bin/chromium", parse: text, doc: "Chromium executable for browser metrics (Debian's chromium package); Svc never downloads a browser." },
  { env: "SVC_BROWSER_TIMEOUT_MS", roles: CRAWLER, key: "crawl.browserTimeoutMs", default: "30000", parse: integer(1000, 300_000), doc: "One page's browser measurement, from navigation until the page settles, at most this long (ms); past it the metrics are recorded as an error." },
  { env: "SVC_BROWSER_THIRD_PARTY", roles: CRAWLER, key: "crawl.browserThirdParty", default: "auto", parse: thirdParty, doc: "Requests of a measured page to other origins than the site's: auto allows the hosts in SVC_EGRESS_ALLOW, 0 none, 1 any; addresses the egress guard refuses are aborted in every case." },
  { env: "SVC_BROWSER_CONTEXTS", roles: CRAWLER, key: "crawl.browserContexts", default: "1", parse: integer(1, 16), doc: "Browser contexts per crawler node: pages measured at once (each in a fresh context). Metrics inflate with parallelism on a small machine: keep 1 unless the node has cores to spare." },
  { env: "SVC_BROWSER_MAX_MEMORY_MB", roles: CRAWLER, key: "crawl.browserMaxMemoryMb", default: "1024", parse: integer(64, 65_536), doc: "The browser is replaced when the memory of its processes (PSS, sampled after each page) passes this (MiB)." },
  { env: "SVC_BROWSER_PROFILES", roles: CRAWLER, key: "crawl.browserProfiles", default: "mobile,desktop", parse: browserProfiles, doc: "Profiles each measured page is loaded with (mobile, desktop: Lighthouse's screens and user agents), comma-separated; the rank uses the home page's mobile run." },
  { env: "SVC_BROWSER_PAGES", roles: CRAWLER, key: "crawl.browserPages", default: "3", parse: integer(1, 20), doc: "Pages measured in the browser per analysis: the home page plus the sample pages with the most internal links to them." },
  { env: "SVC_BROWSER_THROTTLING", roles: CRAWLER, key: "crawl.browserThrottling", default: "simulate", parse: browserThrottling, doc: "simulate: Lighthouse's and PageSpeed Insights' default: the page loads unthrottled with a trace recorded, and Lantern, Lighthouse's simulator, estimates FCP, LCP and TBT on the profile's network and CPU (mobile: slow 4G, 150 ms RTT, 1.6 Mbit/s, a 4× slower CPU; desktop: 40 ms, 10 Mbit/s, 1×); CLS and INP are observed. devtools: each profile's Lighthouse DevTools throttling applied for real (mobile: 562.5 ms request latency, 1,474.56 / 675 Kbit/s, 4× CPU; desktop, as Lighthouse's desktop preset, none). provided: pages load as fast as the machine and network allow. Each run states its throttling." },
  { env: "SVC_UTILITY_THREADS", roles: TARGETS, key: "utilities.threads", default: "auto", parse: utilityThreads, doc: "Worker threads of the gateway that run the offline utilities (POST /utilities/{id}), started on first use; auto: one per core less one, 1-4." },
  { env: "SVC_UTILITY_CPU_MS", roles: GATEWAY, key: "utilities.cpuMs", default: "10000", parse: integer(100, 600_000), doc: "Time limit of one offline utility run (ms); past it the run's thread is terminated and the run answers tool_failed (regex_test has 1 s)." },
  { env: "SVC_UTILITY_MEMORY_MB", roles: GATEWAY, key: "utilities.memoryMb", default: "256", parse: integer(32, 16_384), doc: "Heap of each utility thread (MB); a run that needs more is stopped and answers tool_failed, and a fresh thread takes its place." },
  { env: "SVC_UTILITY_IMAGE_MEMORY_MB", roles: GATEWAY, key: "utilities.imageMemoryMb", default: "512", parse: integer(128, 16_384), doc: "Resident memory (MB) of each process that runs the image utilities (libvips allocates outside the V8 heap, so they run in child processes of the gateway, one per utility thread); a run past it is killed and answers tool_failed, and a fresh process takes its place." },
  { env: "SVC_UTILITIES_OFF", roles: GATEWAY, key: "utilities.off", default: "", parse: idList, doc: "Comma-separated utility ids the administrator disabled: they stay listed with enabled false and answer tool_off. An id no utility has stops the gateway at start." },
  { env: "SVC_UTILITY_NET_PER_HOUR", roles: GATEWAY, key: "utilities.netPerHour", default: "60", parse: integer(1, 1_000_000), doc: "Runs of network utilities (net: true) one key may start per hour; a bulk run counts 1 plus 1 for every 10 targets after the first; past it POST /utilities/{id} answers 429 limit." },
  { env: "SVC_UTILITY_RESOLVERS", roles: CRAWLER, key: "crawl.utilityResolvers", default: "google=8.8.8.8,cloudflare=1.1.1.1,quad9=9.9.9.9,yandex=77.88.8.8", parse: resolverMap, doc: "Public DNS resolvers network utilities may ask besides the crawler's own (dns_lookup's resolvers), comma-separated name=address[:port]." },
  { env: "SVC_UTILITY_PORTS", roles: CRAWLER, key: "crawl.utilityPorts", default: "21,22,25,53,80,110,143,443,465,587,993,995,3306,5432,8080,8443", parse: portList, doc: "Ports network utilities may connect to (port_check, tls_http_versions), comma-separated." },
  { env: "SVC_UTILITY_WHOIS_ROOT", roles: CRAWLER, key: "crawl.whoisRoot", default: "whois.iana.org", parse: text, doc: "The WHOIS server the whois utility asks first for a domain's registry (it follows the referrals from there)." },
  { env: "SVC_UTILITY_ECHO_URL", roles: CRAWLER, key: "crawl.echoUrl", default: "", parse: text, doc: "An HTTP(S) service that answers the caller's address as text or JSON {ip}; my_ip asks it for the crawler node's public egress address (empty: none, my_ip shows the node's interface addresses only)." },
];

/**
 * Variables of the `svc` client commands (where and who), not of a server process: a server
 * ignores them, so a shell set up for the CLI can still run `svc serve`.
 */
export const CLIENT_ENV = ["SVC_API_URL", "SVC_API_KEY", "SVC_CONFIG"] as const;

/** Settings an upgrade removed: set, they are ignored with a warning naming what replaced them. */
export const REMOVED_SETTINGS: readonly { readonly env: string; readonly instead: string }[] = [
  { env: "SVC_EVENT_LOOP_SAMPLE_MS", instead: "Fixed at 100 ms: 0.3 ms of CPU a second per process against 2.2 at prom-client's 10 ms (docs/benchmarks.md, bench:distribution)." },
  { env: "SVC_PGLITE_SHARED_BUFFERS_MB", instead: "Fixed at 16 MB: ~120 MB resident against ~270 at PGlite's 128, and less than 16 saves little more (docs/operations.md, \"Memory\")." },
  { env: "SVC_BROWSER_RECYCLE_PAGES", instead: "Fixed at 50 pages; `SVC_BROWSER_MAX_MEMORY_MB` is the bound that matters, checked after every page." },
  { env: "SVC_UTILITY_WHOIS_PORT", instead: "WHOIS is port 43; a test's own server is injected (CrawlSettings.whoisPort)." },
  { env: "SVC_UTILITY_SMTP_PORT", instead: "SMTP probes go to port 25; a test's own server is injected (CrawlSettings.smtpPort)." },
  { env: "SVC_IMPORT_MAX_CELLS", instead: "Derived: 20 cells a row of `SVC_IMPORT_MAX_ROWS`." },
];
