import { randomUUID } from "node:crypto";
import { factCount, ImportFormatError, PARSER_VERSION, type ImportFacts, type ImportKind, type Provider } from "../../analyzer/index.ts";
import type { ImportBatchRow, Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement, type HandlerDeps, type UnitOfWork } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { jobView } from "./jobs.ts";
import { assertProviderOn } from "./search-sources.ts";

/** An import batch as the API shows it. */
export function batchView(b: ImportBatchRow) {
  return {
    id: b.id,
    host: b.host,
    provider: b.provider,
    kind: b.kind,
    formats: b.formats,
    file_name: b.file_name,
    sha256: b.sha256,
    period: { start: b.period_start, end: b.period_end },
    rows: b.rows,
    truncated: b.truncated,
    warnings: b.warnings,
    filters: b.filters,
    imported_at: b.imported_at,
  };
}

/** Refuses a host the caller does not monitor: search data belongs to a site of the account. */
export async function ownSite(repos: Pick<Repositories, "sites">, accountId: number, host: string): Promise<void> {
  if (!(await repos.sites.get(accountId, host))) throw new ApiError("not_found", `you do not monitor ${host}`);
}

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;

/**
 * The upload's bytes: as they arrived (a form's file part, or a large JSON body's base64 decoded
 * off the serving thread: bytesField), or decoded here from a short JSON body's text.
 */
function fileBytes(file: string | Uint8Array): Buffer {
  if (typeof file !== "string") return Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (!BASE64.test(file)) throw new ApiError("bad_param", "file must be base64-encoded", { param: "file" });
  return Buffer.from(file, "base64");
}

/** How long a gateway holds an import job before it counts as interrupted (a 64 MB file parses in well under a minute). */
export const IMPORT_LEASE_MS = 10 * 60 * 1000;
/** This process's name on the import jobs it runs. */
const IMPORT_WORKER = `gateway:${process.pid}:${randomUUID().slice(0, 8)}`;
/** Imports running in the background of this process, by job id. */
const inFlight = new Map<number, Promise<void>>();

/** Resolves once every background import of this process has settled (tests, graceful shutdown). */
export async function settleImports(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
}

interface ImportInput {
  readonly accountId: number;
  readonly host: string;
  readonly bytes: Buffer;
  readonly sha256: string;
  readonly fileName: string;
  readonly provider?: Provider;
  readonly kind?: ImportKind;
}

/** Parses and stores one file: all of it (in bounded transactions, visible at the last commit), or (on any error) nothing. */
async function runImport(deps: HandlerDeps, repos: Pick<Repositories, "search">, input: ImportInput, now: number, parsed?: { facts: ImportFacts; provider: Provider; kind: ImportKind; formats: readonly string[] }, onProgress?: (stored: number, total: number) => Promise<void>) {
  const p = parsed ?? (await parseFile(deps, input));
  assertProviderOn(deps, p.provider);
  const rows = factCount(p.facts);
  if (rows === 0) throw new ApiError("bad_param", `${input.fileName} was recognised (${p.formats.join(", ")}) but holds no data rows`, { param: "file" });
  return repos.search.importBatch(
    { accountId: input.accountId, host: input.host, provider: p.provider, kind: p.kind, formats: p.formats, fileName: input.fileName, sha256: input.sha256, parserVersion: PARSER_VERSION, rows, importedAt: now },
    p.facts,
    onProgress,
  );
}

/** Removes the batches of imports that stopped with their process: all in the embedded mode (one process), else those older than an import's lease. */
export async function sweepImports(deps: HandlerDeps, repos: Pick<Repositories, "search">, atStart: boolean): Promise<number> {
  const embedded = !deps.config.postgresUrl;
  return repos.search.sweepIncomplete(atStart && embedded ? null : Math.floor((deps.clock.nowMs() - IMPORT_LEASE_MS) / 1000));
}

/** Parses the upload in a thread of its own (deps.imports): the serving thread only receives the facts. */
async function parseFile(deps: HandlerDeps, input: ImportInput) {
  try {
    return await deps.imports.parse(input.accountId, input.bytes, input.fileName, { ...(input.provider ? { provider: input.provider } : {}), ...(input.kind ? { kind: input.kind } : {}) });
  } catch (err) {
    if (err instanceof ImportFormatError) throw new ApiError("bad_param", err.message, { param: "file" });
    throw err;
  }
}

/**
 * A large import, off the request: the job row (held by this gateway under a lease) is the durable
 * record. Parsing, then one transaction for the batch; any failure ends the job in error with the
 * reason (bad_param's text for a file that is not a known export) and leaves no rows.
 */
