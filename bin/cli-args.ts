import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { OperationContract } from "../gateway/contracts/index.ts";

// The command line of a client command, read against its operation's contract: the words of its
// cli name, positional values for the path parameters (then the required fields), and a --flag
// per query or body field, converted by the field's schema.

export class UsageError extends Error {}

export interface ParsedCommand {
  readonly op: OperationContract;
  readonly fields: Record<string, unknown>;
  readonly json: boolean;
  readonly wait: boolean;
  readonly help: boolean;
  readonly apiUrl?: string;
  readonly apiKey?: string;
  readonly idempotencyKey?: string;
  /** --out FILE: where the file the answer produced (an image, a zip, a generated text) is saved. */
  readonly out?: string;
}

interface FieldSchema {
  readonly type?: string | string[];
  readonly items?: FieldSchema;
  readonly enum?: unknown[];
  readonly anyOf?: FieldSchema[];
  readonly description?: string;
  readonly default?: unknown;
  /** base64: the field carries a file's bytes, and the command line takes the file's path. */
  readonly contentEncoding?: string;
}

const GLOBAL_VALUE_FLAGS = new Set(["api_url", "api_key", "idempotency_key", "out"]);
const GLOBAL_BOOLEAN_FLAGS = new Set(["json", "wait", "help"]);

export function fieldsOf(op: OperationContract): { name: string; schema: FieldSchema; required: boolean; inPath: boolean }[] {
  const out: { name: string; schema: FieldSchema; required: boolean; inPath: boolean }[] = [];
  for (const [part, inPath] of [[op.params, true], [op.query, false], [op.body, false]] as const) {
    const obj = part as { properties?: Record<string, FieldSchema>; required?: string[] } | undefined;
    for (const [name, schema] of Object.entries(obj?.properties ?? {})) out.push({ name, schema, required: inPath || (obj?.required ?? []).includes(name), inPath });
  }
  return out;
}

/** The longest cli name that the leading words spell, e.g. ["crawl", "start", "x.com"] → crawl start. */
export function findCommand(ops: readonly OperationContract[], argv: readonly string[]): { op: OperationContract; rest: string[] } | null {
  let best: { op: OperationContract; rest: string[] } | null = null;
  for (const op of ops) {
    const words = op.cli.split(" ");
    if (words.every((w, i) => argv[i] === w) && (!best || words.length > best.op.cli.split(" ").length)) best = { op, rest: argv.slice(words.length) };
  }
  return best;
}

function typeOf(schema: FieldSchema): string {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") ?? "string";
  if (schema.type) return schema.type;
  const arm = schema.anyOf?.find((a) => a.type !== "null");
  return arm ? typeOf(arm) : "string";
}

/** A command-line text as the value its schema wants. */
function convert(name: string, schema: FieldSchema, raw: string, previous: unknown): unknown {
  const type = typeOf(schema);
  if (raw === "null" && (schema.anyOf?.some((a) => a.type === "null") ?? false)) return null;
  switch (type) {
    case "integer":
    case "number": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n) || (type === "integer" && !Number.isInteger(n))) throw new UsageError(`--${name} takes ${type === "integer" ? "an integer" : "a number"}, not "${raw}"`);
      return n;
    }
    case "boolean":
      if (["true", "1", "yes"].includes(raw)) return true;
      if (["false", "0", "no"].includes(raw)) return false;
      throw new UsageError(`--${name} takes true or false, not "${raw}"`);
    case "array": {
      const items = raw.split(",").map((s) => s.trim()).filter(Boolean).map((s) => convert(name, schema.items ?? {}, s, undefined));
      return [...(Array.isArray(previous) ? (previous as unknown[]) : []), ...items];
    }
    case "object":
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new UsageError(`--${name} takes a JSON object`);
      }
    default:
      return raw;
  }
}

