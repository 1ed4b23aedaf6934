import { UtilityError, defineUtility } from "../utility.ts";
import { parseNumber } from "../validate.ts";
import { formatDuration, parseDuration } from "../shared/units.ts";
import { round } from "../shared/numbers.ts";

interface Input {
  sla_pct: number;
  downtime?: string;
  period: Period;
  components?: string[];
}

type Period = "day" | "week" | "month" | "quarter" | "year";
/** Seconds of each period; a month is a twelfth of a Julian year (30.4375 days). */
const PERIOD_S: Record<Period, number> = { day: 86400, week: 604800, month: 2_629_800, quarter: 7_889_400, year: 31_557_600 };

export const slaUptime = defineUtility<Input>({
  id: "sla_uptime",
  group: "calc",
  title: "Uptime / SLA calculator",
  description:
    "Gives the downtime an SLA allows per day, week, month, quarter and year; the uptime % for a measured downtime; and the composite SLA of components in series (all needed) or in parallel (any one suffices)",
  net: false,
  file: false,
  fields: [
    { name: "sla_pct", type: "num", label: "SLA, %", default: 99.9, min: 0, max: 100 },
    { name: "downtime", type: "str", label: 'Measured downtime ("43m", "2h 5m")', max: 50 },
    { name: "period", type: "sel", label: "Period of the measured downtime", options: ["day", "week", "month", "quarter", "year"], default: "month" },
    { name: "components", type: "list", label: '"99.95 serial" or "99.9 parallel" per line', max: 50 },
  ],
  example: { sla_pct: 99.9, downtime: "2h 5m", period: "month", components: ["99.95 serial", "99.99 serial", "99.9 parallel", "99.9 parallel"] },
  run(i) {
    const allowed = (Object.keys(PERIOD_S) as Period[]).map((period) => {
      const seconds = PERIOD_S[period] * (1 - i.sla_pct / 100);
      return { period, seconds: round(seconds, 1), downtime: formatDuration(seconds) };
    });
    let uptime: number | null = null;
    if (i.downtime !== undefined) {
      const s = parseDuration(i.downtime);
      if (s === null) throw new UtilityError("bad_param", `input.downtime "${i.downtime}" is not a duration like 43m or 2h 5m`, "input.downtime");
      if (s > PERIOD_S[i.period]) throw new UtilityError("bad_param", `input.downtime is longer than a ${i.period}`, "input.downtime");
      uptime = round((1 - s / PERIOD_S[i.period]) * 100, 4);
    }
    let composite: number | null = null;
    if (i.components) {
      let serial = 1;
      let parallelDown = 1;
      let anyParallel = false;
      for (const line of i.components) {
        const m = /^\s*([0-9.,]+)\s*%?\s*(serial|parallel)?\s*$/i.exec(line);
        const a = m ? parseNumber(m[1] as string) : null;
        if (!m || a === null || a < 0 || a > 100) throw new UtilityError("bad_param", `input.components has "${line}"; each line is "99.95 serial" or "99.9 parallel"`, "input.components");
        if ((m[2] ?? "serial").toLowerCase() === "parallel") {
          anyParallel = true;
          parallelDown *= 1 - a / 100;
        } else serial *= a / 100;
      }
      // Serial components multiply; the parallel ones form one redundant group that fails only when all do.
      composite = round(serial * (anyParallel ? 1 - parallelDown : 1) * 100, 4);
    }
    return {
      result: { allowed, uptime_pct: uptime, composite_pct: composite },
      blocks: {
        tables: [{ title: `Downtime allowed by ${i.sla_pct} %`, columns: ["period", "downtime", "seconds"], rows: allowed.map((a) => [a.period, a.downtime, a.seconds]) }],
        pairs: [
          ...(uptime === null ? [] : [{ label: `Uptime over the ${i.period}`, value: `${uptime} %`, status: uptime >= i.sla_pct ? ("good" as const) : ("bad" as const) }]),
          ...(composite === null ? [] : [{ label: "Composite SLA", value: `${composite} %` }]),
        ],
      },
    };
  },
});