async function importInBackground(deps: HandlerDeps, repos: Pick<Repositories, "jobs" | "search">, tx: UnitOfWork<"jobs">, jobId: number, input: ImportInput): Promise<void> {
  const jobs = repos.jobs;
  try {
    await new Promise((resolve) => setImmediate(resolve));
    await jobs.heartbeat(jobId, IMPORT_WORKER, deps.clock.nowMs(), IMPORT_LEASE_MS, 5, "parsing");
    const parsed = await parseFile(deps, input);
    if (!(await jobs.heartbeat(jobId, IMPORT_WORKER, deps.clock.nowMs(), IMPORT_LEASE_MS, 50, `storing ${factCount(parsed.facts)} facts`))) return;
    const now = Math.floor(deps.clock.nowMs() / 1000);
    const total = factCount(parsed.facts);
    const { batch, created } = await runImport(deps, repos, input, now, parsed, async (stored) => {
      // Each step of the import is its own transaction: this poll-visible progress is written between them.
      if (!(await jobs.heartbeat(jobId, IMPORT_WORKER, deps.clock.nowMs(), IMPORT_LEASE_MS, 50 + Math.floor((49 * stored) / Math.max(1, total)), `storing ${Math.min(stored, total)} of ${total} facts`))) {
        throw new Error("the import job's hold was lost");
      }
    });
    await endHeld(deps, tx, jobId, (t, now) => t.jobs.markDone(jobId, { runId: null, result: { import: batch.id, created } }, now));
  } catch (err) {
    const known = err instanceof ApiError;
    if (!known) deps.logger.error({ err, job: jobId }, "import failed");
    const [error, detail] = known ? [err.code, err.message] : ["server", "the import failed on an internal error; no rows were stored"];
    await endHeld(deps, tx, jobId, (t, now) => t.jobs.markFailed(jobId, error, detail, now)).catch((failErr: unknown) => deps.logger.error({ err: failErr, job: jobId }, "could not record the failed import"));
  }
}

/** Ends the import job this gateway holds, in one unit of work; nothing is written when its hold lapsed meanwhile (the job already ended interrupted). */
async function endHeld(deps: HandlerDeps, tx: UnitOfWork<"jobs">, jobId: number, end: (t: Pick<Repositories, "jobs">, now: number) => Promise<void>): Promise<void> {
  const now = Math.floor(deps.clock.nowMs() / 1000);
  await tx(async (t) => {
    if (await t.jobs.lockHeld(jobId, IMPORT_WORKER)) await end(t, now);
  });
}

export const importSearchData = implement(contracts.importSearchData, { repos: ["jobs", "search", "sites"], tx: true }, async ({ auth, repos, tx, deps, params, body, now }) => {
  const accountId = auth!.accountId;
  await ownSite(repos, accountId, params.host);
  if (body.provider) assertProviderOn(deps, body.provider);
  const bytes = fileBytes(body.file);
  if (bytes.length === 0) throw new ApiError("bad_param", "file is empty", { param: "file" });
  // WebCrypto's digest runs on libuv's pool: a 46 MB file's hash does not hold the serving thread.
  const sha256 = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
  const known = await repos.search.findBatch(accountId, params.host, sha256, PARSER_VERSION);
  if (known) assertProviderOn(deps, known.provider);
  if (known) return { status: 200, body: { import: batchView(known), created: false } };
  const input: ImportInput = { accountId, host: params.host, bytes, sha256, fileName: body.file_name, ...(body.provider ? { provider: body.provider } : {}), ...(body.kind ? { kind: body.kind } : {}) };
  if (bytes.length > deps.config.importSyncMaxMb * 1024 * 1024) {
    await repos.jobs.expireHolds(deps.clock.nowMs());
    await sweepImports(deps, repos, false);
    const job = await repos.jobs.createHeld({ accountId, kind: "import", host: params.host, step: "received" }, IMPORT_WORKER, now, deps.clock.nowMs() + IMPORT_LEASE_MS);
    const task = importInBackground(deps, repos, tx, job.id, input).finally(() => inFlight.delete(job.id));
    inFlight.set(job.id, task);
    return { status: 202, body: { job: jobView(job, now) } };
  }
  const { batch, created } = await runImport(deps, repos, input, now);
  return { status: created ? 201 : 200, body: { import: batchView(batch), created } };
});

export const listImports = implement(contracts.listImports, { repos: ["search", "sites"] }, async ({ auth, repos, params, query }) => {
  await ownSite(repos, auth!.accountId, params.host);
  const { rows, total } = await repos.search.listBatches(auth!.accountId, params.host, query.limit, query.offset);
  return { body: { host: params.host, imports: rows.map(batchView), page: page(query.limit, query.offset, total) } };
});

export const removeImport = implement(contracts.removeImport, { repos: ["search"] }, async ({ auth, repos, params }) => {
  // Idempotent like DELETE /sites: a batch already gone (or never the account's) answers removed false.
  const host = await repos.search.deleteBatch(auth!.accountId, params.id);
  return { body: { id: params.id, host, removed: host !== null } };
});

export const searchImportsHandlers = [importSearchData, listImports, removeImport];