/** A file named on the command line, as base64 (a utility's file field). */
function readFileBase64(path: string): string {
  try {
    return readFileSync(path).toString("base64");
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

/** An operation that reads its own command line (contract.cliParse): the global flags are taken out first. */
function parseOwn(op: OperationContract, rest: readonly string[], readFile: (path: string) => string): ParsedCommand {
  const globals: Record<string, string | boolean> = {};
  const positional: string[] = [];
  const flags: [string, string][] = [];
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i] as string;
    if (token === "-h") {
      globals.help = true;
      continue;
    }
    if (!token.startsWith("--")) {
      positional.push(token);
      continue;
    }
    const eq = token.indexOf("=");
    const name = (eq === -1 ? token.slice(2) : token.slice(2, eq)).replace(/-/g, "_");
    let raw = eq === -1 ? undefined : token.slice(eq + 1);
    if (GLOBAL_BOOLEAN_FLAGS.has(name)) {
      globals[name] = raw === undefined ? true : raw !== "false";
      continue;
    }
    if (raw === undefined) {
      const next = rest[i + 1];
      if (next === undefined || next.startsWith("--")) raw = "true";
      else {
        raw = next;
        i++;
      }
    }
    if (GLOBAL_VALUE_FLAGS.has(name)) globals[name] = raw;
    else flags.push([name, raw]);
  }
  let fields: Record<string, unknown> = {};
  if (globals.help !== true) {
    try {
      fields = (op.cliParse as NonNullable<OperationContract["cliParse"]>)(positional, flags, readFile);
    } catch (err) {
      throw err instanceof UsageError ? err : new UsageError((err as Error).message);
    }
  }
  return {
    op,
    fields,
    json: globals.json === true,
    wait: globals.wait === true,
    help: globals.help === true,
    ...(typeof globals.api_url === "string" ? { apiUrl: globals.api_url } : {}),
    ...(typeof globals.api_key === "string" ? { apiKey: globals.api_key } : {}),
    ...(typeof globals.idempotency_key === "string" ? { idempotencyKey: globals.idempotency_key } : {}),
    ...(typeof globals.out === "string" ? { out: globals.out } : {}),
  };
}

