import { CONFIG_FIELDS } from "./config.ts";

/** The processes Svc runs: `svc serve` (everything in one), the three roles of the distributed mode, and `svc admin`. */
export const CONFIG_ROLES = ["serve", "gateway", "scheduler", "crawler", "admin"] as const;
export type ConfigRole = (typeof CONFIG_ROLES)[number];

const EVERY_ROLE: readonly ConfigRole[] = ["serve", "gateway", "scheduler", "crawler"];
const GATEWAY: readonly ConfigRole[] = ["serve", "gateway"];
const SCHEDULER: readonly ConfigRole[] = ["serve", "scheduler"];
const CRAWLER: readonly ConfigRole[] = ["serve", "crawler"];
/** The processes that open the store (bin/compose.ts openStore). */
const STORE: readonly ConfigRole[] = ["serve", "gateway", "scheduler", "admin"];
/** Plans are seeded and changed through the admin service (the gateway's, `svc admin`'s). */
const PLAN: readonly ConfigRole[] = ["serve", "gateway", "admin"];

/**
 * Which process reads which variable: every role the variable has an effect in (all of them
 * accept every SVC_* name; a variable a role does not read is ignored there). Kept beside
 * CONFIG_FIELDS rather than in each of its entries so that adding a field stays a one-line
 * change there plus one here; test/unit/docs.test.ts holds the two together and the table of
 * docs/configuration.md to this (`npm run docs:roles` writes it).
 */
export const ROLES_OF: Readonly<Record<string, readonly ConfigRole[]>> = {
  SVC_HOST: GATEWAY,
  SVC_PORT: GATEWAY,
  SVC_ADMIN_HOST: EVERY_ROLE,
  SVC_ADMIN_PORT: EVERY_ROLE,
  SVC_DATA_DIR: ["serve", "admin"],
  SVC_PGLITE_SHARED_BUFFERS_MB: ["serve", "admin"],
  SVC_POSTGRES_URL: STORE,
  SVC_POSTGRES_POOL: STORE,
  SVC_CLICKHOUSE_URL: STORE,
  SVC_CLICKHOUSE_RETENTION_MONTHS: STORE,
  SVC_BOOTSTRAP_KEY: GATEWAY,
  SVC_BOOTSTRAP_EMAIL: GATEWAY,
  SVC_ALLOW_PRIVATE_TARGETS: ["serve", "gateway", "crawler"],
  SVC_ALLOW_LINK_LOCAL_TARGETS: ["serve", "gateway", "crawler"],
  SVC_LOG_LEVEL: EVERY_ROLE,
  SVC_OTLP_ENDPOINT: EVERY_ROLE,
  SVC_EVENT_LOOP_SAMPLE_MS: EVERY_ROLE,
  SVC_TRUSTED_PROXIES: GATEWAY,
  SVC_MAINTENANCE: GATEWAY,
  SVC_RATE_PER_HOUR: PLAN,
  SVC_ADDRESS_RATE_PER_HOUR: GATEWAY,
  SVC_IDEMPOTENCY_TTL_S: GATEWAY,
  SVC_IDEMPOTENCY_LOCK_S: GATEWAY,
  SVC_USAGE_FLUSH_MS: GATEWAY,
  SVC_KEY_CACHE_MS: GATEWAY,
  SVC_STATE_REFRESH_MS: GATEWAY,
  SVC_SHUTDOWN_GRACE_MS: EVERY_ROLE,
  SVC_REQUEST_TIMEOUT_MS: EVERY_ROLE,
  SVC_PUBLIC_BASE_URL: GATEWAY,
  SVC_OAUTH_ACCESS_TTL_S: GATEWAY,
  SVC_MCP_ALLOWED_ORIGINS: GATEWAY,
  SVC_SCHEDULER_ADDRESS: ["gateway", "crawler"],
  SVC_GRPC_LISTEN: ["scheduler"],
  SVC_REPORT_FRESH_S: SCHEDULER,
  SVC_LEASE_MS: ["serve", "scheduler", "crawler"],
  SVC_MAX_ATTEMPTS: SCHEDULER,
  SVC_STALE_JOB_S: SCHEDULER,
  SVC_SYNC_WAIT_MS: GATEWAY,
  SVC_PLAN_EVERY_S: SCHEDULER,
  SVC_WEBHOOK_PLAN_MS: SCHEDULER,
  SVC_WORKER_CONCURRENCY: CRAWLER,
  SVC_WORKER_STREAM_CONCURRENCY: CRAWLER,
  SVC_WORKER_WEBHOOK_CONCURRENCY: CRAWLER,
  SVC_WORKER_SYNC_CONCURRENCY: CRAWLER,
  SVC_UPTIME_TIMEOUT_MS: SCHEDULER,
  SVC_UPTIME_SLOW_MS: SCHEDULER,
  SVC_WATCH_PAGES: SCHEDULER,
  SVC_IMPORT_SYNC_MAX_MB: GATEWAY,
  SVC_IMPORT_MAX_ROWS: GATEWAY,
  SVC_IMPORT_MEMORY_MB: GATEWAY,
  SVC_SEARCH_SOURCES_OFF: GATEWAY,
  SVC_UPTIME_PLAN_EVERY_MS: SCHEDULER,
  SVC_KAFKA_BROKERS: ["scheduler", "crawler"],
  SVC_KAFKA_PARTITIONS: ["scheduler"],
  SVC_KAFKA_RETENTION_H: ["scheduler"],
  SVC_KAFKA_TOPIC_PREFIX: ["scheduler", "crawler"],
  SVC_KAFKA_SESSION_TIMEOUT_MS: ["scheduler", "crawler"],
  SVC_PAGE_SAMPLE: SCHEDULER,
  SVC_DNS_SERVERS: CRAWLER,
  SVC_EXTRA_CA_FILE: CRAWLER,
  SVC_CRAWL_CONNECTIONS_PER_HOST: CRAWLER,
  SVC_CRAWL_MIN_DELAY_MS: CRAWLER,
  SVC_CRAWL_DELAY_CAP_S: CRAWLER,
  SVC_FETCH_TIMEOUT_MS: CRAWLER,
  SVC_MAX_BODY_BYTES: CRAWLER,
  SVC_MAX_REDIRECTS: CRAWLER,
  SVC_USER_AGENT: CRAWLER,
  SVC_CRAWL_OVERRIDES: CRAWLER,
  SVC_CONFIRM_DELAY_MS: CRAWLER,
  SVC_PLAN_SITES: PLAN,
  SVC_PLAN_CHECKS_PER_DAY: PLAN,
  SVC_PLAN_RECHECKS_PER_DAY: PLAN,
  SVC_PLAN_WEBHOOKS: PLAN,
  SVC_PLAN_API_KEYS: PLAN,
  SVC_PLAN_KEY_RATE_PER_HOUR: PLAN,
  SVC_PLAN_CRAWL_PAGES: ["serve", "gateway", "scheduler", "admin"],
  SVC_PLAN_CRAWL_DEPTH: ["serve", "gateway", "scheduler", "admin"],
  SVC_PLAN_UPTIME_MIN: PLAN,
  SVC_CRAWL_MAX_MINUTES: CRAWLER,
  SVC_CRAWL_MEMORY_MB: CRAWLER,
  SVC_CRAWL_FACTS_DIR: CRAWLER,
  SVC_CRAWL_MAX_PER_PATTERN: CRAWLER,
  SVC_PARSE_THREADS: CRAWLER,
  SVC_PARSE_WARMUP_PAGES: CRAWLER,
  SVC_PARSE_IDLE_S: CRAWLER,
  SVC_EGRESS_ALLOW: CRAWLER,
  SVC_CRAWL_FINDINGS_DAYS: SCHEDULER,
  SVC_BROWSER: CRAWLER,
  SVC_BROWSER_PATH: CRAWLER,
  SVC_BROWSER_TIMEOUT_MS: CRAWLER,
  SVC_BROWSER_THIRD_PARTY: CRAWLER,
  SVC_BROWSER_CONTEXTS: CRAWLER,
  SVC_BROWSER_RECYCLE_PAGES: CRAWLER,
  SVC_BROWSER_MAX_MEMORY_MB: CRAWLER,
  SVC_BROWSER_PROFILES: CRAWLER,
  SVC_BROWSER_PAGES: CRAWLER,
  SVC_BROWSER_THROTTLING: CRAWLER,
  SVC_UTILITY_THREADS: ["serve", "gateway", "crawler"],
  SVC_UTILITY_CPU_MS: GATEWAY,
  SVC_UTILITY_MEMORY_MB: GATEWAY,
  SVC_UTILITY_IMAGE_MEMORY_MB: GATEWAY,
  SVC_UTILITIES_OFF: GATEWAY,
  SVC_UTILITY_NET_PER_HOUR: GATEWAY,
  SVC_UTILITY_RESOLVERS: CRAWLER,
  SVC_UTILITY_PORTS: CRAWLER,
  SVC_UTILITY_WHOIS_ROOT: CRAWLER,
  SVC_UTILITY_WHOIS_PORT: CRAWLER,
  SVC_UTILITY_SMTP_PORT: CRAWLER,
  SVC_UTILITY_ECHO_URL: CRAWLER,
};

