import { Type } from "@sinclair/typebox";
import { GROUPS, NET_UTILITY_IDS, UTILITIES, utilityById } from "../../utilities/index.ts";
import { ApiError } from "../errors.ts";
import { PageEnvelope, StringEnum, pagedQuery } from "../schemas.ts";
import { defineContract, type CliParse, type FormPart, type FormReading } from "./contract.ts";

// The spec's three utility operations. The utilities themselves (their fields, examples and
// code) are the catalogue in utilities/; these contracts describe the envelope around them.

/** The spec's body limit of a utility run: 7.6 MB (a 5 MB file is 6,990,508 base64 characters). */
export const UTILITY_BODY_LIMIT_BYTES = 7_600_000;

const Group = StringEnum(GROUPS, { description: "site, text, dev, calc, net, seo or img" });
const UtilityId = Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-z0-9_]+$", description: "A utility code (GET /utilities lists them)" });

const Entry = {
  id: Type.String(),
  group: Group,
  group_title: Type.String(),
  title: Type.String(),
  description: Type.String(),
  net: Type.Boolean({ description: "Contacts third-party sites (needs the run scope)" }),
  file: Type.Boolean({ description: "Takes a file (input.file, base64)" }),
  available: Type.Boolean({ description: "Works through the API on this server (false: a browser, dictionary or crawler node it needs is missing)" }),
  enabled: Type.Boolean({ description: "Not disabled by the administrator (SVC_UTILITIES_OFF)" }),
};

