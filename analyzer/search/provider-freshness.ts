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

const dayOf = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

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

/** Data a section read, by the import that brought it: its newest data day (null when undated). */
export interface DataUsed {
  readonly provider: Provider;
  /** The newest day the data covers (YYYY-MM-DD); null for an undated export. */
  readonly until: string | null;
  /** When it was imported (Unix seconds): an undated export counts as of that day. */
  readonly importedAt: number;
  readonly truncated?: boolean;
}

export interface ProviderFreshness {
  readonly provider: Provider;
  readonly state: DataState;
  /** The newest data day of the provider's imports (their import day when undated). */
  readonly until: string | null;
}

/**
 * The freshness of one provider's imports at now: its newest data day (an undated export counts as
 * of the day it was imported) against the provider's slo_days, partial when the newest import was
 * truncated. GET /providers and every search section decide with this one function.
 */
export function providerFreshness(provider: Provider, used: readonly DataUsed[], now: number): ProviderFreshness {
  const mine = used.filter((u) => u.provider === provider);
  if (mine.length === 0) return { provider, state: "missing", until: null };
  const dated = mine.map((u) => u.until).filter((d): d is string => d !== null);
  const until = dated.length > 0 ? dated.reduce((a, b) => (b > a ? b : a)) : dayOf(Math.max(...mine.map((u) => u.importedAt)));
  const newest = mine.reduce((a, b) => (b.importedAt >= a.importedAt ? b : a));
  return { provider, state: dataState(provider, dayStart(until), newest.truncated ?? false, now), until };
}

/** Worse states last: a section is as fresh as the stalest provider it shows. */
const WORSE: readonly DataState[] = ["fresh", "partial", "stale", "expired"];

export interface SectionFreshness {
  readonly state: DataState;
  /** Why the data is not fresh (stale, expired or partial), null when it is (or when nothing was used). */
  readonly note: string | null;
  /** Each provider the section used, with its state. */
  readonly providers: readonly ProviderFreshness[];
}

/** The freshness of what a section read: missing without data, else its stalest provider's state and a note saying why. */
export function sectionFreshness(used: readonly DataUsed[], now: number): SectionFreshness {
  const providers = [...new Set(used.map((u) => u.provider))].sort().map((p) => providerFreshness(p, used, now));
  if (providers.length === 0) return { state: "missing", note: null, providers };
  const state = providers.map((p) => p.state).reduce((a, b) => (WORSE.indexOf(b) > WORSE.indexOf(a) ? b : a));
  const notes = providers.filter((p) => p.state !== "fresh").map((p) => freshnessNote(p, now));
  return { state, note: notes.length > 0 ? notes.join(" ") : null, providers };
}

function freshnessNote(p: ProviderFreshness, now: number): string {
  const slo = SLO_DAYS[p.provider];
  if (p.state === "partial") return `The newest ${p.provider} import was truncated (a UI export's row cap): its figures cover only part of the data.`;
  const age = Math.floor((now - dayStart(p.until as string)) / DAY);
  return `The ${p.provider} data end on ${p.until}, ${age} days ago: ${p.state} (fresh within ${slo} days, expired after ${3 * slo}); import a newer export.`;
}
