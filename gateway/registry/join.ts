import type { OperationContract } from "../contracts/index.ts";
import type { Implementation, Operation } from "./operation.ts";

/** A contract without a handler, a handler without a listed contract, or a contract implemented twice. */
export class RegistryMismatchError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the operation registry does not join: ${problems.join("; ")}`);
    this.name = "RegistryMismatchError";
  }
}

/**
 * Joins each contract with its one handler, in the contracts' order. Every mismatch is reported at
 * once, so a server never starts with a contract it cannot answer or a handler nobody can reach.
 */
export function joinOperations(contracts: readonly OperationContract[], implementations: readonly Implementation[]): Operation[] {
  const problems: string[] = [];
  const byContract = new Map<OperationContract, Implementation>();
  const listed = new Set(contracts);
  for (const impl of implementations) {
    if (!listed.has(impl.contract)) problems.push(`handler of ${impl.contract.id} has no listed contract`);
    else if (byContract.has(impl.contract)) problems.push(`${impl.contract.id} has two handlers`);
    else byContract.set(impl.contract, impl);
  }
  const ids = new Set<string>();
  for (const contract of contracts) {
    if (ids.has(contract.id)) problems.push(`${contract.id} is listed twice`);
    ids.add(contract.id);
    if (!byContract.has(contract)) problems.push(`${contract.id} has no handler`);
  }
  if (problems.length > 0) throw new RegistryMismatchError(problems);
  return contracts.map((contract) => {
    const { uses, handler } = byContract.get(contract) as Implementation;
    return { ...contract, uses, handler };
  });
}
