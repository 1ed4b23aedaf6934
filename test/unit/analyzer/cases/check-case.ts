import { CHECKS, type CheckOutcome } from "../../../../analyzer/index.ts";
import type { SiteFacts } from "../../../../proto/index.ts";

/** One check's passing and failing fixture, with the exact outcome each must give. */
export interface CheckCase {
  /** Changes to the healthy site that still pass (default: the healthy site itself). */
  pass?: (facts: SiteFacts) => void;
  passValue: string | number | null;
  /** The smallest change to the healthy site that makes the check fail. */
  fail: (facts: SiteFacts) => void;
  failStatus: "warn" | "fail";
  failValue: string | number | null;
  /** Exact score of the failing fixture. */
  failScore: number;
  /** Cap the failure must raise (absent: none). */
  cap?: number;
}

/** Page importance of the fixture: home 3, two inner pages 1 each (Σ 5). */
export const HOME_FAILS = 0.9 * (1 - 3 / 5);
export const ONE_PAGE_FAILS = 0.9 * (1 - 1 / 5);

/** Run one check by code. */
export function runCheck(code: string, facts: SiteFacts): CheckOutcome {
  const def = CHECKS.find((c) => c.code === code);
  if (!def) throw new Error(`no check ${code}`);
  return def.run(facts);
}
