// Search data: parsers of the user's exports and the analytics derived from them. Pure code.
export { decodeText, type TextEncoding } from "./text-decode.ts";
export { csvTable, sniffDelimiter, type Delimiter } from "./csv.ts";
export { cleanText, countAt, figureAt, headerKey, normalizeQuery, parseCount, parseDay, parseFlag, parseLocaleNumber } from "./cells.ts";
export { isZip, readZip, ZipError, type ZipCaps, type ZipEntry } from "./zip-reader.ts";
export {
  coverDay,
  emptyFacts,
  factCount,
  IMPORT_KINDS,
  PROVIDERS,
  type BacklinkFact,
  type DailyFact,
  type Engine,
  type ImportFacts,
  type ImportKind,
  type IndexIssueFact,
  type IndexStatusFact,
  type IndexUrlFact,
  type MarketDomainFact,
  type MarketKeywordFact,
  type PeriodDim,
  type PeriodFact,
  type Provider,
  type RankFact,
  type SerpFact,
} from "./facts.ts";
export { CellError, ImportFormatError, type JsonFormat, type TableFormat, type TableSource } from "./format.ts";
export { JSON_FORMATS, TABLE_FORMATS } from "./formats/index.ts";
export { GSC_UI_ROW_CAP } from "./formats/gsc-performance.ts";
export { DEFAULT_IMPORT_LIMITS, DEFAULT_ZIP_CAPS, expectedFormats, parseImport, PARSER_VERSION, type ImportLimits, type ParsedImport, type ParseOptions } from "./import-file.ts";
export { ctrCurve, MEASURED_MIN_IMPRESSIONS, STUDY_CTR, studyCtr, type CtrCurve } from "./ctr-curve.ts";
export { cannibalization, ctrOpportunities, nearOpportunities, positionOf, type Opportunity, type OpportunityKind, type QueryPageSums, type QuerySums } from "./opportunities.ts";
export { clicksTrend, daysNeeded, forecastClicks, HORIZON, MIN_DAYS, SEASON, type Forecast, type ForecastDay, type ModelName } from "./forecast.ts";
export { levelShift, SHIFT_MIN_DAYS, type LevelShift } from "./level-shift.ts";
export { median, UNUSUAL_Z, unusualDays, weekdayFit, type UnusualDay } from "./unusual-days.ts";
export { DATA_STATES, dataState, freshDays30, providerFreshness, sectionFreshness, SLO_DAYS, SLO_TARGET, type DataState, type DataUsed, type ProviderFreshness, type SectionFreshness } from "./provider-freshness.ts";
export { keywordPositions, movedShareByDay, positionPages, rankSeries, TRACKED_DEPTH, urlFlips, type KeywordPosition, type PositionPage, type RankPoint, type Trend, type UrlFlip } from "./positions.ts";
export { filterCounts, gapKeywords, keywordGap, MARKET_FILTERS, RANKS_DEPTH, type DomainKeyword, type GapKeyword, type MarketFilter } from "./market.ts";
export { serpCompetitors, shareHistory, SHARE_LIST_MAX, type SerpCompetitor, VALID_POINT_COVERAGE, type SerpResult, type ShareHistory, type ShareLine, type ShareMover, type SharePoint } from "./share-of-voice.ts";
export { MAX_RANK_DISTANCE, rankDistance, SERP_VOLATILITY_DEPTH, serpSeriesKey, serpShakes, type QueryShake } from "./serp-volatility.ts";
