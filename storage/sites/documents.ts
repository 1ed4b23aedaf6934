import type { Analysis, BrowserSection, CrawlReport } from "../../analyzer/index.ts";

/*
 * The JSON documents Svc stores, typed once here and read back through these types (by the
 * scheduler that writes them and the gateway that serves them).
 */

/** Version of the report's shape and of the analyzer's catalogue, stored with every run. */
export const REPORT_VERSION = 1;

/** A run's report (runs.report): what the analysis found, as GET /report and its neighbours serve it. */
export interface StoredReport {
  readonly version: number;
  readonly items: Analysis["items"];
  readonly groups: Analysis["groups"];
  readonly caps: Analysis["caps"];
  /** Caps seen once but not confirmed by the second look (absent in reports stored before it). */
  readonly unconfirmed?: Analysis["unconfirmed"];
  readonly tech: Analysis["tech"];
  readonly tasks: Analysis["tasks"];
  readonly origin: string;
  /** The rank if every task's check passed. */
  readonly after: number;
  /** The browser's pages, JavaScript dependency and social cards (absent in reports stored by older versions). */
  readonly browser?: BrowserSection;
}

/**
 * A crawl's report (crawls.report): what the whole-crawl analysis found, as GET /crawl, /links and
 * /external serve it. Written by the crawler's analysis as JSON and stored as it came.
 */
export type StoredCrawlReport = CrawlReport;

// A crawl page's facts (crawl_pages.data) are the proto CrawledPage in its JSON form: written with
// CrawledPage.toJSON, read back with CrawledPage.fromJSON (proto/ is their one definition).
