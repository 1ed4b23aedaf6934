import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { ErrorCode } from "../errors.ts";
import type { GatewayDeps } from "../deps.ts";
import type { AuthContext } from "../pipeline/auth.ts";

export type Scope = "read" | "run" | "write";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

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

export interface OperationContext<P, Q, B> extends OperationInput<P, Q, B> {
  readonly deps: GatewayDeps;
  /** The caller; null only on operations of scope none. */
  readonly auth: AuthContext | null;
  /** Unix seconds of this request (the injected clock). */
  readonly now: number;
  readonly request: FastifyRequest;
}

export interface OperationResult {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

type Maybe<T extends TSchema | undefined> = T extends TSchema ? Static<T> : Record<string, never>;

export interface OperationSpec<P extends TObject | undefined, Q extends TObject | undefined, B extends TSchema | undefined> {
  /** operation_id: the spec's tool name, also the MCP tool name. */
  readonly id: string;
  readonly method: Method;
  /** Path relative to /api/v1, as written in the spec ({name} parameters). */
  readonly path: string;
  readonly scope: Scope | "none";
  /** A stricter scope chosen from the validated input (e.g. run for network utilities). */
  readonly scopeFor?: (input: NoInfer<OperationInput<Maybe<P>, Maybe<Q>, Maybe<B>>>) => Scope;
  /** How scopeFor decides, for OpenAPI and /capabilities. */
  readonly scopeRule?: string;
  /** CLI command, e.g. "sites add". */
  readonly cli: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly flags?: { readonly async?: boolean; readonly destructive?: boolean };
  /** Added to v1 by Svc (not in the spec's tables). */
  readonly additive?: boolean;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  readonly response: TSchema;
  /** The success status (200 unless stated). */
  readonly status?: number;
  /** Further success statuses the handler may answer with, with their meaning. */
  readonly otherStatuses?: Readonly<Record<number, string>>;
  /** Error codes the operation itself can answer with, beyond the pipeline's. */
  readonly errors?: readonly ErrorCode[];
  /** Largest accepted body (bytes). */
  readonly bodyLimitBytes?: number;
  /** Largest page (limit) of a list operation. */
  readonly pageMax?: number;
  readonly idempotency?: IdempotencyPolicy;
  /** Rewrites a stored answer before it is kept for replay (e.g. drops a webhook secret). */
  readonly redactForReplay?: (body: unknown) => unknown;
  /** The part of a GET answer its ETag covers, when some fields only tell time (e.g. a job's age_s). */
  readonly etagOf?: (body: unknown) => unknown;
  readonly handler: (ctx: NoInfer<OperationContext<Maybe<P>, Maybe<Q>, Maybe<B>>>) => Promise<OperationResult>;
}

/** A registered operation, its types erased. */
export interface Operation {
  readonly id: string;
  readonly method: Method;
  readonly path: string;
  readonly scope: Scope | "none";
  readonly scopeFor?: (input: OperationInput<unknown, unknown, unknown>) => Scope;
  readonly scopeRule?: string;
  readonly cli: string;
  readonly mcp: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly readOnly: boolean;
  readonly async: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly additive: boolean;
  readonly params?: TObject;
  readonly query?: TObject;
  readonly body?: TSchema;
  readonly response: TSchema;
  readonly status: number;
  readonly otherStatuses: Readonly<Record<number, string>>;
  readonly errors: readonly ErrorCode[];
  readonly bodyLimitBytes: number;
  readonly pageMax: number | null;
  readonly idempotency: IdempotencyPolicy;
  readonly redactForReplay?: (body: unknown) => unknown;
  readonly etagOf?: (body: unknown) => unknown;
  readonly handler: (ctx: OperationContext<unknown, unknown, unknown>) => Promise<OperationResult>;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Defines an operation once; routes, OpenAPI, /capabilities, MCP and the CLI derive from it. */
export function defineOperation<P extends TObject | undefined = undefined, Q extends TObject | undefined = undefined, B extends TSchema | undefined = undefined>(
  spec: OperationSpec<P, Q, B>,
): Operation {
  const mutating = spec.method !== "GET";
  return {
    id: spec.id,
    method: spec.method,
    path: spec.path,
    scope: spec.scope,
    ...(spec.scopeFor ? { scopeFor: spec.scopeFor as Operation["scopeFor"] } : {}),
    ...(spec.scopeRule ? { scopeRule: spec.scopeRule } : {}),
    cli: spec.cli,
    mcp: spec.id,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    readOnly: !mutating,
    async: spec.flags?.async ?? false,
    destructive: spec.flags?.destructive ?? spec.method === "DELETE",
    idempotent: spec.method === "GET" || spec.method === "PUT" || spec.method === "DELETE",
    additive: spec.additive ?? false,
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    response: spec.response,
    status: spec.status ?? 200,
    otherStatuses: spec.otherStatuses ?? {},
    errors: spec.errors ?? [],
    bodyLimitBytes: spec.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    pageMax: spec.pageMax ?? null,
    idempotency: spec.idempotency ?? "store",
    ...(spec.redactForReplay ? { redactForReplay: spec.redactForReplay } : {}),
    ...(spec.etagOf ? { etagOf: spec.etagOf } : {}),
    handler: spec.handler as Operation["handler"],
  };
}
