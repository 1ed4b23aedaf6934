import type { TObject, TSchema } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { Repositories } from "../../storage/index.ts";
import { defineContract, type Contract, type ContractSpec, type InputOf, type OperationContract, type OperationInput } from "../contracts/index.ts";
import type { GatewayDeps } from "../deps.ts";
import type { AuthContext } from "../pipeline/auth.ts";

type AnyInput = OperationInput<unknown, unknown, unknown>;

/** The name of one repository of the store. */
export type RepoName = keyof Repositories;

/** The gateway's parts a handler runs with: everything but the store (its repositories come declared). */
export type HandlerDeps = Omit<GatewayDeps, "store">;

/**
 * A unit of work over an operation's declared repositories: `work` gets them bound to one
 * transaction, committed when it resolves and rolled back when it throws.
 */
export type UnitOfWork<R extends RepoName> = <T>(work: (t: Pick<Repositories, R>) => Promise<T>) => Promise<T>;

/**
 * What an implementation uses of the store: the repositories its handler receives (and no
 * others), and whether it opens units of work over them.
 */
export interface Uses<R extends RepoName = RepoName, W extends boolean = boolean> {
  readonly repos: readonly R[];
  readonly tx?: W;
}

/** What every handler runs with besides its input and repositories: the request's context. */
interface RequestContext {
  readonly deps: HandlerDeps;
  /** The caller; null only on operations of scope none. */
  readonly auth: AuthContext | null;
  /** Unix seconds of this request (the injected clock). */
  readonly now: number;
  readonly request: FastifyRequest;
}

/** What a handler runs with: its validated input, its declared repositories and the request's context. */
export type OperationContext<I extends AnyInput = AnyInput, R extends RepoName = never, W extends boolean = false> = I &
  RequestContext & {
    /** The repositories the implementation declared: only those keys exist. */
    readonly repos: Pick<Repositories, R>;
  } & (W extends true ? { readonly tx: UnitOfWork<R> } : unknown);

export interface OperationResult {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Handler<I extends AnyInput = AnyInput, R extends RepoName = never, W extends boolean = false> = (ctx: OperationContext<I, R, W>) => Promise<OperationResult>;

/** A handler as the router calls it: whatever it declared, with the unit of work when it declared one. */
export type AnyHandler = (
  ctx: AnyInput & RequestContext & { readonly repos: Partial<Repositories>; readonly tx: UnitOfWork<RepoName> | undefined },
) => Promise<OperationResult>;

/** A handler bound to the contract it implements and to what it uses; the registry joins these with the contract list. */
export interface Implementation {
  readonly contract: OperationContract;
  readonly uses: Uses;
  readonly handler: AnyHandler;
}

/** A contract joined with its handler: what the server routes. */
export interface Operation extends OperationContract {
  readonly uses: Uses;
  readonly handler: AnyHandler;
}

/**
 * Implements a contract: the handler's input is typed by the contract's schemas, and it receives
 * exactly the repositories `uses` names (with `tx: true`, units of work over those).
 */
export function implement<I extends AnyInput, R extends RepoName = never, W extends boolean = false>(contract: Contract<I>, uses: Uses<R, W>, handler: Handler<NoInfer<I>, NoInfer<R>, NoInfer<W>>): Implementation {
  return { contract, uses, handler: handler as unknown as AnyHandler };
}

/** A contract, what it uses and its handler in one: for operations that exist only in a test. */
export function defineOperation<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends RepoName = never,
  W extends boolean = false,
>(spec: ContractSpec<P, Q, B> & Uses<R, W> & { readonly handler: Handler<NoInfer<InputOf<P, Q, B>>, NoInfer<R>, NoInfer<W>> }): Operation {
  const { handler, repos, tx, ...contract } = spec;
  return { ...defineContract(contract), uses: { repos, ...(tx === undefined ? {} : { tx }) }, handler: handler as unknown as AnyHandler };
}
