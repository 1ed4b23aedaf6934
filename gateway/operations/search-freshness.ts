import { sectionFreshness, type DataUsed, type Engine, type ImportKind, type Provider, type SectionFreshness } from "../../analyzer/index.ts";
import type { ImportBatchRow, Repositories } from "../../storage/index.ts";

// How old the data a search section answers from is (D4): the site's live imports of the kinds
// the section reads, by the providers whose data it shows, judged by the same rule GET /providers
// uses (analyzer/search/provider-freshness.ts).

/** The provider of an engine's search performance data. */
export const ENGINE_PROVIDER: Readonly<Record<Engine, Provider>> = { google: "gsc", yandex: "yandex_webmaster" };

/** What an import batch contributes to a section's freshness. */
export function usedOf(b: ImportBatchRow): DataUsed {
  return { provider: b.provider, until: b.period_end, importedAt: b.imported_at, truncated: b.truncated };
}

/** Which of the site's imports a section reads: by kind, and when given by provider and by format. */
export interface SectionData {
  readonly kinds: readonly ImportKind[];
  readonly providers?: readonly Provider[];
  /** The formats (e.g. topvisor_positions) of which a batch must hold one. */
  readonly formats?: readonly string[];
}

/** Rank checks, not SERP snapshots (both are imports of kind positions). */
export const RANK_CHECKS: SectionData = { kinds: ["positions"], formats: ["topvisor_positions", "keysso_monitoring"] };
export const SERP_SNAPSHOTS: SectionData = { kinds: ["positions"], formats: ["topvisor_snapshots"] };

/** The freshness of the site's imports a section reads. */
export async function freshnessOf(repos: Pick<Repositories, "search">, accountId: number, host: string, now: number, ...reads: readonly SectionData[]): Promise<SectionFreshness> {
  const batches = await repos.search.liveBatches(accountId, host);
  const read = (b: ImportBatchRow, d: SectionData) =>
    d.kinds.includes(b.kind) && (d.providers === undefined || d.providers.includes(b.provider)) && (d.formats === undefined || b.formats.some((f) => d.formats!.includes(f)));
  return sectionFreshness(batches.filter((b) => reads.some((d) => read(b, d))).map(usedOf), now);
}

/** The section's data_state and note: the freshness when data were used, else missing and the section's own note. */
export function stateAndNote(f: SectionFreshness, has: boolean, missingNote: string): { data_state: SectionFreshness["state"]; note: string | null } {
  if (!has) return { data_state: "missing", note: missingNote };
  return { data_state: f.state === "missing" ? "fresh" : f.state, note: f.note };
}
