import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "../errors.ts";

// An operation's contract is data: what it accepts, answers and promises. This file and every
// contract import nothing of the server (a test loads them in a fresh process to prove it), so the
// CLI, the MCP tool list and a typed client can read them without Fastify, storage or engines.

export type Scope = "read" | "run" | "write";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A command line's positional values and --name value flags (in order, repeats kept) turned into
 * the operation's fields. readFile gives a file's bytes as base64 (the CLI reads it; a contract
 * loads no I/O). Throws Error with a usage message.
 */
export type CliParse = (positional: readonly string[], flags: readonly (readonly [string, string])[], readFile: (path: string) => string) => Record<string, unknown>;

/** One part of a multipart/form-data body: its field name, its filename when it carries a file, its bytes. */
export interface FormPart {
  readonly name: string;
  readonly filename: string | null;
  readonly data: Buffer;
}

/**
 * How an operation reads a multipart/form-data body, when it has its own reading (an extension
 * beside its JSON body; `formUpload` is the generic one of uploads).
 */
export interface FormReading {
  /** The body the operation's schema then validates, from the form's parts and the path's parameters; throws ApiError. */
  readonly body: (parts: readonly FormPart[], params: Readonly<Record<string, string>>) => unknown;
  /** The form's JSON Schema for the OpenAPI document. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** How a repeated Idempotency-Key is answered. */
export type IdempotencyPolicy =
  /** The first answer is stored and replayed. */
  | "store"
  /** Only the request's fingerprint is kept (its data must not be); a replay executes again. */
  | "fingerprint";

export interface OperationInput<P, Q, B> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
}

type Maybe<T extends TSchema | undefined> = T extends TSchema ? Static<T> : Record<string, never>;

/** The validated input of an operation whose schemas are P, Q and B. */
export type InputOf<P extends TObject | undefined, Q extends TObject | undefined, B extends TSchema | undefined> = OperationInput<Maybe<P>, Maybe<Q>, Maybe<B>>;

/** What an operation's author writes; defaults fill the rest. */
export interface ContractSpec<P extends TObject | undefined, Q extends TObject | undefined, B extends TSchema | undefined, R extends TSchema = TSchema> {
  /** operation_id: the spec's tool name, also the MCP tool name. */
  readonly id: string;
  readonly method: Method;
  /** Path relative to /api/v1, as written in the spec ({name} parameters). */
  readonly path: string;
  readonly scope: Scope | "none";
  /** A stricter scope chosen from the validated input (e.g. run for network utilities). */
  readonly scopeFor?: (input: NoInfer<InputOf<P, Q, B>>) => Scope;
  /** How scopeFor decides, for OpenAPI and /capabilities. */
  readonly scopeRule?: string;
  /** CLI command, e.g. "sites add". */
  readonly cli: string;
  /** Reads the command line (after the command's words and the global flags) when the generic reading does not fit (`svc util <id> <primary>`). */
  readonly cliParse?: CliParse;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly flags?: { readonly async?: boolean; readonly destructive?: boolean };
  /** Added to v1 by Svc (not in the spec's tables). */
  readonly additive?: boolean;
  /** Reads what the spec shares among all users (reports, check history, crawls by domain): any key may read it. */
  readonly shared?: boolean;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  readonly response: R;
  /** The success status (200 unless stated). */
  readonly status?: number;
  /** Further success statuses the handler may answer with, with their meaning. */
  readonly otherStatuses?: Readonly<Record<number, string>>;
  /** Error codes the operation itself can answer with, beyond the pipeline's. */
  readonly errors?: readonly ErrorCode[];
  /** Largest accepted body (bytes). */
  readonly bodyLimitBytes?: number;
  /** The body may also come as multipart/form-data, its base64 string field `file` as a file part (uploads; it arrives as a Uint8Array of the part's bytes). */
  readonly formUpload?: boolean;
  /** The body may also come as multipart/form-data, read this way (files as raw bytes). */
  readonly form?: FormReading;
  /** The path of a long base64 field of the JSON body that arrives decoded, as a Uint8Array (input.file of a utility run, file of an import); validation takes the bytes for the text they were sent as. */
  readonly bytesField?: readonly string[];
  /** Largest page (limit) of a list operation. */
  readonly pageMax?: number;
  readonly idempotency?: IdempotencyPolicy;
  /** Rewrites a stored answer before it is kept for replay (e.g. drops a webhook secret). */
  readonly redactForReplay?: (body: unknown) => unknown;
  /** The part of a GET answer its ETag covers, when some fields only tell time (e.g. a job's age_s). */
  readonly etagOf?: (body: unknown) => unknown;
}

