import type { TObject, TSchema } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { defineContract, type Contract, type ContractSpec, type InputOf, type OperationContract, type OperationInput } from "../contracts/index.ts";
import type { GatewayDeps } from "../deps.ts";
import type { AuthContext } from "../pipeline/auth.ts";

type AnyInput = OperationInput<unknown, unknown, unknown>;

/** What a handler runs with: its validated input and the request's context. */
export type OperationContext<I extends AnyInput = AnyInput> = I & {
  readonly deps: GatewayDeps;
  /** The caller; null only on operations of scope none. */
  readonly auth: AuthContext | null;
  /** Unix seconds of this request (the injected clock). */
  readonly now: number;
  readonly request: FastifyRequest;
};

export interface OperationResult {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Handler<I extends AnyInput = AnyInput> = (ctx: OperationContext<I>) => Promise<OperationResult>;

/** A handler bound to the contract it implements; the registry joins these with the contract list. */
export interface Implementation {
  readonly contract: OperationContract;
  readonly handler: Handler;
}

/** A contract joined with its handler: what the server routes. */
export interface Operation extends OperationContract {
  readonly handler: Handler;
}

/** Implements a contract; the handler's input is typed by the contract's schemas. */
export function implement<I extends AnyInput>(contract: Contract<I>, handler: Handler<NoInfer<I>>): Implementation {
  return { contract, handler: handler as Handler };
}

/** A contract and its handler in one: for operations that exist only in a test. */
export function defineOperation<P extends TObject | undefined = undefined, Q extends TObject | undefined = undefined, B extends TSchema | undefined = undefined>(
  spec: ContractSpec<P, Q, B> & { readonly handler: Handler<NoInfer<InputOf<P, Q, B>>> },
): Operation {
  const { handler, ...contract } = spec;
  return { ...defineContract(contract), handler: handler as Handler };
}
