// What an analysis stores for the browser's operations (GET /performance, /deep/{host}/js,
// /social): computed once from the facts when the run is settled, read back as stored.
import type { SiteFacts } from "../../proto/index.ts";
import { browserNote, browserPages, type BrowserPageReport } from "./performance.ts";
import { jsDependency, type JsDependencyReport } from "./js-dependency.ts";
import { socialReport, type SocialReport } from "./social.ts";

export interface BrowserSection {
  /** measured, off, absent (no Chromium), sync (GET /analyze), not_html; "" in facts written by older versions. */
  readonly state: string;
  readonly note: string;
  readonly pages: BrowserPageReport[];
  readonly js: JsDependencyReport;
  readonly social: SocialReport;
  /** The home-page run the rank used when this check measured none (carried from an earlier check). */
  readonly carried?: BrowserPageReport;
}

export function browserSection(facts: SiteFacts): BrowserSection {
  const measuredHome = facts.browserPages[0];
  const b = facts.browser;
  const ownRun = measuredHome && !measuredHome.error && b && measuredHome.url === b.url && Number(measuredHome.checkedAt) === Number(b.checkedAt);
  const carried = b && !b.error && !ownRun ? browserPages({ ...facts, browserPages: [b] })[0] : undefined;
  const note = browserNote(facts) + (carried ? ` The rank's metric checks use the home page's run of ${new Date(carried.checked_at * 1000).toISOString().slice(0, 10)}, carried forward (at most 7 days).` : "");
  return { state: facts.browserState || "off", note, pages: browserPages(facts), js: jsDependency(facts), social: socialReport(facts), ...(carried ? { carried } : {}) };
}

export { browserNote, browserPages, describeThrottling, performanceScore, runThrottling, throttlingOf, UNTHROTTLED, type BrowserPageReport, type RunThrottling } from "./performance.ts";
export { comparePage, jsDependency, type JsDependencyReport, type JsPageReport, type JsVerdict } from "./js-dependency.ts";
export { socialCard, socialReport, LARGE_ASPECT, MIN_IMAGE, MIN_LARGE_IMAGE, OG_REQUIRED, SQUARE_ASPECT, type SocialCard, type SocialReport } from "./social.ts";
export { networkOf, SOCIAL_NETWORKS } from "./social-networks.ts";
export { METRIC_REGRESSION, performanceRegressions, REGRESSION_POINTS, type MetricRegression, type PerformanceRegression } from "./regressions.ts";
export { carryBrowserRun, CARRY_MAX_AGE_S } from "./carry.ts";
