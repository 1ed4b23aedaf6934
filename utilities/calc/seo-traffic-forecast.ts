import { UtilityError, defineUtility } from "../utility.ts";
import { parseNumber } from "../validate.ts";
import { parseCsv } from "../shared/csv.ts";
import { round, show } from "../shared/numbers.ts";

interface Input {
  rows: string;
  curve: "default" | "custom";
  custom_ctr?: string[];
  cr_pct?: number;
  aov?: number;
}

/** Organic CTR of positions 1-10, % (Sistrix's 2020 study of 80 million keywords); 11-20: 1 %, beyond: 0. */
export const DEFAULT_CTR = [28.5, 15.7, 11.0, 8.0, 7.2, 5.1, 4.0, 3.2, 2.8, 2.5];
const PAGE_TWO_CTR = 1;
const MAX_ROWS = 5000;

function ctrAt(position: number | null, curve: readonly number[]): number {
  if (position === null || position < 1) return 0;
  const p = Math.round(position);
  if (p <= 10) return curve[p - 1] as number;
  return p <= 20 ? PAGE_TWO_CTR : 0;
}

export const seoTrafficForecast = defineUtility<Input>({
  id: "seo_traffic_forecast",
  group: "calc",
  title: "Organic traffic forecast",
  description:
    "Forecasts organic clicks from keywords you supply: monthly volume × a CTR-by-position curve (the default or your own), at current and at target positions, per keyword and in total, with optional conversions and revenue",
  net: false,
  file: false,
  fields: [
    { name: "rows", type: "text", label: "CSV: keyword,volume,current,target (one per line; a header row is skipped)", required: true },
    { name: "curve", type: "sel", label: "CTR curve", options: ["default", "custom"], default: "default" },
    { name: "custom_ctr", type: "list", label: "CTR % of positions 1-10 (custom curve)", max: 10 },
    { name: "cr_pct", type: "num", label: "Conversion rate, %", min: 0, max: 100 },
    { name: "aov", type: "num", label: "Average order value", min: 0 },
  ],
  example: { rows: "keyword,volume,current,target\nкупить диван,12000,8,3\nдиван угловой,5400,15,5\nдиван кровать недорого,2900,,10", cr_pct: 1.5, aov: 25000 },
  run(i) {
    let curve = DEFAULT_CTR;
    if (i.curve === "custom") {
      const values = (i.custom_ctr ?? []).map((s) => parseNumber(s));
      if (values.length !== 10 || values.some((v) => v === null || v < 0 || v > 100)) throw new UtilityError("bad_param", "input.custom_ctr takes 10 percentages, positions 1 to 10", "input.custom_ctr");
      curve = values as number[];
    }
    const table = parseCsv(i.rows, ",");
    if (table.length > 0 && parseNumber(table[0]?.[1] ?? "") === null) table.shift();
    if (table.length > MAX_ROWS) throw new UtilityError("bad_param", `input.rows has ${table.length} rows; at most ${MAX_ROWS}`, "input.rows");
    const pos = (s: string | undefined) => (s === undefined || s.trim() === "" ? null : parseNumber(s));
    const rows = table.map((r, n) => {
      const volume = parseNumber(r[1] ?? "");
      if (!r[0] || volume === null || volume < 0) throw new UtilityError("tool_failed", `line ${n + 1} of rows is not "keyword,volume,current,target"`);
      const current = pos(r[2]);
      const target = pos(r[3]) ?? current;
      const now = (volume * ctrAt(current, curve)) / 100;
      const later = (volume * ctrAt(target, curve)) / 100;
      return { keyword: r[0].trim(), volume, current, target, now: round(now, 1), target_clicks: round(later, 1), gain: round(later - now, 1) };
    });
    const totals: Record<string, number | null> = {
      volume: rows.reduce((a, r) => a + r.volume, 0),
      now: round(rows.reduce((a, r) => a + r.now, 0), 1),
      target: round(rows.reduce((a, r) => a + r.target_clicks, 0), 1),
      gain: round(rows.reduce((a, r) => a + r.gain, 0), 1),
    };
    if (i.cr_pct !== undefined) {
      totals.conversions_now = round(((totals.now as number) * i.cr_pct) / 100, 1);
      totals.conversions_target = round(((totals.target as number) * i.cr_pct) / 100, 1);
      if (i.aov !== undefined) {
        totals.revenue_now = round((totals.conversions_now) * i.aov);
        totals.revenue_target = round((totals.conversions_target) * i.aov);
      }
    }
    return {
      result: { rows, totals, curve },
      blocks: {
        tables: [{ title: "Clicks per month", columns: ["keyword", "volume", "position now", "target", "clicks now", "clicks at target", "gain"], rows: rows.map((r) => [r.keyword, r.volume, r.current, r.target, r.now, r.target_clicks, r.gain]) }],
        pairs: [
          { label: "Clicks now", value: show(totals.now as number, 1) },
          { label: "Clicks at target", value: show(totals.target as number, 1) },
          { label: "Gain", value: show(totals.gain as number, 1), status: "good" },
          ...(totals.revenue_target === undefined ? [] : [{ label: "Revenue at target", value: show(totals.revenue_target) }]),
        ],
      },
    };
  },
});
