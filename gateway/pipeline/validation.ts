import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import type { ErrorCode } from "../errors.ts";
import { ApiError } from "../errors.ts";
import { boundIntegers } from "../schemas.ts";
import { normalizeHost, type HostPolicy } from "./host.ts";

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(policy: HostPolicy, coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: false, // the first problem is reported; also a guard against costly inputs
    verbose: true, // errors carry their schema, so x-error can pick the catalogue code
    useDefaults: true,
    removeAdditional: false, // unknown fields are refused (additionalProperties: false), not dropped
    coerceTypes: coerce ? "array" : false,
    strict: false,
  });
  addFormats(ajv);
  ajv.addFormat("host", { type: "string", validate: (s: string) => normalizeHost(s, policy).ok });
  ajv.addKeyword({ keyword: "x-error", schemaType: "string" });
  ajv.addKeyword({ keyword: "x-optional", schemaType: "boolean" });
  return ajv;
}

/**
 * Path and query values arrive as text and are coerced to their declared types; bodies are JSON and
 * must carry the declared types as they are (a string "5" where an integer belongs is bad_param).
 */
export function buildValidatorCompiler(policy: HostPolicy): FastifySchemaCompiler<unknown> {
  const coercing = makeAjv(policy, true);
  const strict = makeAjv(policy, false);
  return ({ schema, httpPart }) => {
    const validate: ValidateFunction = (httpPart === "body" ? strict : coercing).compile(boundIntegers(schema));
    // A body marked "x-optional" (POST /crawl's {fresh}) may also be left out. (Fastify hands the
    // compiler a copy of the schema: TypeBox's Optional symbol does not survive it.)
    const mayBeAbsent = httpPart === "body" && (schema as { "x-optional"?: unknown })["x-optional"] === true;
    const where = httpPart === "querystring" ? "query" : (httpPart ?? "body");
    return (data: unknown) => {
      if (mayBeAbsent && (data === undefined || data === null)) return { value: undefined };
      const nul = nulField(data);
      if (nul !== null) return { error: nulError(where, nul) };
      const ok = httpPart === "body" ? withBytesAsText(data, () => validate(data)) : validate(data);
      return ok ? { value: data } : { error: validationError(validate.errors ?? [], httpPart ?? "body", policy) };
    };
  };
}

/**
 * Runs `check` with every Uint8Array of a body (a base64 field decoded from the request's bytes, a
 * form's file part) standing as base64 text, as the contract describes the field: a short stand-in
 * ("" for no bytes), since the text was proved base64 when it was decoded. A schema walking the
 * 62 MB text itself (minLength counts code points in a JavaScript loop) took seconds.
 */
function withBytesAsText<T>(data: unknown, check: () => T): T {
  const swapped: [Record<string, unknown>, string, unknown][] = [];
  const walk = (value: unknown) => {
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return;
    const record = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(record)) {
      if (!ArrayBuffer.isView(v)) walk(v);
      else {
        swapped.push([record, k, v]);
        record[k] = v.byteLength > 0 ? "AAAA" : "";
      }
    }
  };
  walk(data);
  try {
    return check();
  } finally {
    for (const [record, k, v] of swapped) record[k] = v;
  }
}

/**
 * Where a request's value holds U+0000: the dotted path of the first string (or object key) with
 * one, "" for the value itself, null when there is none. No text Svc stores may hold it
 * (PostgreSQL refuses NUL in text), and no field needs it, so it is refused before anything runs.
 */
export function nulField(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = path === "" ? k : `${path}.${k}`;
    if (k.includes("\u0000")) return at;
    const found = nulField(v, at);
    if (found !== null) return found;
  }
  return null;
}

/** The answer to a NUL in a request's field: bad_param naming it. */
export function nulError(where: string, field: string): ApiError {
  const what = field === "" ? `the ${where}` : `${where} field "${field}"`;
  return new ApiError("bad_param", `${what} contains U+0000 (NUL), which no text may hold`, field === "" ? {} : { param: field });
}

/** Turns the first ajv error into the catalogue's answer, naming the field. */
function validationError(errors: ErrorObject[], part: string, policy: HostPolicy): ApiError {
  const e = errors[0];
  if (!e) return new ApiError("bad_param", "invalid request");
  const where = part === "querystring" ? "query" : part;
  const path = e.instancePath.split("/").filter(Boolean).join(".");
  const extra = (e.params as { additionalProperty?: string; missingProperty?: string }) ?? {};
  const field = extra.additionalProperty ?? extra.missingProperty ?? path;
  const fullField = extra.additionalProperty || extra.missingProperty ? (path ? `${path}.${field}` : field) : path;
  const code = ((e.parentSchema)?.["x-error"] as ErrorCode | undefined) ?? "bad_param";
  let message: string;
  switch (e.keyword) {
    case "additionalProperties":
      message = `unknown ${where} field "${fullField}"`;
      break;
    case "required":
      message = `${where} field "${fullField}" is required`;
      break;
    case "format":
      if ((e.params as { format?: string }).format === "host") {
        const res = normalizeHost(String(e.data), policy);
        message = `"${String(e.data)}" is not a usable host: ${res.ok ? "invalid" : res.reason}`;
      } else message = `${where} field "${fullField}" ${e.message ?? "is invalid"}`;
      break;
    case "enum":
      message = `${where} field "${fullField}" must be one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(", ")}`;
      break;
    default:
      message = fullField ? `${where} field "${fullField}" ${e.message ?? "is invalid"}` : `${where} ${e.message ?? "is invalid"}`;
  }
  return new ApiError(code, message, fullField ? { param: fullField } : {});
}
