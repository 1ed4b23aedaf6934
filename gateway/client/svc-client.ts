import type { Static, TSchema } from "@sinclair/typebox";
import { RestClient, type CallOptions, type ClientOptions } from "../../clients/typescript/src/index.ts";
import { CONTRACTS, type Contract } from "../contracts/index.ts";
import type * as contracts from "../contracts/index.ts";

// The typed client inside this repository, for the `svc` CLI and Svc's own tests: the runtime
// (RestClient, its retry rule, Idempotency-Key, errors) is the client package's
// (clients/typescript/), and the method types come from the contracts' TypeBox schemas directly.
// Programs outside the repository install the package, whose types are generated from the same
// contracts (npm run client:gen).

type ContractsModule = typeof contracts;
type Part<T> = T extends Record<string, never> ? unknown : T;
type FieldsOf<C> = C extends Contract<infer I, TSchema> ? Part<I["params"]> & Partial<Part<I["query"]>> & Part<I["body"]> : never;
type AnswerOf<C> = C extends Contract<infer _I, infer R> ? Static<R> : unknown;
/** The names of the contracts module's exports that are operation contracts. */
export type OperationName = { [K in keyof ContractsModule]: ContractsModule[K] extends Contract ? K : never }[keyof ContractsModule];

/** One typed method per operation, e.g. client.listSites({ limit: 10 }). */
export type SvcClient = {
  readonly [K in OperationName]: (fields: FieldsOf<ContractsModule[K]>, options?: CallOptions) => Promise<AnswerOf<ContractsModule[K]>>;
} & { readonly rest: RestClient };

/** listSites for list_sites: the client's method names. */
export function methodName(operationId: string): string {
  return operationId.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** A typed client of every registered operation. */
export function createClient(options: ClientOptions): SvcClient {
  const rest = new RestClient(options);
  const client: Record<string, unknown> = { rest };
  for (const op of CONTRACTS) {
    client[methodName(op.id)] = async (fields: Record<string, unknown> = {}, callOptions?: CallOptions) => (await rest.call(op, fields, callOptions)).body;
  }
  return client as SvcClient;
}
