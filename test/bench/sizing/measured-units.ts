// The sizing model's unit costs from the benchmarks' last outputs (test/bench/bench-output.ts), so
// that the model cannot drift from what was measured; each figure says where it came from, and a
// missing output leaves the stated default of units.json in place, printed as such.
import { benchFigure, type BenchOutput } from "../bench-output.ts";
import type { Units } from "./model.ts";

/** Where one unit cost of the model came from. */
export interface UnitSource {
  /** The unit, as named in units.json (cpu_ms.crawled_page). */
  readonly unit: string;
  readonly value: number;
  /** "bench:crawl-scale crawler_cpu_ms_per_page (full run 2026-12-06, commit 57525fd)", or "units.json (no output of bench:…)". */
  readonly from: string;
  readonly measured: boolean;
}

interface Mapping {
  readonly unit: "cpu_ms.probe" | "cpu_ms.analysed_page" | "cpu_ms.crawled_page" | "cpu_ms.browser_analysis" | "wall_s.analysis" | "wall_s.analysis_confirmed";
  readonly bench: string;
  /** Figures tried in order; the first present is used. */
  readonly figures: readonly string[];
  /** From the figure's unit to the model's. */
  readonly scale?: number;
}

/** Which bench figure stands for which unit of the model. */
export const UNIT_MAPPINGS: readonly Mapping[] = [
  { unit: "cpu_ms.probe", bench: "uptime", figures: ["cpu_ms_per_probe"] },
  { unit: "cpu_ms.analysed_page", bench: "analyze", figures: ["cpu_ms_per_page"] },
  { unit: "cpu_ms.crawled_page", bench: "crawl-scale", figures: ["crawler_cpu_ms_per_page", "cpu_ms_per_page"] },
  // The CPU Chromium adds to an analysis: svc serve's process tree (node and Chromium's processes)
  // with SVC_BROWSER=auto less the same without the browser.
  { unit: "cpu_ms.browser_analysis", bench: "browser", figures: ["browser_cpu_ms_per_analysis"] },
  // How long an analysis holds a job slot: one that finds nothing severe, and one that waits the
  // confirm delay (SVC_CONFIRM_DELAY_MS) to look at a severe failure again.
  { unit: "wall_s.analysis", bench: "uptime", figures: ["job_slot_s_without_confirm_delay"] },
  { unit: "wall_s.analysis_confirmed", bench: "uptime", figures: ["job_slot_s_with_confirm_delay"] },
];

function get(units: Units, unit: Mapping["unit"]): number | undefined {
  const [group, name] = unit.split(".") as [keyof Units, string];
  return (units[group] as unknown as Record<string, number | undefined>)[name];
}

/**
 * The model's units with every figure a bench output provides put in place of units.json's, and
 * where each came from. read(bench) gives a bench's last output (null when there is none).
 */
export function measuredUnits(defaults: Units, read: (bench: string) => BenchOutput | null): { units: Units; sources: UnitSource[] } {
  const cpu: Record<string, number> = { ...defaults.cpu_ms };
  const wall: Record<string, number> = { ...defaults.wall_s };
  const sources: UnitSource[] = [];
  const outputs = new Map<string, BenchOutput | null>();
  for (const m of UNIT_MAPPINGS) {
    if (!outputs.has(m.bench)) outputs.set(m.bench, read(m.bench));
    const out = outputs.get(m.bench) ?? null;
    const hit = m.figures.map((name) => ({ name, value: benchFigure(out, name) })).find((f) => f.value !== null);
    const target = m.unit.startsWith("cpu_ms.") ? cpu : wall;
    const key = m.unit.split(".")[1] as string;
    if (out && hit && hit.value !== null) {
      target[key] = hit.value * (m.scale ?? 1);
      sources.push({ unit: m.unit, value: target[key], measured: true, from: `bench:${m.bench} ${hit.name} (${out.mode} run ${out.at.slice(0, 10)}, commit ${out.commit?.slice(0, 7) ?? "?"})` });
    } else {
      const fallback = get(defaults, m.unit) ?? 0;
      target[key] = fallback;
      const why = out ? `bench:${m.bench}'s output has no ${m.figures.join(" / ")}` : `no output of bench:${m.bench}`;
      sources.push({ unit: m.unit, value: fallback, measured: false, from: `units.json (${why})` });
    }
  }
  return { units: { ...defaults, cpu_ms: cpu as unknown as Units["cpu_ms"], wall_s: wall as unknown as Units["wall_s"] }, sources };
}
