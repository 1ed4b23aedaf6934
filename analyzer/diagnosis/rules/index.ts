import type { DiagnosisRule } from "../rule.ts";
import { certificate } from "./certificate.ts";
import { externalTrafficDrop } from "./external-traffic-drop.ts";
import { indexDropAfterBlock } from "./index-drop-after-block.ts";
import { lostBacklinks } from "./lost-backlinks.ts";
import { newCriticalProblems } from "./new-critical-problems.ts";
import { performanceRegression } from "./performance-regression.ts";
import { positionDrop } from "./position-drop.ts";
import { siteDown } from "./site-down.ts";

/** The root-cause rules: one file each; the diagnosis asks every rule whose evidence is present. */
export const DIAGNOSIS_RULES: readonly DiagnosisRule[] = Object.freeze([
  siteDown,
  indexDropAfterBlock,
  certificate,
  newCriticalProblems,
  performanceRegression,
  positionDrop,
  lostBacklinks,
  externalTrafficDrop,
]);

export { certificate, externalTrafficDrop, indexDropAfterBlock, lostBacklinks, newCriticalProblems, performanceRegression, positionDrop, siteDown };
