import { CONFIG_FIELDS, type Config, type PlanNumbers } from "../../runtime/index.ts";
import type { PlanRow } from "../../storage/index.ts";

/**
 * The SVC_PLAN_* variables set in this environment that disagree with the stored plan. They are
 * seeds: read once, when the default plan is first written; afterwards the plan is data. A
 * process started with a different value leaves the plan as it is, and says so here, with the
 * command that would change it (an operator otherwise waits for a change that never comes).
 */
export function planSeedDrift(plan: PlanRow, config: Config, setNames: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of CONFIG_FIELDS) {
    if (!f.seed || !setNames.includes(f.env)) continue;
    const key = f.key.slice("plan.".length) as keyof PlanNumbers;
    const column = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as keyof PlanRow;
    const wanted = config.plan[key];
    const stored = plan[column];
    if (wanted === stored) continue;
    out.push(`${f.env}=${wanted} is ignored: it only seeds the plan "${plan.name}", which has ${column} ${String(stored)}; to change it for every account on it: svc admin plan set ${plan.name} --${column.replaceAll("_", "-")} ${wanted}`);
  }
  return out;
}