export const ROLES_TABLE_BEGIN = "<!-- roles table: generated by `npm run docs:roles` from runtime/config-roles.ts; do not edit -->";
export const ROLES_TABLE_END = "<!-- end of the roles table -->";

/** The Markdown table of docs/configuration.md: one row per CONFIG_FIELDS entry, in its order. */
export function rolesTable(): string {
  const header = `| variable | ${CONFIG_ROLES.map((r) => `\`${r}\``).join(" | ")} |`;
  const rule = `|---|${CONFIG_ROLES.map(() => ":-:").join("|")}|`;
  const rows = CONFIG_FIELDS.map((f) => {
    const roles = ROLES_OF[f.env];
    if (!roles) throw new Error(`${f.env} has no entry in ROLES_OF (runtime/config-roles.ts)`);
    return `| \`${f.env}\` | ${CONFIG_ROLES.map((r) => (roles.includes(r) ? "✓" : "")).join(" | ")} |`;
  });
  return [ROLES_TABLE_BEGIN, header, rule, ...rows, ROLES_TABLE_END].join("\n");
}

/** docs/configuration.md with its roles table replaced by rolesTable() (appended when missing). */
export function withRolesTable(doc: string): string {
  const begin = doc.indexOf(ROLES_TABLE_BEGIN);
  const end = doc.indexOf(ROLES_TABLE_END);
  if (begin < 0 || end < begin) throw new Error("docs/configuration.md has no roles table markers");
  return doc.slice(0, begin) + rolesTable() + doc.slice(end + ROLES_TABLE_END.length);
}
