import type { Repositories } from "../../storage/index.ts";
import type { GatewayDeps } from "../deps.ts";
import type { HandlerDeps, RepoName, UnitOfWork, Uses } from "./operation.ts";

/** What the router hands one operation's handler on every request, built once when the operation is registered. */
export interface OperationScope {
  readonly deps: HandlerDeps;
  readonly repos: Partial<Repositories>;
  /** Present only when the implementation declared units of work. */
  readonly tx: UnitOfWork<RepoName> | undefined;
}

/**
 * The handler's view of the gateway: its parts without the store, and an object holding only the
 * repositories the implementation declared, so that reaching for any other fails at once.
 */
export function operationScope(deps: GatewayDeps, uses: Uses): OperationScope {
  const { store, ...rest } = deps;
  return {
    deps: rest,
    repos: project(store, uses.repos),
    tx: uses.tx ? (work) => store.tx((t) => work(project(t, uses.repos) as Repositories)) : undefined,
  };
}

/** The named repositories of `from`, and nothing else; a name the store lacks is refused. */
function project(from: Repositories, names: readonly RepoName[]): Partial<Repositories> {
  const picked: Partial<Record<RepoName, unknown>> = {};
  for (const name of names) {
    if (from[name] === undefined) throw new Error(`the store has no repository ${name}`);
    picked[name] = from[name];
  }
  return Object.freeze(picked) as Partial<Repositories>;
}