/** An operation's contract with every default applied, its input types erased. */
export interface OperationContract {
  readonly id: string;
  readonly method: Method;
  readonly path: string;
  readonly scope: Scope | "none";
  readonly scopeFor?: (input: OperationInput<unknown, unknown, unknown>) => Scope;
  readonly scopeRule?: string;
  readonly cli: string;
  readonly cliParse?: CliParse;
  readonly mcp: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly readOnly: boolean;
  readonly async: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly additive: boolean;
  readonly shared: boolean;
  readonly params?: TObject;
  readonly query?: TObject;
  readonly body?: TSchema;
  readonly response: TSchema;
  readonly status: number;
  readonly otherStatuses: Readonly<Record<number, string>>;
  readonly errors: readonly ErrorCode[];
  readonly bodyLimitBytes: number;
  readonly formUpload: boolean;
  readonly form?: FormReading;
  readonly bytesField?: readonly string[];
  readonly pageMax: number | null;
  readonly idempotency: IdempotencyPolicy;
  readonly redactForReplay?: (body: unknown) => unknown;
  readonly etagOf?: (body: unknown) => unknown;
}

declare const input: unique symbol;
declare const output: unique symbol;

/**
 * A contract that remembers the static types of its validated input (for the handler implementing
 * it) and of its answer (for the typed client).
 */
export interface Contract<I extends OperationInput<unknown, unknown, unknown> = OperationInput<unknown, unknown, unknown>, R extends TSchema = TSchema> extends OperationContract {
  /** Never set: carries I for the type checker only. */
  readonly [input]?: I;
  /** Never set: carries the response schema's type (Static<R> is the answer) for the type checker only. */
  readonly [output]?: R;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Defines an operation's contract once; routes, OpenAPI, /capabilities, MCP and the CLI derive from it. */
export function defineContract<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
>(spec: ContractSpec<P, Q, B, R>): Contract<InputOf<P, Q, B>, R> {
  const mutating = spec.method !== "GET";
  return {
    id: spec.id,
    method: spec.method,
    path: spec.path,
    scope: spec.scope,
    ...(spec.scopeFor ? { scopeFor: spec.scopeFor as OperationContract["scopeFor"] } : {}),
    ...(spec.scopeRule ? { scopeRule: spec.scopeRule } : {}),
    cli: spec.cli,
    ...(spec.cliParse ? { cliParse: spec.cliParse } : {}),
    mcp: spec.id,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    readOnly: !mutating,
    async: spec.flags?.async ?? false,
    destructive: spec.flags?.destructive ?? spec.method === "DELETE",
    idempotent: spec.method === "GET" || spec.method === "PUT" || spec.method === "DELETE",
    additive: spec.additive ?? false,
    shared: spec.shared ?? false,
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    response: spec.response,
    status: spec.status ?? 200,
    otherStatuses: spec.otherStatuses ?? {},
    errors: spec.errors ?? [],
    bodyLimitBytes: spec.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    formUpload: spec.formUpload ?? false,
    ...(spec.form ? { form: spec.form } : {}),
    ...(spec.bytesField ? { bytesField: spec.bytesField } : {}),
    pageMax: spec.pageMax ?? null,
    idempotency: spec.idempotency ?? "store",
    ...(spec.redactForReplay ? { redactForReplay: spec.redactForReplay } : {}),
    ...(spec.etagOf ? { etagOf: spec.etagOf } : {}),
  };
}
