import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineContract, implement, type GatewayDeps } from "../../../gateway/index.ts";
import { operationScope } from "../../../gateway/registry/scope.ts";
import { createStore, type Db, type Queryable, type Repositories } from "../../../storage/index.ts";

// The scope is built without touching the database: every statement is refused, so a repository
// method that ran would fail loudly. A unit of work hands its work the transaction's connection.
const refuse = (): never => {
  throw new Error("no statement runs in this test");
};
const connection: Queryable = { query: async () => refuse(), exec: async () => refuse() };
const db: Db = { ...connection, kind: "pglite", tx: (work) => work(connection), listen: async () => refuse(), close: async () => undefined };
const store = createStore(db);
// Only the parts these cases read: the store, and one other part to see that it is passed on.
const deps = { store, serviceVersion: "0.0.0-test" } as unknown as GatewayDeps;

const contract = defineContract({ id: "test_scope", method: "GET", path: "/test/scope", scope: "read", cli: "test scope", summary: "Reads a site's tasks", tags: ["Test"], response: Type.Object({}) });

/** Runs an implementation's handler as the router does: with the scope built at registration. */
function run(impl: ReturnType<typeof implement>) {
  const scope = operationScope(deps, impl.uses);
  return impl.handler({ params: undefined, query: undefined, body: undefined, ...scope, auth: null, now: 0, request: {} as never });
}

describe("an operation's handler receives the repositories its implementation declares", () => {
  it("holds exactly the declared repositories, the store's own, and no store among its parts", () => {
    const { deps: parts, repos, tx } = operationScope(deps, { repos: ["sites", "tasks"] });
    expect(Object.keys(repos)).toEqual(["sites", "tasks"]);
    expect(repos.sites).toBe(store.sites);
    expect(repos.tasks).toBe(store.tasks);
    expect(tx).toBeUndefined();
    expect(parts).toEqual({ serviceVersion: "0.0.0-test" });
  });

  it("fails a handler that reads a repository it did not declare", async () => {
    const impl = implement(contract, { repos: ["sites"] }, async ({ repos }) => {
      // @ts-expect-error runs was not declared: the types refuse it, and so does the projection.
      await repos.runs.latest("example.com");
      return { body: {} };
    });
    await expect(run(impl)).rejects.toThrow(new TypeError("Cannot read properties of undefined (reading 'latest')"));
  });

  it("gives a unit of work over the declared repositories only, bound to its transaction", async () => {
    let seen: readonly string[] = [];
    let bound = false;
    const impl = implement(contract, { repos: ["jobs"], tx: true }, async ({ tx }) => {
      await tx(async (t) => {
        seen = Object.keys(t);
        bound = t.jobs !== store.jobs;
      });
      return { body: {} };
    });
    await run(impl);
    expect(seen).toEqual(["jobs"]);
    expect(bound).toBe(true);
  });

  it("refuses to register a name the store does not have", () => {
    expect(() => operationScope(deps, { repos: ["nowhere" as keyof Repositories] })).toThrow("the store has no repository nowhere");
  });
});
