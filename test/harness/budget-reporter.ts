import { relative, sep } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

// Soft budgets per tier, in seconds: exceeding one is reported, never failed.
const BUDGETS: Record<string, number> = { unit: 30, gateway: 180, truth: 60, hostile: 90, memory: 60, integration: 240, slow: 900 };

/** A file's tier: its project, or for the "server" project the directory under test/ that holds it. */
function tierOf(m: TestModule): string {
  const project = m.project.name || "default";
  if (project !== "server") return project;
  const [top, tier] = relative(m.project.config.root, m.moduleId).split(sep);
  return top === "test" && tier ? tier : project;
}

/** Prints each tier's time (summed over its files) beside its budget at the end of `npm test`. */
export default class BudgetReporter implements Reporter {
  private started = Date.now();

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const tiers = new Map<string, { ms: number; files: number }>();
    for (const m of modules) {
      const name = tierOf(m);
      const tier = tiers.get(name) ?? { ms: 0, files: 0 };
      tier.ms += m.diagnostic().duration;
      tier.files += 1;
      tiers.set(name, tier);
    }
    const lines = ["", "Test tiers (time summed over files; budgets are soft):"];
    for (const [name, tier] of tiers) {
      const seconds = tier.ms / 1000;
      const budget = BUDGETS[name];
      const mark = budget !== undefined && seconds > budget ? "  OVER BUDGET" : "";
      lines.push(`  ${name.padEnd(12)} ${String(tier.files).padStart(3)} files ${seconds.toFixed(1).padStart(7)} s  (budget ${budget ?? "-"} s)${mark}`);
    }
    lines.push(`  wall clock: ${((Date.now() - this.started) / 1000).toFixed(1)} s`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
