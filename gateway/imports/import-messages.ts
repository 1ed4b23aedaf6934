import type { ImportFacts, ImportKind, ImportLimits, Provider } from "../../analyzer/index.ts";

// What the serving thread and an import's parse thread say to each other.

/** The fact lists of ImportFacts, sent in slices. */
export const FACT_LISTS = ["period", "daily", "indexStatus", "indexIssues", "indexUrls", "backlinks", "ranks", "marketDomains", "marketKeywords", "serp"] as const satisfies readonly (keyof ImportFacts)[];
export type FactList = (typeof FACT_LISTS)[number];

/**
 * Facts per message: the serving thread decodes one message in one turn of its event loop, so a
 * slice is small enough (a few ms) that a request waiting meanwhile is not held.
 */
export const FACTS_PER_MESSAGE = 2_000;

/** The file to parse; its bytes are moved to the thread, not copied. */
export interface ParseRequest {
  readonly bytes: ArrayBuffer;
  readonly byteOffset: number;
  readonly byteLength: number;
  readonly fileName: string;
  readonly limits: ImportLimits;
  readonly provider?: Provider;
  readonly kind?: ImportKind;
}

/**
 * A long base64 string of a request body to decode: the body's memory is moved to the thread,
 * decoded there in place, and moved back as the file's bytes (DecodeReply).
 */
export interface DecodeRequest {
  readonly decode: { readonly bytes: ArrayBuffer; readonly start: number; readonly end: number };
}

export type DecodeReply = { readonly decoded: { readonly bytes: ArrayBuffer; readonly byteOffset: number; readonly byteLength: number } } | { readonly refused: string } | { readonly fault: string };

export type ParseSummary = Pick<ImportFacts, "warnings" | "filters" | "truncated" | "periodStart" | "periodEnd"> & { readonly provider: Provider; readonly kind: ImportKind; readonly formats: readonly string[] };

export type ParseReply =
  | { readonly list: FactList; readonly rows: unknown[] }
  | { readonly done: ParseSummary }
  | { readonly refused: string }
  | { readonly fault: string };
