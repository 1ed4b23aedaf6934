// Diagnosis of a site's health: zones, root causes (one rule per file in rules/), level,
// dynamics, completeness, recommended actions and the daily history. Pure code; the gateway's
// loader builds the evidence.
export { asOf, dayOf, DAY_S, EVIDENCE_SOURCES, presentSources, type BacklinkEvidence, type DayValue, type EvidenceSource, type IncidentEvidence, type PositionEvidence, type RobotsVersionEvidence, type RunEvidence, type SiteEvidence, type TaskEvidence } from "./evidence.ts";
export { confidence, SEVERITIES, type Cause, type CauseEvidence, type DiagnosisRule, type RuleContext, type Severity } from "./rule.ts";
export { DIAGNOSIS_RULES } from "./rules/index.ts";
export { diagnose, findCauses, healthAt, levelOf, LEVEL_ORDER, type Diagnosis, type DiagnosisLevel, type Dynamics, type Trend } from "./diagnose.ts";
export { byActionValue, byValue, EFFORT_MINUTES, recommendedActions, type Action } from "./actions.ts";
export { completeness, HEALTH_WEIGHTS, healthScore, healthZones, zoneState, type Completeness, type Zone, type ZoneState } from "./zones.ts";
export { historyDays, historyPoints, stability, STABLE_POINTS, weekSummary, type DiagnosisWeek, type HistoryPoint } from "./history.ts";
export { changesSince, type SiteChange } from "./changes.ts";
export { blockingRule, robotsDiff, robotsLines, ROBOTS_LINES_MAX, SEARCH_AGENTS } from "./robots-lines.ts";