export const listUtilities = defineContract({
  id: "list_utilities",
  method: "GET",
  path: "/utilities",
  scope: "read",
  cli: "util list",
  summary: "The utilities, by group, with whether each contacts other sites and is available here",
  description:
    "q matches the code, title and description (case-insensitive). net=1 lists only the utilities that contact other sites (they need the run scope), net=0 only the local ones. groups counts the utilities of each group that match q and net (whatever group asks for), so a client can show every group's count beside one group's list.",
  tags: ["Utilities"],
  pageMax: 200,
  query: pagedQuery(200, {
    group: Type.Optional(Group),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Words of the code, title or description" })),
    net: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: "1: only those contacting other sites; 0: only local ones" })),
  }),
  response: Type.Object(
    {
      utilities: Type.Array(Type.Object(Entry, { additionalProperties: false })),
      page: PageEnvelope,
      groups: Type.Array(Type.Object({ id: Group, title: Type.String(), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
});

const FieldDescriptor = Type.Object(
  {
    name: Type.String(),
    type: StringEnum(["url", "host", "str", "text", "int", "num", "bool", "sel", "multi", "list", "json", "color", "file"]),
    label: Type.String(),
    required: Type.Boolean(),
    options: Type.Optional(Type.Array(Type.String())),
    default: Type.Optional(Type.Unknown()),
    max: Type.Optional(Type.Number({ description: "Characters for str/text, items for list/multi, the largest value for int/num, bytes for file" })),
    min: Type.Optional(Type.Number({ description: "The smallest value of an int/num field (an extension)" })),
  },
  { additionalProperties: false },
);

export const getUtility = defineContract({
  id: "get_utility",
  method: "GET",
  path: "/utilities/{id}",
  scope: "read",
  cli: "util get",
  summary: "One utility's input fields, scope, primary field and a ready input example",
  description:
    "fields lists the input fields in order; the first is primary (what `svc util <id> <value>` and a single search box fill). scope is run for utilities that contact other sites, else read. input_example is a complete input that runs as is.",
  tags: ["Utilities"],
  errors: ["not_found"],
  params: Type.Object({ id: UtilityId }, { additionalProperties: false }),
  response: Type.Object(
    {
      ...Entry,
      fields: Type.Array(FieldDescriptor),
      scope: StringEnum(["read", "run"]),
      primary: Type.String(),
      input_example: Type.Record(Type.String(), Type.Unknown()),
    },
    { additionalProperties: false },
  ),
});

const Status = StringEnum(["good", "warn", "bad", "info"]);
const Cell = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const Blocks = Type.Object(
  {
    pairs: Type.Array(Type.Object({ label: Type.String(), value: Type.String(), status: Type.Optional(Status) }, { additionalProperties: false })),
    tables: Type.Array(Type.Object({ title: Type.String(), columns: Type.Array(Type.String()), rows: Type.Array(Type.Array(Cell)) }, { additionalProperties: false })),
    code: Type.Array(Type.Object({ lang: Type.String(), text: Type.String(), filename: Type.Optional(Type.String()) }, { additionalProperties: false })),
    comparison: Type.Array(Type.Object({ before: Type.String(), after: Type.String(), mode: StringEnum(["text", "diff"]) }, { additionalProperties: false })),
    images: Type.Array(
      Type.Object({ mime: Type.String(), data_base64: Type.String(), width: Type.Integer(), height: Type.Integer(), alt: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false, description: "Presentation only: ready blocks a client shows as they are" },
);

/**
 * `svc util <id> [<primary>] [--field value]…`: the primary field from the second positional
 * value, the others from flags named as the fields; a file field takes a path (@path or path).
 * Values go as text: the API converts them by the field's type, as it does for any client.
 */
export const utilityCommandLine: CliParse = (positional, flags, readFile) => {
  const [id, primary, ...extra] = positional;
  if (id === undefined) throw new Error("svc util takes <id> [<primary value>]; svc util list shows the ids");
  const u = utilityById(id);
  if (!u) throw new Error(`no utility has the id ${id}; svc util list shows them`);
  if (extra.length > 0) throw new Error(`svc util ${id} takes one positional value (its ${u.fields[0]?.name}); give the others as --name value`);
  const input: Record<string, unknown> = {};
  const put = (name: string, raw: string) => {
    const field = u.fields.find((f) => f.name === name);
    if (!field && !(u.file && name === "file_name")) throw new Error(`${id} has no field ${name} (its fields: ${u.fields.map((f) => f.name).join(", ")})`);
    let value: unknown = raw;
    if (field?.type === "file") value = readFile(raw.replace(/^@/, ""));
    else if (field?.type === "json") {
      try {
        value = JSON.parse(raw) as unknown;
      } catch {
        throw new Error(`--${name} takes a JSON object`);
      }
    }
    const prev = input[name];
    // A repeated flag of a list field adds an item.
    input[name] = prev !== undefined && field?.type === "list" ? [...(Array.isArray(prev) ? (prev as unknown[]) : [prev]), value] : value;
  };
  if (primary !== undefined) put((u.fields[0] as { name: string }).name, primary);
  for (const [name, raw] of flags) put(name, raw);
  return { id, input };
};

/**
 * A run's body from a multipart/form-data form (an extension beside the JSON body): the utility's
 * file field as a file part of raw bytes (no base64; its filename becomes file_name unless that is
 * sent), every other field as a text part named as the field, and/or one part `input` holding a JSON
 * object of fields. Text parts are converted by the field's type as JSON strings are (a json field's
 * part is parsed as JSON). A field sent twice is bad_param naming it; what the fields hold is
 * validated afterwards exactly as for a JSON body.
 */
export function utilityFormBody(parts: readonly FormPart[], params: Readonly<Record<string, string>>): { input: Record<string, unknown> } {
  const u = utilityById(params.id ?? "");
  const input: Record<string, unknown> = {};
  const put = (name: string, value: unknown) => {
    if (Object.hasOwn(input, name)) throw new ApiError("bad_param", `input.${name} is sent twice (as a form part and in the part input, or in two parts)`, { param: `input.${name}` });
    // Defined, not assigned: a part named __proto__ is a field like any other (refused as unknown).
    Object.defineProperty(input, name, { value, enumerable: true, writable: true, configurable: true });
  };
  const jsonOf = (part: FormPart, param: string, what: string): unknown => {
    let value: unknown;
    try {
      value = JSON.parse(part.data.toString("utf8")) as unknown;
    } catch {
      throw new ApiError("bad_param", `${param} must hold ${what}`, { param });
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ApiError("bad_param", `${param} must hold ${what}`, { param });
    return value;
  };
  let fileName: string | null = null;
  for (const part of parts) {
    if (part.name === "input") {
      for (const [name, value] of Object.entries(jsonOf(part, "input", "a JSON object of the utility's fields") as Record<string, unknown>)) put(name, value);
      continue;
    }
    const field = u?.fields.find((f) => f.name === part.name);
    if (field?.type === "file") {
      // The bytes as they came: a view into the request body, handed to the pool's thread by transfer.
      put(part.name, new Uint8Array(part.data.buffer, part.data.byteOffset, part.data.length));
      if (part.filename) fileName = part.filename;
    } else if (field?.type === "json") put(part.name, jsonOf(part, `input.${part.name}`, "a JSON object"));
    else put(part.name, part.data.toString("utf8"));
  }
  if (fileName !== null && !Object.hasOwn(input, "file_name")) input.file_name = fileName;
  return { input };
}

/** The form of POST /utilities/{id} in the OpenAPI document (the extension x-form-body marks it). */
const utilityForm: FormReading = {
  body: utilityFormBody,
  schema: {
    type: "object",
    description:
      "Extension: the run's input as a form instead of JSON. Same limits as the JSON body (the whole body 7.6 MB, a file 5 MB, a text 200,000 characters); the same errors, bad_param naming input.<field>.",
    properties: {
      file: { type: "string", format: "binary", description: "The utility's file as raw bytes (no base64); its filename becomes input.file_name unless file_name is sent" },
      input: { type: "string", contentMediaType: "application/json", description: "Optional: a JSON object of input fields (those not sent as their own parts)" },
      file_name: { type: "string", description: "The file's name (a hint)" },
    },
    additionalProperties: { type: "string", description: "Any other input field as text, named as the field (a json field's text is parsed as JSON)" },
  },
};

export const runUtility = defineContract({
  id: "run_utility",
  method: "POST",
  path: "/utilities/{id}",
  scope: "read",
  scopeFor: ({ params }) => (NET_UTILITY_IDS.has((params).id) ? "run" : "read"),
  scopeRule: "read; run when the utility has net true",
  cli: "util",
  cliParse: utilityCommandLine,
  summary: "Runs a utility on an input and answers its result, ready blocks and warnings",
  description:
    "input holds the utility's fields (GET /utilities/{id}); files are base64 in input.file (a data: prefix is tolerated; input.file_name is a hint). " +
    "A wrong field is bad_param naming it (input.<field>); an input the utility cannot process is tool_failed saying why; a utility the administrator disabled, or one this server cannot run, is tool_off; one still loading its state on first use (spell_check's dictionaries) is 409 not_ready with Retry-After. " +
    "Local utilities run in a bounded pool of worker threads (a CPU time and memory limit per run). " +
    "Network utilities (net true) run on a crawler node behind the SSRF guard (20 s, 120 requests and 5 MB per body at most), count against the key's hourly limit of network utilities (GET /capabilities: limits.net_utilities_per_hour; past it limit), and answer not_ready when the run outlasts the synchronous wait. Nothing of the input or result is stored or logged (byte counts and outcome only): " +
    "an Idempotency-Key keeps only the request's fingerprint, so a replay runs the utility again. " +
    "Limits: body 7.6 MB, texts 200,000 characters, files 5 MB. " +
    "Extension: the body may also be multipart/form-data, the file as a raw file part `file` (no base64: a third less to send and nothing to decode), the other fields as text parts named as the fields or as one JSON part `input`; same limits and errors.",
  tags: ["Utilities"],
  errors: ["not_found", "tool_failed", "tool_off", "limit", "not_ready"],
  bodyLimitBytes: UTILITY_BODY_LIMIT_BYTES,
  form: utilityForm,
  bytesField: ["input", "file"],
  idempotency: "fingerprint",
  params: Type.Object({ id: UtilityId }, { additionalProperties: false }),
  body: Type.Object(
    { input: Type.Record(Type.String(), Type.Unknown(), { description: "The utility's input fields" }) },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      result: Type.Record(Type.String(), Type.Unknown(), {
        description: "Machine data: stable snake_case keys, units in the names. Where a utility documents its result, the extension x-results holds its schema under its id",
        "x-results": Object.fromEntries(UTILITIES.filter((u) => u.resultSchema).map((u) => [u.id, u.resultSchema])),
      }),
      blocks: Blocks,
      warnings: Type.Array(Type.Object({ code: Type.String(), text: Type.String() }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
});
