import { createHash } from "node:crypto";
import { factCount, ImportFormatError, parseImport, PARSER_VERSION } from "../../analyzer/index.ts";
import type { ImportBatchRow } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";

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
export async function ownSite(deps: GatewayDeps, accountId: number, host: string): Promise<void> {
  if (!(await deps.store.sites.get(accountId, host))) throw new ApiError("not_found", `you do not monitor ${host}`);
}

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;

export const importSearchData = implement(contracts.importSearchData, async ({ auth, deps, params, body, now }) => {
  const accountId = auth!.accountId;
  await ownSite(deps, accountId, params.host);
  if (!BASE64.test(body.file)) throw new ApiError("bad_param", "file must be base64-encoded", { param: "file" });
  const bytes = Buffer.from(body.file, "base64");
  if (bytes.length === 0) throw new ApiError("bad_param", "file is empty", { param: "file" });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const known = await deps.store.search.findBatch(accountId, params.host, sha256, PARSER_VERSION);
  if (known) return { status: 200, body: { import: batchView(known), created: false } };
  let parsed;
  try {
    parsed = parseImport(bytes, body.file_name, { ...(body.provider ? { provider: body.provider } : {}), ...(body.kind ? { kind: body.kind } : {}) });
  } catch (err) {
    if (err instanceof ImportFormatError) throw new ApiError("bad_param", err.message, { param: "file" });
    throw err;
  }
  const rows = factCount(parsed.facts);
  if (rows === 0) throw new ApiError("bad_param", `${body.file_name} was recognised (${parsed.formats.join(", ")}) but holds no data rows`, { param: "file" });
  const { batch, created } = await deps.store.search.importBatch(
    { accountId, host: params.host, provider: parsed.provider, kind: parsed.kind, formats: parsed.formats, fileName: body.file_name, sha256, parserVersion: PARSER_VERSION, rows, importedAt: now },
    parsed.facts,
  );
  return { status: created ? 201 : 200, body: { import: batchView(batch), created } };
});

export const listImports = implement(contracts.listImports, async ({ auth, deps, params, query }) => {
  await ownSite(deps, auth!.accountId, params.host);
  const { rows, total } = await deps.store.search.listBatches(auth!.accountId, params.host, query.limit, query.offset);
  return { body: { host: params.host, imports: rows.map(batchView), page: page(query.limit, query.offset, total) } };
});

export const removeImport = implement(contracts.removeImport, async ({ auth, deps, params }) => {
  const host = await deps.store.search.deleteBatch(auth!.accountId, params.id);
  if (host === null) throw new ApiError("not_found", `no import ${params.id} in your account`);
  return { body: { id: params.id, host, removed: true as const } };
});

export const searchImportsHandlers = [importSearchData, listImports, removeImport];
