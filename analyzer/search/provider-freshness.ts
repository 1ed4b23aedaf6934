import type { Provider } from "./facts.ts";

// Provider freshness (search-data-anchors §6.10): a provider's data is fresh while its newest day
// is at most slo_days old, stale up to 3 × slo_days, expired beyond; partial when the last import
// was truncated; missing when nothing was ever imported.

export const DATA_STATES = ["fresh", "stale", "expired", "partial", "missing", "error"] as const;
export type DataState = (typeof DATA_STATES)[number];

/** Days within which each provider's data counts as fresh: its usual lag plus a day. */
export const SLO_DAYS: Readonly<Record<Provider, number>> = { gsc: 4, gsc_indexing: 14, yandex_webmaster: 3, topvisor: 2, keysso: 35, ahrefs: 35, semrush: 35 };

/** The share of the last 30 days a provider should be fresh on. */
export const SLO_TARGET = 0.95;

const DAY = 86_400;

/** The state of a provider whose newest data day is dataUntil (Unix seconds, start of day), at now. */
export function dataState(provider: Provider, dataUntil: number | null, truncated: boolean, now: number): DataState {
  if (dataUntil === null) return "missing";
  const ageDays = Math.floor((now - dataUntil) / DAY);
  const slo = SLO_DAYS[provider];
  if (ageDays > 3 * slo) return "expired";
  if (ageDays > slo) return "stale";
  return truncated ? "partial" : "fresh";
}

/**
 * How many of the 30 days before now the provider was fresh, given the newest data day each import
 * brought and when it was imported: on day d, the data known then is the latest of imports made by d.
 */
export function freshDays30(imports: readonly { importedAt: number; dataUntil: number }[], provider: Provider, now: number): number {
  const slo = SLO_DAYS[provider];
  let fresh = 0;
  for (let k = 0; k < 30; k++) {
    const day = now - k * DAY;
    let until = -Infinity;
    for (const i of imports) if (i.importedAt <= day && i.dataUntil > until) until = i.dataUntil;
    if (until > -Infinity && Math.floor((day - until) / DAY) <= slo) fresh++;
  }
  return fresh;
}
