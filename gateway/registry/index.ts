import { createKey, getAccount, getKeyUsage, listKeys, revokeKey } from "../operations/account.ts";
import { serviceOperations } from "../operations/service.ts";
import { addSite, getOverview, listSites, removeSite, updateSite } from "../operations/sites.ts";
import { analyzeSiteSync, getJob, listJobs, startAnalysis } from "../operations/jobs.ts";
import { getChanges, getHistory, getReport, getTopIssues } from "../operations/reports.ts";
import { getPlan, listSiteTasks, setTaskStatus } from "../operations/tasks.ts";
import { getSite } from "../operations/site.ts";
import { getSiteProfile, resetSiteProfile, setSiteProfile } from "../operations/profiles.ts";
import { checkDns, checkPage, checkPageFull, checkSsl } from "../operations/checks.ts";
import { explainCheck, listExplanations } from "../operations/explanations.ts";
import { getCrawl, getExternalLinks, getLinks, startCrawl } from "../operations/crawl.ts";
import type { Operation } from "./operation.ts";

/**
 * Every operation Svc serves, each defined once. An operation is listed here only when it works;
 * the spec's others are in test/pending-operations.json with the issue that delivers them.
 */
export function buildOperations(): Operation[] {
  const operations: Operation[] = [];
  operations.push(
    ...serviceOperations(() => operations),
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
  );
  return operations;
}