/** Reads the arguments after the command's words. */
export function parseCommand(op: OperationContract, rest: readonly string[], readFile: (path: string) => string = readFileBase64): ParsedCommand {
  if (op.cliParse) return parseOwn(op, rest, readFile);
  const fields = fieldsOf(op);
  const byName = new Map(fields.map((f) => [f.name, f]));
  let fileNameFromPath: string | undefined;
  /** A field's value from its command-line text: a base64 field takes a file's path (@path or path). */
  const fieldValue = (field: { name: string; schema: FieldSchema }, raw: string, previous: unknown): unknown => {
    if (field.schema.contentEncoding !== "base64") return convert(field.name, field.schema, raw, previous);
    const path = raw.replace(/^@/, "");
    fileNameFromPath ??= basename(path);
    return readFile(path);
  };
  const values: Record<string, unknown> = {};
  const globals: Record<string, string | boolean> = {};
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i] as string;
    if (token === "-h") {
      globals.help = true;
      continue;
    }
    if (!token.startsWith("--")) {
      positional.push(token);
      continue;
    }
    const eq = token.indexOf("=");
    const name = (eq === -1 ? token.slice(2) : token.slice(2, eq)).replace(/-/g, "_");
    let raw: string | undefined = eq === -1 ? undefined : token.slice(eq + 1);
    if (GLOBAL_BOOLEAN_FLAGS.has(name)) {
      globals[name] = raw === undefined ? true : raw !== "false";
      continue;
    }
    const field = byName.get(name);
    if (!field && !GLOBAL_VALUE_FLAGS.has(name)) throw new UsageError(`svc ${op.cli} has no --${name.replace(/_/g, "-")}; see svc ${op.cli} --help`);
    const isBoolean = field !== undefined && typeOf(field.schema) === "boolean";
    if (raw === undefined) {
      const next = rest[i + 1];
      if (isBoolean && (next === undefined || !["true", "false", "1", "0", "yes", "no"].includes(next))) raw = "true";
      else if (next === undefined) throw new UsageError(`--${name.replace(/_/g, "-")} needs a value`);
      else {
        raw = next;
        i++;
      }
    }
    if (field) values[name] = fieldValue(field, raw, values[name]);
    else globals[name] = raw;
  }
  // Positional values: the path parameters first, then the required fields not given as flags.
  const slots = [...fields.filter((f) => f.inPath), ...fields.filter((f) => !f.inPath && f.required && f.schema.default === undefined && !(f.name in values))];
  if (!globals.help && positional.length > slots.length) throw new UsageError(`svc ${op.cli} takes ${slots.length === 0 ? "no positional values" : slots.map((s) => `<${s.name}>`).join(" ")}; got "${positional.join(" ")}"`);
  positional.forEach((raw, i) => {
    const slot = slots[i];
    if (slot) values[slot.name] = fieldValue(slot, raw, undefined);
  });
  // A file given by its path names itself, unless file_name was given.
  if (fileNameFromPath !== undefined && byName.get("file_name")?.schema.type === "string" && !("file_name" in values)) values.file_name = fileNameFromPath;
  if (!globals.help) {
    const missing = fields.filter((f) => f.required && !(f.name in values) && f.schema.default === undefined);
    if (missing.length > 0) throw new UsageError(`svc ${op.cli}: ${missing.map((m) => `<${m.name}>`).join(", ")} required; see svc ${op.cli} --help`);
  }
  return {
    op,
    fields: values,
    json: globals.json === true,
    wait: globals.wait === true,
    help: globals.help === true,
    ...(typeof globals.api_url === "string" ? { apiUrl: globals.api_url } : {}),
    ...(typeof globals.api_key === "string" ? { apiKey: globals.api_key } : {}),
    ...(typeof globals.idempotency_key === "string" ? { idempotencyKey: globals.idempotency_key } : {}),
    ...(typeof globals.out === "string" ? { out: globals.out } : {}),
  };
}

/** `svc <command> --help`: the command's synopsis and flags, from its contract. */
export function commandHelp(op: OperationContract): string {
  const fields = fieldsOf(op);
  const pos = fields.filter((f) => f.inPath || (f.required && f.schema.default === undefined)).map((f) => `<${f.name}>`);
  const lines = [`svc ${op.cli}${pos.length ? ` ${pos.join(" ")}` : ""} [flags]`, "", `${op.summary}. ${op.method} /api/v1${op.path}; scope ${op.scope}; MCP tool ${op.mcp}.`];
  if (op.description) lines.push(op.description);
  lines.push("", "flags:");
  for (const f of fields.filter((x) => !x.inPath)) {
    const type = typeOf(f.schema);
    const values = f.schema.enum ? ` (${f.schema.enum.join(", ")})` : "";
    const dflt = f.schema.default !== undefined ? ` [default ${JSON.stringify(f.schema.default)}]` : "";
    lines.push(`  --${f.name.replace(/_/g, "-")} <${type}>${values}${dflt}${f.required && f.schema.default === undefined ? " (required)" : ""}${f.schema.description ? `  ${f.schema.description}` : ""}`);
  }
  lines.push("  --json              print the API's JSON answer as is, errors included (default: text and tables)");
  lines.push("  --out FILE          save the file the answer produced (an image, a zip, a generated sitemap)");
  if (op.async) lines.push("  --wait              follow the job it starts until it ends, with a progress bar");
  if (!op.readOnly) lines.push("  --idempotency-key K send this Idempotency-Key (default: a random one, the same on every retry)");
  lines.push("  --api-url URL, --api-key KEY   where and who (else SVC_API_URL, SVC_API_KEY, the config file)");
  return lines.join("\n");
}
