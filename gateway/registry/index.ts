import { CONTRACTS } from "../contracts/index.ts";
import { accountHandlers } from "../operations/account.ts";
import { serviceHandlers } from "../operations/service.ts";
import { sitesHandlers } from "../operations/sites.ts";
import { jobsHandlers } from "../operations/jobs.ts";
import { reportsHandlers } from "../operations/reports.ts";
import { tasksHandlers } from "../operations/tasks.ts";
import { followupHandlers } from "../operations/followup.ts";
import { siteHandlers } from "../operations/site-summary.ts";
import { profilesHandlers } from "../operations/profiles.ts";
import { checksHandlers } from "../operations/checks.ts";
import { explanationsHandlers } from "../operations/explanations.ts";
import { crawlHandlers } from "../operations/crawl.ts";
import { monitoringHandlers } from "../operations/monitoring.ts";
import { webhooksHandlers } from "../operations/webhooks.ts";
import { browserHandlers } from "../operations/browser.ts";
import { searchImportsHandlers } from "../operations/search-imports.ts";
import { searchHandlers } from "../operations/search.ts";
import { searchPositionsHandlers } from "../operations/search-positions.ts";
import { searchMarketHandlers } from "../operations/search-market.ts";
import { utilitiesHandlers } from "../operations/utilities.ts";
import { diagnosisHandlers } from "../operations/diagnosis.ts";
import { todayHandlers } from "../operations/today.ts";
import { joinOperations } from "./join.ts";
import type { Operation } from "./operation.ts";

/** Every operation Svc serves: the contracts joined with their handlers (throws on a mismatch). */
export function buildOperations(): Operation[] {
  const operations: Operation[] = [];
  operations.push(
    ...joinOperations(CONTRACTS, [
      ...serviceHandlers(() => operations),
      ...accountHandlers,
      ...sitesHandlers,
      ...jobsHandlers,
      ...reportsHandlers,
      ...tasksHandlers,
      ...followupHandlers,
      ...siteHandlers,
      ...profilesHandlers,
      ...checksHandlers,
      ...explanationsHandlers,
      ...crawlHandlers,
      ...monitoringHandlers,
      ...webhooksHandlers,
      ...browserHandlers,
      ...searchImportsHandlers,
      ...searchHandlers,
      ...searchPositionsHandlers,
      ...searchMarketHandlers,
      ...utilitiesHandlers,
      ...diagnosisHandlers,
      ...todayHandlers,
    ]),
  );
  return operations;
}
