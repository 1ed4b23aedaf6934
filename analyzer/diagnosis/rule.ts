// The root-cause rules' interface: one file per rule in rules/, listed in one table. A rule names
// the evidence it needs; without it the rule is not asked, and the diagnosis's completeness says so.
import type { EvidenceSource, SiteEvidence } from "./evidence.ts";

/** How bad a cause is for the site, worst first. */
export type Severity = "critical" | "bad" | "warn";

export const SEVERITIES: readonly Severity[] = Object.freeze(["critical", "bad", "warn"]);

/** One fact a cause rests on, in words, with its source. */
export interface CauseEvidence {
  readonly source: EvidenceSource;
  readonly fact: string;
}

/** What a rule found. */
export interface Cause {
  /** The rule's code. */
  readonly code: string;
  readonly title: string;
  /** The chain of events in one sentence, with the figures. */
  readonly text: string;
  readonly severity: Severity;
  /** 0–1, two decimals: how sure the rule is that this is what happened. */
  readonly confidence: number;
  /** Since when (Unix seconds), when known. */
  readonly since: number | null;
  readonly evidence: readonly CauseEvidence[];
  /** Check codes whose tasks fix this cause (they lead the recommended actions). */
  readonly fixedBy: readonly string[];
  /** What to do when no task fixes it. */
  readonly action: string;
}

/** What a rule gets: the evidence at `now`, and for a rule of kind external the internal causes found. */
export interface RuleContext {
  readonly ev: SiteEvidence;
  readonly now: number;
  readonly internal: readonly Cause[];
}

export interface DiagnosisRule {
  readonly code: string;
  readonly title: string;
  /** Every source the rule reads; the rule is asked only when all are present. */
  readonly needs: readonly EvidenceSource[];
  /** internal: a cause on the site's side; external: asked after the internal rules, with their causes. */
  readonly kind: "internal" | "external";
  evaluate(ctx: RuleContext): Cause | null;
}

/** Confidence rounded to two decimals, within 0–1. */
export function confidence(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;
}
