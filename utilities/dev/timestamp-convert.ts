import { UtilityError, defineUtility } from "../utility.ts";
import { formatDuration, parseDuration } from "../shared/units.ts";

interface Input {
  value: string;
  tz: string;
  to_tz?: string;
  diff_to?: string;
  add?: string;
}

function checkZone(tz: string, field: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw new UtilityError("bad_param", `input.${field} is not an IANA time zone (e.g. Europe/Moscow, UTC)`, `input.${field}`);
  }
}

/** Wall-clock fields of an instant in a zone. */
function wall(ms: number, tz: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(ms);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return { y: get("year"), mo: get("month"), d: get("day"), h: get("hour"), mi: get("minute"), s: get("second") };
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMin(ms: number, tz: string): number {
  const w = wall(ms, tz);
  return Math.round((Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - Math.floor(ms / 1000) * 1000) / 60000);
}

/** The instant a wall-clock time in a zone names (the earlier one in a DST overlap). */
function zonedToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, tz: string): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const first = guess - offsetMin(guess, tz) * 60000;
  const second = guess - offsetMin(first, tz) * 60000;
  return Math.min(first, second);
}

function offsetText(min: number): string {
  const sign = min < 0 ? "-" : "+";
  const a = Math.abs(min);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
}

function localIso(ms: number, tz: string): string {
  const w = wall(ms, tz);
  const p = (n: number, l = 2) => String(n).padStart(l, "0");
  return `${p(w.y, 4)}-${p(w.mo)}-${p(w.d)}T${p(w.h)}:${p(w.mi)}:${p(w.s)}${offsetText(offsetMin(ms, tz))}`;
}

/** An instant from "now", a Unix number (seconds, ms or µs by size) or date text (in tz unless it names its zone). */
export function parseInstant(text: string, tz: string, nowMs: number, field: string): { ms: number; unit: string } {
  const t = text.trim();
  if (t.toLowerCase() === "now") return { ms: nowMs, unit: "now" };
  if (/^-?\d+(\.\d+)?$/.test(t)) {
    const n = Number(t);
    const a = Math.abs(n);
    if (a >= 1e14) return { ms: Math.round(n / 1000), unit: "microseconds" };
    if (a >= 1e11) return { ms: Math.round(n), unit: "milliseconds" };
    return { ms: Math.round(n * 1000), unit: "seconds" };
  }
  const local = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t) ?? null;
  const ru = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (local) return { ms: zonedToUtc(+local[1]!, +local[2]!, +local[3]!, +(local[4] ?? 0), +(local[5] ?? 0), +(local[6] ?? 0), tz), unit: "date" };
  if (ru) return { ms: zonedToUtc(+ru[3]!, +ru[2]!, +ru[1]!, +(ru[4] ?? 0), +(ru[5] ?? 0), +(ru[6] ?? 0), tz), unit: "date" };
  const parsed = Date.parse(t);
  if (Number.isNaN(parsed)) throw new UtilityError("bad_param", `input.${field} "${t.slice(0, 60)}" is not "now", a Unix time or a date`, `input.${field}`);
  return { ms: parsed, unit: "date" };
}

function relative(ms: number, nowMs: number): string {
  const diff = (ms - nowMs) / 1000;
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [["year", 31_557_600], ["month", 2_629_800], ["week", 604_800], ["day", 86_400], ["hour", 3600], ["minute", 60], ["second", 1]];
  for (const [unit, s] of units) if (Math.abs(diff) >= s || unit === "second") return rtf.format(Math.round(diff / s), unit);
  return "now";
}

/** ISO 8601 week number and week-year of a calendar date. */
function isoWeek(y: number, mo: number, d: number): { week: number; year: number } {
  const date = new Date(Date.UTC(y, mo - 1, d));
  const day = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  return { week: Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7), year: date.getUTCFullYear() };
}

export const timestampConvert = defineUtility<Input>({
  id: "timestamp_convert",
  group: "dev",
  title: "Unix timestamp & date converter",
  description:
    "Unix time ⇄ date, detecting seconds, ms or µs. Gives ISO 8601, RFC 2822/HTTP-date, relative time, any IANA zone, ISO week and day of year. Also computes date differences and adds or subtracts durations",
  net: false,
  file: false,
  fields: [
    { name: "value", type: "str", label: '"now", a Unix time or a date', required: true, max: 100 },
    { name: "tz", type: "str", label: "Time zone of the input and of local fields", default: "UTC", max: 64 },
    { name: "to_tz", type: "str", label: "Also show in this zone", max: 64 },
    { name: "diff_to", type: "str", label: "Difference to this time", max: 100 },
    { name: "add", type: "str", label: 'Add or subtract ("+3d 4h", "-90m")', max: 50 },
  ],
  example: { value: "1717243200", tz: "UTC", to_tz: "Europe/Moscow", diff_to: "2024-06-01 00:00", add: "+1d 2h" },
  run(i, ports) {
    const tz = checkZone(i.tz, "tz");
    const toTz = i.to_tz === undefined ? null : checkZone(i.to_tz, "to_tz");
    const parsed = parseInstant(i.value, tz, ports.nowMs, "value");
    const unit = parsed.unit;
    let ms = parsed.ms;
    if (i.add !== undefined) {
      const m = /^\s*([+-])?\s*(.+)$/.exec(i.add);
      const seconds = m ? parseDuration(m[2] as string) : null;
      if (seconds === null || !m) throw new UtilityError("bad_param", `input.add "${i.add}" is not a duration like +3d 4h`, "input.add");
      ms += (m[1] === "-" ? -1 : 1) * seconds * 1000;
    }
    if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new UtilityError("tool_failed", "the time is outside the range a date can hold");
    const w = wall(ms, tz);
    const week = isoWeek(w.y, w.mo, w.d);
    const dayOfYear = Math.round((Date.UTC(w.y, w.mo - 1, w.d) - Date.UTC(w.y, 0, 1)) / 86_400_000) + 1;
    const zones = [tz, ...(toTz ? [toTz] : [])].map((z) => ({ tz: z, local: localIso(ms, z), offset: offsetText(offsetMin(ms, z)) }));
    let diff: { seconds: number; human: string } | null = null;
    if (i.diff_to !== undefined) {
      const other = parseInstant(i.diff_to, tz, ports.nowMs, "diff_to").ms;
      const seconds = Math.round((other - ms) / 1000);
      diff = { seconds, human: `${seconds < 0 ? "-" : ""}${formatDuration(Math.abs(seconds))}` };
    }
    const result = {
      input_unit: unit,
      unix_s: Math.floor(ms / 1000),
      unix_ms: ms,
      iso: new Date(ms).toISOString(),
      http_date: new Date(ms).toUTCString(),
      relative: relative(ms, ports.nowMs),
      zones,
      iso_week: week,
      day_of_year: dayOfYear,
      diff,
    };
    return {
      result,
      blocks: {
        pairs: [
          { label: "Unix seconds", value: String(result.unix_s) },
          { label: "Unix ms", value: String(result.unix_ms) },
          { label: "ISO 8601 (UTC)", value: result.iso },
          { label: "HTTP date", value: result.http_date },
          { label: "Relative", value: result.relative },
          { label: "ISO week", value: `${week.year}-W${String(week.week).padStart(2, "0")}` },
          ...(diff ? [{ label: "Difference", value: diff.human }] : []),
        ],
        tables: [{ title: "Zones", columns: ["zone", "local time", "offset"], rows: zones.map((z) => [z.tz, z.local, z.offset]) }],
      },
    };
  },
});
