import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { Registry } from "prom-client";
import { createLogger, Lifecycle, loadConfig, ManualClock, type Config, type CrawlSettings } from "../../runtime/index.ts";
import { composeEmbeddedWork } from "../../bin/compose.ts";
import { createStore, migrate, openPglite, openPostgres, type Db, type Store } from "../../storage/index.ts";
import { buildApp, buildOperations, createGatewayParts, type AdminService, type GatewayDeps, type Operation } from "../../gateway/index.ts";
import { readPgliteTemplate } from "./template.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** 2026-11-22 10:00:00 UTC: a fixed start for the tests' clock. */
export const T0_MS = Date.UTC(2026, 10, 22, 10, 0, 0);

export interface TestGateway {
  readonly app: FastifyInstance;
  readonly deps: GatewayDeps;
  readonly store: Store;
  readonly db: Db;
  readonly clock: ManualClock;
  readonly config: Config;
  readonly admin: AdminService;
  /** The owner's key (all scopes, administrator). */
  readonly ownerKey: string;
  /** Answers whose body did not match the operation's response schema. */
  readonly violations: string[];
  /** app.inject with the owner's key unless headers say otherwise. */
  call(method: InjectOptions["method"], url: string, opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; remoteAddress?: string }): Promise<LightMyRequestResponse>;
  /** A new account and its key with the given scopes. */
  newAccount(email: string, scopes?: ("read" | "run" | "write")[]): Promise<{ accountId: number; key: string; keyId: number }>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  readonly env?: Record<string, string>;
  /** Crawl settings that are no environment variables (the ports of a test's own WHOIS or SMTP server). */
  readonly crawl?: Partial<CrawlSettings>;
  /** A Postgres server database instead of the PGlite template. */
  readonly postgresUrl?: string;
  readonly poolSize?: number;
  readonly operations?: readonly Operation[];
  /** Replaces parts of the store (tests of the tests use deliberately broken repositories). */
  readonly storeOverrides?: (store: Store, db: Db) => Store;
  /** Where JSON logs go (at level info); silent when absent. */
  readonly logStream?: NodeJS.WritableStream;
  /** Check every answer against its operation's response schema (default true; benchmarks turn it off). */
  readonly validateResponses?: boolean;
  /** Share the database and clock of another test gateway (two gateway processes, one database). */
  readonly shareWith?: TestGateway;
}

// Compiled once per worker process and schema (files run one after another in a worker): compiling
// every operation's response schema again took about half a second per gateway.
let ajv: Ajv | null = null;
const compiled = new Map<string, ValidateFunction>();

function responseValidators(operations: readonly Operation[]) {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat("host", { type: "string", validate: () => true });
    ajv.addKeyword({ keyword: "x-error", schemaType: "string" });
  }
  const map = new Map<Operation, ValidateFunction>();
  for (const op of operations) {
    const key = `${op.id} ${JSON.stringify(op.response)}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(op.response)));
    map.set(op, validate);
  }
  return map;
}

/** A gateway on an in-memory PGlite copied from the migrated template (or on a Postgres database). */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  // Periodic re-checks are off unless a test turns them on: they would check every site a test adds.
  // One warm-up page per parse thread: the path runs, without its startup cost in every app.
  // The browser (on by default where Chromium is installed, as here) is off unless a test measures.
  const loaded = loadConfig({ SVC_LOG_LEVEL: "silent", SVC_ALLOW_PRIVATE_TARGETS: "0", SVC_PLAN_EVERY_S: "0", SVC_CONFIRM_DELAY_MS: "0", SVC_PARSE_WARMUP_PAGES: "1", SVC_BROWSER: "off", ...options.env }, "serve");
  // Parse threads start with the first page a case parses: most files never parse one.
  const config: Config = { ...loaded, crawl: { ...loaded.crawl, parseStartAsleep: true, ...options.crawl } };
  const clock = options.shareWith?.clock ?? new ManualClock(T0_MS);
  let db: Db;
  let ownsDb = true;
  if (options.shareWith) {
    db = options.postgresUrl ? openPostgres({ url: options.postgresUrl, poolSize: options.poolSize ?? 8 }) : options.shareWith.db;
    ownsDb = Boolean(options.postgresUrl);
  } else if (options.postgresUrl) {
    db = openPostgres({ url: options.postgresUrl, poolSize: options.poolSize ?? 8 });
    await migrate(db, 0);
  } else {
    db = await openPglite(null, readPgliteTemplate());
  }
  const base = createStore(db);
  const store = options.storeOverrides ? options.storeOverrides(base, db) : base;
  const logger = options.logStream ? createLogger("info", options.logStream) : createLogger("silent");
  // The real work path: scheduler over gRPC on loopback, in-process bus, a crawler worker.
  const work = new Lifecycle();
  const scheduler = await composeEmbeddedWork(config, store, work, logger, clock);
  const parts = createGatewayParts({ config, store, clock, logger, metrics: new Registry(), serviceVersion: "0.1.0", scheduler });
  await parts.start();
  const { deps, admin } = parts;
  const operations = options.operations ?? buildOperations();
  const validators = responseValidators(operations);
  const violations: string[] = [];
  const app = await buildApp({
    deps,
    operations,
    onOperationResponse: options.validateResponses === false ? undefined : (op, status, body) => {
      if (status >= 400 || status === 304 || body === null) return;
      const validate = validators.get(op);
      if (validate && !validate(body)) violations.push(`${op.id} ${status}: ${ajvText(validate)} in ${JSON.stringify(body).slice(0, 300)}`);
    },
  });
  await app.ready();
  let ownerKey = options.shareWith?.ownerKey ?? "";
  if (!options.shareWith) {
    const issued = await admin.createAccount("owner@example.com", { admin: true });
    ownerKey = issued.key;
  }
  const gw: TestGateway = {
    app,
    deps,
    store,
    db,
    clock,
    config,
    admin,
    ownerKey,
    violations,
    call(method, url, opts = {}) {
      const key = opts.key === undefined ? ownerKey : opts.key;
      const headers: Record<string, string> = { ...(key ? { "x-api-key": key } : {}), ...opts.headers };
      return app.inject({
        method,
        url,
        headers,
        ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
        ...(opts.body !== undefined ? { payload: typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body), headers: { "content-type": "application/json", ...headers } } : {}),
      });
    },
    async newAccount(email, scopes = ["read", "run", "write"]) {
      const issued = await admin.createAccount(email, { scopes });
      return { accountId: issued.accountId, key: issued.key, keyId: issued.keyId };
    },
    async close() {
      await app.close();
      await parts.close();
      await work.close();
      if (ownsDb) await db.close();
    },
  };
  return gw;
}

function ajvText(v: ValidateFunction): string {
  return (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join("; ");
}

/** Polls GET /jobs/{id} until the job is done or in error (at most timeoutMs); returns the job. */
export async function untilJobDone(gw: TestGateway, jobId: number, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const started = Date.now();
  for (;;) {
    const job = (await gw.call("GET", `/api/v1/jobs/${jobId}`)).json<{ job: Record<string, unknown> }>().job;
    if (job.state === "done" || job.state === "error") return job;
    if (Date.now() - started > timeoutMs) throw new Error(`job ${jobId} still ${String(job.state)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
