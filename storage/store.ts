import type { Db } from "./engine/db.ts";
import { transactionDb } from "./engine/transaction-db.ts";
import { AccountsRepo } from "./accounts/accounts-repo.ts";
import { AuthRepo } from "./accounts/auth-repo.ts";
import { IdempotencyRepo } from "./accounts/idempotency-repo.ts";
import { ServiceStateRepo } from "./accounts/service-state-repo.ts";
import { SitesRepo } from "./sites/sites-repo.ts";
import { JobsRepo } from "./work/jobs-repo.ts";
import { RunsRepo } from "./sites/runs-repo.ts";
import { TasksRepo } from "./sites/tasks-repo.ts";
import { ProfilesRepo } from "./sites/profiles-repo.ts";
import { CrawlsRepo } from "./sites/crawls-repo.ts";
import { EventsRepo } from "./work/events-repo.ts";
import { LeadersRepo } from "./work/leaders-repo.ts";
import { OutboxRepo } from "./work/outbox-repo.ts";
import { UptimeRepo } from "./monitoring/uptime-repo.ts";
import { IncidentsRepo } from "./monitoring/incidents-repo.ts";
import { OAuthRepo } from "./accounts/oauth-repo.ts";
import { WebhooksRepo } from "./work/webhooks-repo.ts";
import { WatchdogRepo } from "./monitoring/watchdog-repo.ts";
import { SearchRepo } from "./search/search-repo.ts";
import { WorkNotesRepo } from "./sites/work-notes-repo.ts";
import { RobotsRepo } from "./sites/robots-repo.ts";
import { DiagnosisDaysRepo } from "./sites/diagnosis-days-repo.ts";
import { PostgresUsageSeries, type UsageSeries } from "./accounts/usage-series.ts";
import { PostgresCheckSeries, type CheckSeries } from "./sites/check-series.ts";
import { PostgresCrawlPages, type CrawlPages } from "./sites/crawl-pages.ts";
import { PostgresUptimeSeries, type UptimeSeries } from "./monitoring/uptime-series.ts";
import type { SerpSeries } from "./search/serp-series.ts";
import type { SearchDailySeries } from "./search/search-daily-series.ts";
import type { SearchPeriodSeries } from "./search/search-period-series.ts";
import type { BacklinkSeries } from "./search/backlink-series.ts";
import type { IndexSeries } from "./search/index-series.ts";
import type { MarketSeries } from "./search/market-series.ts";
import type { RankSeries } from "./search/rank-series.ts";

/**
 * The repositories over one database, plus the time-series ports and the crawl pages. No raw
 * connection: SQL lives in storage/ only (lint keeps it there).
 */
export interface Repositories {
  readonly accounts: AccountsRepo;
  readonly auth: AuthRepo;
  readonly idempotency: IdempotencyRepo;
  readonly serviceState: ServiceStateRepo;
  readonly sites: SitesRepo;
  readonly usage: UsageSeries;
  readonly checks: CheckSeries;
  readonly jobs: JobsRepo;
  readonly runs: RunsRepo;
  readonly tasks: TasksRepo;
  readonly profiles: ProfilesRepo;
  readonly crawls: CrawlsRepo;
  readonly events: EventsRepo;
  readonly leaders: LeadersRepo;
  readonly outbox: OutboxRepo;
  readonly uptime: UptimeRepo;
  readonly incidents: IncidentsRepo;
  readonly oauth: OAuthRepo;
  readonly webhooks: WebhooksRepo;
  readonly watchdog: WatchdogRepo;
  readonly search: SearchRepo;
  readonly workNotes: WorkNotesRepo;
  readonly robots: RobotsRepo;
  readonly diagnosisDays: DiagnosisDaysRepo;
  readonly crawlPages: CrawlPages;
  readonly uptimeSeries: UptimeSeries;
}

/** The repositories, and units of work over them. */
export interface Store extends Repositories {
  /**
   * A unit of work: `work` gets the same repositories bound to one transaction, committed when it
   * resolves and rolled back when it throws. What must land whole (a settlement: its state, its
   * incidents, its outbox messages and its events) is written through `t`. Ports outside the
   * account database (ClickHouse) are handed as they are: they take no part in the transaction.
   */
  tx<T>(work: (t: Repositories) => Promise<T>): Promise<T>;
}

type SeriesPorts = { usage?: UsageSeries; checks?: CheckSeries; crawlPages?: CrawlPages; uptime?: UptimeSeries; serp?: SerpSeries; searchDaily?: SearchDailySeries; searchPeriod?: SearchPeriodSeries; ranks?: RankSeries; backlinks?: BacklinkSeries; index?: IndexSeries; market?: MarketSeries; importChunkRows?: number };

export function createStore(db: Db, series?: SeriesPorts): Store {
  return {
    ...repositories(db, series),
    tx: (work) => db.tx((q) => work(repositories(transactionDb(q, db), series))),
  };
}

function repositories(db: Db, series?: SeriesPorts): Repositories {
  return {
    accounts: new AccountsRepo(db),
    auth: new AuthRepo(db),
    idempotency: new IdempotencyRepo(db),
    serviceState: new ServiceStateRepo(db),
    sites: new SitesRepo(db),
    usage: series?.usage ?? new PostgresUsageSeries(db),
    checks: series?.checks ?? new PostgresCheckSeries(db),
    jobs: new JobsRepo(db),
    runs: new RunsRepo(db),
    tasks: new TasksRepo(db),
    profiles: new ProfilesRepo(db),
    crawls: new CrawlsRepo(db),
    events: new EventsRepo(db),
    leaders: new LeadersRepo(db),
    outbox: new OutboxRepo(db),
    uptime: new UptimeRepo(db),
    incidents: new IncidentsRepo(db),
    oauth: new OAuthRepo(db),
    webhooks: new WebhooksRepo(db),
    watchdog: new WatchdogRepo(db),
    search: new SearchRepo(db, { serp: series?.serp, daily: series?.searchDaily, period: series?.searchPeriod, ranks: series?.ranks, backlinks: series?.backlinks, index: series?.index, market: series?.market }, series?.importChunkRows),
    workNotes: new WorkNotesRepo(db),
    robots: new RobotsRepo(db),
    diagnosisDays: new DiagnosisDaysRepo(db),
    crawlPages: series?.crawlPages ?? new PostgresCrawlPages(db),
    uptimeSeries: series?.uptime ?? new PostgresUptimeSeries(db),
  };
}
