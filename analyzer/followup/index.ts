// analyzer/followup/: what follows a fix — the effect of done tasks on the metrics they should move.
export { DAY_S, GUARD_S, MAD_SCALE, mad, measureEffect, measureEffects, median, noiseBand, VERDICTS_LEGEND, type EffectInput, type EffectVerdict, type FixEffect, type SeriesPoint } from "./effects.ts";
export { EFFECT_METRICS, metricsFor, type EffectMetric, type EffectSource } from "./metrics.ts";
export { judgeNarrow, narrowArm, projectRank, RECHECK_MAX_PAGES, RECHECK_SCOPES, recheckModeOf, recheckScopeOf, recheckTarget, type CrawlContext, type NarrowContext, type NarrowJudgement, type NarrowKind, type NarrowLook, type NarrowResult, type NarrowTask, type RecheckMode, type RecheckScope } from "./narrow/index.ts";
