// Sites and what analyses and crawls found on them: runs, tasks, profiles, crawls and their pages, check series, robots versions, diagnosis days, work notes.
export { SitesRepo, type SiteRow, type SiteListRow, type Importance, type OverviewFilter, type SiteChanges, type AddSiteOutcome } from "./sites-repo.ts";
export { PostgresCheckSeries, checkRowProblem, type CheckSeries, type CheckRow, type CheckPoint, type CheckStatus } from "./check-series.ts";
export { REPORT_VERSION, type StoredReport, type StoredCrawlReport } from "./documents.ts";
export { RunsRepo, type RunRow, type NewRun, type DiagnosisRunRow } from "./runs-repo.ts";
export { TasksRepo, type TaskRow, type TaskStatus, type TaskDraftRow, type TaskTransition } from "./tasks-repo.ts";
export { ProfilesRepo, type ProfileRow } from "./profiles-repo.ts";
export { CrawlsRepo, type CrawlRow } from "./crawls-repo.ts";
export { PostgresCrawlPages, type CrawlPages, type CrawlPageRow, type CrawlPagesFilter, type NewCrawlPage, type CrawlLinkStats, type CrawlLease, type CrawlJobRef } from "./crawl-pages.ts";
export { WorkNotesRepo, type WorkNoteRow } from "./work-notes-repo.ts";
export { RobotsRepo, type RobotsVersionRow } from "./robots-repo.ts";
export { DiagnosisDaysRepo, type DiagnosisDayRow } from "./diagnosis-days-repo.ts";
