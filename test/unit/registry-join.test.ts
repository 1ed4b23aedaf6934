import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { buildOperations, CONTRACTS, defineContract, implement, joinOperations, RegistryMismatchError, type OperationContract } from "../../gateway/index.ts";

const answer = async () => ({ body: {} });
const handlersOf = (contracts: readonly OperationContract[]) => contracts.map((c) => implement(c, { repos: [] }, answer));
const extra = defineContract({ id: "test_extra", method: "GET", path: "/test/extra", scope: "read", cli: "test extra", summary: "Not listed", tags: ["Test"], response: Type.Object({}) });

function problemsOf(join: () => unknown): readonly string[] {
  try {
    join();
  } catch (err) {
    if (err instanceof RegistryMismatchError) return err.problems;
    throw err;
  }
  return [];
}

describe("the registry joins each contract with its one handler", () => {
  it("serves every contract, in the contracts' order, each with a handler", () => {
    const operations = buildOperations();
    expect(operations.map((o) => o.id)).toEqual(CONTRACTS.map((c) => c.id));
    for (const op of operations) expect(typeof op.handler, op.id).toBe("function");
  });

  it("refuses a contract without a handler", () => {
    const [first, ...rest] = CONTRACTS;
    expect(problemsOf(() => joinOperations(CONTRACTS, handlersOf(rest)))).toEqual([`${first!.id} has no handler`]);
  });

  it("refuses a handler whose contract is not listed", () => {
    expect(problemsOf(() => joinOperations(CONTRACTS, [...handlersOf(CONTRACTS), implement(extra, { repos: [] }, answer)]))).toEqual(["handler of test_extra has no listed contract"]);
  });

  it("refuses two handlers of one contract, and reports every problem at once", () => {
    const [first, second, ...rest] = CONTRACTS;
    const problems = problemsOf(() => joinOperations(CONTRACTS, [...handlersOf([first!, first!]), ...handlersOf(rest)]));
    expect(problems).toEqual([`${first!.id} has two handlers`, `${second!.id} has no handler`]);
  });
});
