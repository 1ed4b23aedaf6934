import { Type } from "@sinclair/typebox";
import { IMPORT_KINDS, PROVIDERS } from "../../analyzer/index.ts";
import { HostParams, Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";
import { JobSchema } from "./jobs.ts";

// Imports of the user's own search exports: an extension of the v1 contract, since the
// spec's search operations read "uploaded third-party data" without naming how it is uploaded.

/** Largest import request: the file travels base64-encoded (4/3 of its size) inside JSON. */
export const IMPORT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

export const ImportBatchSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    host: Type.String(),
    provider: StringEnum([...PROVIDERS]),
    kind: StringEnum([...IMPORT_KINDS]),
    formats: Type.Array(Type.String(), { description: "The recognised tables, e.g. gsc_performance, gsc_filters" }),
    file_name: Type.String(),
    sha256: Type.String({ description: "Of the uploaded file: the same file (with the same parser version) is one batch" }),
    period: Type.Object(
      { start: Nullable(Type.String({ format: "date" })), end: Nullable(Type.String({ format: "date" })) },
      { additionalProperties: false, description: "The days the data covers, when the file says (GSC Chart.csv, dated rows); null otherwise" },
    ),
    rows: Type.Integer({ minimum: 0, description: "Facts stored (period rows, daily rows, URLs, links, rank checks, …)" }),
    truncated: Type.Boolean({ description: "The export hit its tool's row cap (GSC UI: exactly 1,000 rows): rows beyond it are missing" }),
    warnings: Type.Array(Type.String()),
    filters: Type.Record(Type.String(), Type.String(), { description: "The export's scope rows (GSC Filters.csv, Metadata.csv)" }),
    imported_at: UnixSeconds,
  },
  { additionalProperties: false },
);

export const importSearchData = defineContract({
  id: "import_search_data",
  method: "POST",
  path: "/imports/{host}",
  scope: "write",
  cli: "imports add",
  additive: true,
  summary: "Import a search export of one of your sites (GSC, Yandex Webmaster, Topvisor, Keys.so, Ahrefs, Semrush)",
  description:
    "Extension of v1. The file travels base64-encoded in `file`, as the utilities take files. Its format is recognised by its header row, never its name (GSC reuses Chart.csv and Table.csv): " +
    "GSC Performance (a ZIP or one CSV; Queries, Pages, Countries, Devices, Search appearance, Chart/Dates, Filters; single and Compare mode; English and Russian UI), GSC Page indexing (ZIP, or a drill-down Table.csv whose reason is taken from its folder or file name), " +
    "GSC Latest links, Yandex Webmaster pages in search and query analytics by URL (CSV), Ahrefs backlinks (UTF-16 TSV), Semrush backlinks (CSV), Topvisor positions_2/history and Keys.so monitoring report (JSON). " +
    "UTF-8 and UTF-16 with or without BOM, any of , ; TAB as delimiter, locale numbers and dates. A ZIP is read with at most 64 entries and 512 MB inflated (256 MB an entry); an XLSX workbook (GSC, Yandex Webmaster Excel downloads) is a ZIP under the same caps, each sheet read as a table. " +
    "Cells starting with = + - @ lose those characters before they are stored (formula injection). The import is all or nothing: its facts are written in bounded transactions (at most 20,000 rows each, so other requests are served meanwhile) into a batch that is listed and read only once its final commit marks it complete; a file that fails leaves no rows. " +
    "The same file for the same site (SHA-256, parser version) is one batch: importing it again answers 200 with that batch. An unknown format is bad_param naming the formats expected. " +
    "Facts are stored as sums (clicks, impressions, position × impressions) with their batch; re-importing an overlapping export replaces the older rows in reads. " +
    "A file up to SVC_IMPORT_SYNC_MAX_MB (5 MB decoded) is imported within the request (201); a larger one answers 202 with a job of kind import (GET /jobs/{id}; its result names the batch; a file that is not a known export ends the job in error bad_param with the same text; while it stores, the job's step reads storing N of M facts and its progress moves from 50 to 99). " +
    "The body is JSON, or multipart/form-data with the file in the part `file` (its file name taken from the part unless `file_name` is sent) and `provider`, `kind`, `file_name` as text fields. " +
    "A file of a provider the administrator turned off (SVC_SEARCH_SOURCES_OFF; GET /providers shows it with enabled false) is 503 service_off, without Retry-After (a job ends in error service_off).",
  tags: ["Search data"],
  errors: ["bad_host", "bad_param", "not_found", "service_off"],
  bodyLimitBytes: IMPORT_BODY_LIMIT_BYTES,
  formUpload: true,
  bytesField: ["file"],
  params: HostParams,
  body: Type.Object(
    {
      file: Type.String({ minLength: 1, contentEncoding: "base64", description: "The export's bytes, base64-encoded" }),
      file_name: Type.String({ minLength: 1, maxLength: 255, description: "Kept with the batch; a GSC drill-down Table.csv takes its reason from it" }),
      provider: Type.Optional(StringEnum([...PROVIDERS], { description: "When given, a file recognised as another provider's is refused" })),
      kind: Type.Optional(StringEnum([...IMPORT_KINDS], { description: "When given, a file holding another kind of data is refused" })),
    },
    { additionalProperties: false },
  ),
  status: 201,
  otherStatuses: {
    200: "The same file was imported for this site before: its batch, unchanged",
    202: "A file above SVC_IMPORT_SYNC_MAX_MB (5 MB decoded by default) is imported by a background job: `{job}`; GET /jobs/{id} until done, its result names the batch",
  },
  response: Type.Union([
    Type.Object({ import: ImportBatchSchema, created: Type.Boolean() }, { additionalProperties: false }),
    Type.Object({ job: JobSchema }, { additionalProperties: false, description: "202: a file above SVC_IMPORT_SYNC_MAX_MB (5 MB decoded) is imported by a job; GET /jobs/{id}" }),
  ]),
});

export const listImports = defineContract({
  id: "list_imports",
  method: "GET",
  path: "/imports/{host}",
  scope: "read",
  cli: "imports",
  additive: true,
  summary: "Import batches of one of your sites, newest first",
  description: "Extension of v1. An account's imports are its own: another account monitoring the same host sees none of them.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  query: pagedQuery(200, {}),
  pageMax: 200,
  response: Type.Object({ host: Type.String(), imports: Type.Array(ImportBatchSchema), page: PageEnvelope }, { additionalProperties: false }),
});

export const removeImport = defineContract({
  id: "remove_import",
  method: "DELETE",
  path: "/imports/batches/{id}",
  scope: "write",
  cli: "imports remove",
  additive: true,
  summary: "Remove an import batch and every fact it brought",
  description:
    "Extension of v1. Reads then fall back to older batches' rows where they overlap. The path has its own segment (`batches`) so that it never differs from GET /imports/{host} by the parameter's name alone. " +
    "removed is false (and host null) when the account has no such batch (already removed: the call is idempotent, as DELETE /sites).",
  tags: ["Search data"],
  errors: [],
  params: Type.Object({ id: Type.Integer({ minimum: 1, description: "The batch's id" }) }, { additionalProperties: false }),
  response: Type.Object({ id: Type.Integer(), host: Nullable(Type.String()), removed: Type.Boolean() }, { additionalProperties: false }),
});
