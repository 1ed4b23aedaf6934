// analyzer/: pure site analysis — checks, rank, tasks and run diffs. No I/O, no clock, no randomness.
export { CAP_CHECKS, capJudge, capTriggers, confirmationInputs, secondLook, type CapInput, type CapJudgement, type CapTrigger } from "./cap-triggers.ts";
export { analyzeSite, afterAll, projectionBlindness, type Analysis, type AnalyzeOptions, type ReportItem, type TaskDraft } from "./analyze.ts";
export { diffRuns, type Change, type RunDiff, type RunSummary } from "./diff.ts";
export { bandOf, BANDS, type Band } from "./bands.ts";
export { computeRank, GROUP_WEIGHTS, RANK_GROUPS, type GroupScore, type RankEntry, type RankOptions, type RankResult } from "./rank.ts";
export { DESKTOP_CONTROL_POINTS, erf, logNormalScore, metricScore, MOBILE_CONTROL_POINTS, type LogNormalPoints } from "./lognormal.ts";
export {
  CHECKS,
  PAGE_ONLY_CHECKS,
  type CheckDef,
  type CheckOutcome,
  type CheckStatus,
  type DisplayGroup,
  type Level,
  type RankGroup,
} from "./checks/index.ts";
export { homeNoAnswer } from "./checks/home-status.ts";
export {
  applyProfile,
  EXCLUSION_FAMILIES,
  FAMILY_CHECKS,
  groupShares,
  isExclusionFamily,
  memberChecks,
  PROFILE_LIMITS,
  profiledIssues,
  SITE_TYPES,
  TYPE_DEFAULTS,
  TYPE_TITLES,
  validateExclusions,
  type AppliedProfile,
  type ExcludedFamily,
  type ExclusionFamily,
  type GroupShare,
  type NominalCheck,
  type ProfiledIssues,
  type ProfiledTask,
  type ProfileViolation,
  type SiteType,
  type StoredRankItem,
  type StoredTaskRef,
} from "./profiles.ts";
export { EXPLANATIONS, type Explanation, type ExplanationText, type GuideRef, type HintText, type PlainText } from "./explanations/index.ts";
export { checksCount, escapeHtml, GUIDE_OF, GUIDES, GUIDES_PATH, renderGuideIndex, renderGuidePage, type Guide, type GuideSection, type Snippet } from "./guides/index.ts";
export { analyzeCrawl, analyzeCrawlFacts, analyzeCrawlTable, type BrokenLink, type CrawlAnalysis, type CrawlFactsInput, type CrawlInput, type CrawlReport, type CrawlTableInput } from "./crawl-analysis.ts";
export { FactsTableBuilder, tableOfFacts, type FactsRow, type FactsTable, type PageStrings } from "./crawl-table.ts";
export { CrawlFactsBuilder, crawlFactsOf, type CrawlFacts, type FactsSink, type PageFacts } from "./crawl-facts.ts";
export { pageIssues, pageIsNoindex, type PageContext } from "./page-issues.ts";
export { isTracking, looseKey, strictKey, TRACKING_PARAMETERS } from "./url-keys.ts";
export { crawlDelaySeconds, isAllowed, matchingGroups, patternMatches, productToken, robotsVerdict, type RobotsVerdict } from "./robots-match.ts";
export { parseRobots, readRobots, ROBOTS_MAX_BYTES, type RobotsLines, type RobotsReading } from "./robots-parse.ts";
export { nextUptimeState, uptimePercent, DEFAULT_UPTIME_RULES, type UptimeDecision, type UptimeRules, type UptimeState, type UptimeTarget, type UptimeTransition, type ProbeFacts } from "./uptime-state.ts";
export {
  CERTIFICATE_STAGES_DAYS,
  CERTIFICATE_REFUSED_CAUSES,
  siteIncidentChanges,
  siteIncidentVerdicts,
  SITE_INCIDENT_KINDS,
  type OpenSiteIncident,
  type SiteIncidentChanges,
  type SiteIncidentFinding,
  type SiteIncidentKind,
  type SiteIncidentVerdicts,
} from "./site-incidents.ts";
export { chooseWatchedPages, CRITICAL_WATCH_FIELDS, watchChanges, watchSnapshot, worstWatchLevel, type WatchChange, type WatchField, type WatchSnapshot } from "./watchdog.ts";
export {
  hostMatches as webhookHostMatches,
  notificationOf,
  testNotification,
  webhookTypeOf,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type LoggedEvent,
  type Notification,
  type NotifiedEvent,
  type WebhookEventType,
} from "./webhook-events.ts";
export * as EVENTS from "./events/catalogue.ts";
export { newEvent, eventCatalogueTable, EVENT_CATALOGUE, EVENT_KINDS, type EventDescriptor, type EventLevel, type NewEvent } from "./events/catalogue.ts";
export {
  browserSection,
  carryBrowserRun,
  CARRY_MAX_AGE_S,
  comparePage,
  jsDependency,
  METRIC_REGRESSION,
  networkOf,
  performanceRegressions,
  performanceScore,
  describeThrottling,
  runThrottling,
  throttlingOf,
  UNTHROTTLED,
  socialCard,
  socialReport,
  type BrowserPageReport,
  type RunThrottling,
  type BrowserSection,
  type JsDependencyReport,
  type JsVerdict,
  type MetricRegression,
  type PerformanceRegression,
  type SocialReport,
} from "./browser/index.ts";
export * from "./search/index.ts";
export {
  EFFECT_METRICS,
  measureEffect,
  measureEffects,
  metricsFor,
  noiseBand,
  VERDICTS_LEGEND,
  type EffectInput,
  type EffectMetric,
  type EffectSource,
  type EffectVerdict,
  type FixEffect,
  type SeriesPoint,
} from "./followup/index.ts";
export { judgeNarrow, narrowArm, projectRank, RECHECK_MAX_PAGES, RECHECK_SCOPES, recheckModeOf, recheckScopeOf, recheckTarget, type CrawlContext, type NarrowContext, type NarrowJudgement, type NarrowKind, type NarrowLook, type NarrowResult, type NarrowTask, type RecheckScope } from "./followup/index.ts";
export {
  asOf,
  dayOf as utcDayOf,
  diagnose,
  DIAGNOSIS_RULES,
  EVIDENCE_SOURCES,
  healthAt,
  historyDays,
  historyPoints,
  LEVEL_ORDER,
  byActionValue,
  changesSince,
  type SiteChange,
  stability,
  weekSummary,
  robotsLines,
  type Action,
  type Cause,
  type Diagnosis,
  type DiagnosisLevel,
  type DiagnosisRule,
  type EvidenceSource,
  type HistoryPoint,
  type RobotsVersionEvidence,
  type RunEvidence,
  type SiteEvidence,
  type TaskEvidence,
} from "./diagnosis/index.ts";
// The hreflang code rule, for the hreflang_check utility.
export { isValidHreflang } from "./checks/language-tags.ts";
