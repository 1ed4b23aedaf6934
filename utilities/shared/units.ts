// Durations ("2h 5m", "43m") and sizes ("2.4 MB", "512 KiB") as people write them.
import { parseNumber } from "../validate.ts";

const DURATION_UNITS: Record<string, number> = { ms: 0.001, s: 1, sec: 1, m: 60, min: 60, h: 3600, hr: 3600, d: 86400, w: 604800, мс: 0.001, с: 1, сек: 1, м: 60, мин: 60, ч: 3600, д: 86400, н: 604800 };

/** Seconds of "2h 5m", "43m", "1d 2h", "90" (seconds), or null. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === "") return null;
  const plain = parseNumber(t);
  if (plain !== null) return plain;
  let total = 0;
  let rest = t;
  const re = /^\s*([0-9]+(?:[.,][0-9]+)?)\s*([a-zа-я]+)/u;
  while (rest.trim() !== "") {
    const m = re.exec(rest);
    if (!m) return null;
    const k = DURATION_UNITS[m[2] as string];
    if (k === undefined) return null;
    total += Number((m[1] as string).replace(",", ".")) * k;
    rest = rest.slice(m[0].length);
  }
  return total;
}

/** "1d 2h 3m 4.5s" */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  const parts: string[] = [];
  let s = seconds;
  for (const [unit, k] of [["d", 86400], ["h", 3600], ["m", 60]] as const) {
    const n = Math.floor(s / k);
    if (n > 0) parts.push(`${n}${unit}`);
    s -= n * k;
  }
  const sec = Math.round(s * 10) / 10;
  if (sec > 0 || parts.length === 0) parts.push(`${sec}s`);
  return parts.join(" ");
}

const SIZE_UNITS: Record<string, number> = {
  b: 1, byte: 1, bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4,
  б: 1, кб: 1e3, мб: 1e6, гб: 1e9,
};
const RATE_UNITS: Record<string, number> = {
  "bit/s": 1, bps: 1, "kbit/s": 1e3, kbps: 1e3, "mbit/s": 1e6, mbps: 1e6, "gbit/s": 1e9, gbps: 1e9,
  "b/s": 8, "kb/s": 8e3, "mb/s": 8e6, "gb/s": 8e9, "кбит/с": 1e3, "мбит/с": 1e6, "гбит/с": 1e9,
};

function split(text: string): [number, string] | null {
  const m = /^\s*([0-9][0-9\s]*(?:[.,][0-9]+)?)\s*([^\s0-9].*)?$/u.exec(text);
  if (!m) return null;
  const n = parseNumber(m[1] as string);
  return n === null ? null : [n, (m[2] ?? "").trim()];
}

/** Bytes of "2.4 MB", "512 KiB", "300" (bytes), or null. Case matters only for b (bit) in rates. */
export function parseSize(text: string): number | null {
  const s = split(text);
  if (!s) return null;
  const unit = s[1] === "" ? "b" : s[1].toLowerCase();
  const k = SIZE_UNITS[unit];
  return k === undefined ? null : s[0] * k;
}

/** Bits per second of "10 Mbit/s", "2 MB/s" (bytes), or null. */
export function parseRate(text: string): number | null {
  const s = split(text);
  if (!s) return null;
  // "MB/s" is bytes and "Mb/s" is bits by convention: only the b's case tells them apart.
  const unit = s[1];
  const bits = /^[kKmMgG]?b\/s$/.test(unit) && unit.endsWith("b/s") ? { "b/s": 1, "kb/s": 1e3, "mb/s": 1e6, "gb/s": 1e9 }[unit.toLowerCase()] : undefined;
  if (bits !== undefined) return s[0] * bits;
  const k = RATE_UNITS[unit.toLowerCase()];
  return k === undefined ? null : s[0] * k;
}
