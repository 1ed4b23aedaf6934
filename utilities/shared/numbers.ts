// Rounding and display of the calculators' figures.

/** n rounded to d decimals (half away from zero), -0 as 0. */
export function round(n: number, d = 2): number {
  const f = 10 ** d;
  const r = Math.sign(n) * Math.round(Math.abs(n) * f + Number.EPSILON) / f;
  return r === 0 ? 0 : r;
}

/** "12 345.67" style: thin grouping, at most d decimals. */
export function show(n: number | null, d = 2, unit = ""): string {
  if (n === null || !Number.isFinite(n)) return "—";
  const [int, frac] = String(round(Math.abs(n), d)).split(".");
  const grouped = (int as string).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  return `${n < 0 ? "-" : ""}${grouped}${frac ? `.${frac}` : ""}${unit ? ` ${unit}` : ""}`;
}

/** a / b, or null when b is 0 or either is missing. */
export function ratio(a: number | undefined | null, b: number | undefined | null): number | null {
  if (a === undefined || a === null || b === undefined || b === null || b === 0) return null;
  return a / b;
}

/** Rounds a number that may be null. */
export function r2(n: number | null, d = 2): number | null {
  return n === null ? null : round(n, d);
}
