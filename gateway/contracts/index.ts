// The operation contracts: a module that loads alone (TypeBox, the error catalogue, the shared
// schemas and pure analyzer data; never Fastify, storage or an engine client). The server joins
// them with their handlers in registry/; the CLI, the MCP tool list and a typed client need only
// this. test/unit/contracts-isolation.test.ts loads it in a fresh process to hold that.
import type { OperationContract } from "./contract.ts";
import { getCapabilities, getOpenapiSpec } from "./service.ts";
import { createKey, getAccount, getKeyUsage, listKeys, revokeKey } from "./account.ts";
import { addSite, getOverview, listSites, removeSite, updateSite } from "./sites.ts";
import { analyzeSiteSync, getJob, listJobs, startAnalysis } from "./jobs.ts";
import { getChanges, getHistory, getReport, getTopIssues } from "./reports.ts";
import { getPlan, listSiteTasks, setTaskStatus } from "./tasks.ts";
import { addWorkNote, getFixEffects, getWorkHistory, recheckTask } from "./followup.ts";
import { getSite } from "./site-summary.ts";
import { getSiteProfile, resetSiteProfile, setSiteProfile } from "./profiles.ts";
import { checkDns, checkPage, checkPageFull, checkSsl } from "./checks.ts";
import { explainCheck, listExplanations } from "./explanations.ts";
import { getCrawl, getExternalLinks, getLinks, startCrawl } from "./crawl.ts";
import { getUptime, listEvents, listIncidents } from "./monitoring.ts";
import { getJsDependency, getPerformance, getSocial } from "./browser.ts";
import { importSearchData, listImports, removeImport } from "./search-imports.ts";
import { getPositionPages, getSerpVolatility, listPositions } from "./search-positions.ts";
import { getCompetitorHistory, getCompetitors, getKeywordGap, getMarket } from "./search-market.ts";
import { getIndexing, getTrafficForecast, listBacklinks, listProviders, listSearchOpportunities, listSearchQueries } from "./search.ts";
import { getUtility, listUtilities, runUtility } from "./utilities.ts";
import { getDiagnosis, getDiagnosisAll, getDiagnosisHistory } from "./diagnosis.ts";
import { getToday } from "./today.ts";
import { addWebhook, listWebhookDeliveries, listWebhooks, removeWebhook, resendWebhookDelivery, rotateWebhookSecret, testWebhook } from "./webhooks.ts";

export {
  defineContract,
  DEFAULT_BODY_LIMIT_BYTES,
  type Contract,
  type ContractSpec,
  type CliParse,
  type IdempotencyPolicy,
  type InputOf,
  type Method,
  type OperationContract,
  type OperationInput,
  type Scope,
} from "./contract.ts";
export * from "./service.ts";
export * from "./account.ts";
export * from "./sites.ts";
export * from "./jobs.ts";
export * from "./reports.ts";
export * from "./tasks.ts";
export * from "./followup.ts";
export * from "./site-summary.ts";
export * from "./profiles.ts";
export * from "./checks.ts";
export * from "./explanations.ts";
export * from "./crawl.ts";
export * from "./monitoring.ts";
export * from "./browser.ts";
export * from "./search-imports.ts";
export * from "./search-positions.ts";
export * from "./search-market.ts";
export * from "./search.ts";
export * from "./utilities.ts";
export * from "./diagnosis.ts";
export * from "./today.ts";
export * from "./webhooks.ts";

/**
 * Every operation Svc serves, in the order OpenAPI and /capabilities list them. An operation is
 * listed here only when it works; the spec's others are in test/pending-operations.json with the
 * issue that delivers them.
 */
export const CONTRACTS: readonly OperationContract[] = [
  getCapabilities,
  getOpenapiSpec,
  getAccount,
  getKeyUsage,
  createKey,
  listKeys,
  revokeKey,
  listSites,
  addSite,
  removeSite,
  updateSite,
  getOverview,
  startAnalysis,
  startCrawl,
  analyzeSiteSync,
  listJobs,
  getJob,
  getReport,
  getHistory,
  getChanges,
  getCrawl,
  getLinks,
  getExternalLinks,
  getTopIssues,
  listSiteTasks,
  setTaskStatus,
  getPlan,
  recheckTask,
  getFixEffects,
  getWorkHistory,
  addWorkNote,
  getSite,
  checkPageFull,
  checkPage,
  checkSsl,
  checkDns,
  getSiteProfile,
  setSiteProfile,
  resetSiteProfile,
  listExplanations,
  explainCheck,
  getUptime,
  listIncidents,
  listEvents,
  listWebhooks,
  addWebhook,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
  listWebhookDeliveries,
  resendWebhookDelivery,
  getPerformance,
  getJsDependency,
  getSocial,
  importSearchData,
  listImports,
  removeImport,
  listSearchQueries,
  listSearchOpportunities,
  getTrafficForecast,
  listBacklinks,
  getIndexing,
  listProviders,
  listPositions,
  getPositionPages,
  getSerpVolatility,
  getCompetitors,
  getCompetitorHistory,
  getKeywordGap,
  getMarket,
  listUtilities,
  getUtility,
  runUtility,
  getDiagnosisAll,
  getDiagnosis,
  getDiagnosisHistory,
  getToday,
];
