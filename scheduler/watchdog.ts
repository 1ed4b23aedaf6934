import { chooseWatchedPages, EVENTS, newEvent, watchChanges, watchSnapshot, worstWatchLevel, type WatchChange, type WatchSnapshot } from "../analyzer/index.ts";
import type { PageFacts, SiteFacts } from "../proto/index.ts";
import type { NewEvent, Repositories } from "../storage/index.ts";

const FIELD_WORDS: Readonly<Record<WatchChange["field"], string>> = {
  status: "status",
  title: "title",
  description: "meta description",
  robots: "robots directives",
  canonical: "canonical",
  h1: "H1",
  content: "text",
  hash: "text",
  size: "size",
};

/** The URLs a site's analyses sample first: its watched pages besides the home page. */
export async function watchedUrls({ watchdog }: Pick<Repositories, "watchdog">, host: string, count: number): Promise<string[]> {
  if (count <= 0) return [];
  return (await watchdog.watched(host)).filter((w) => w.position > 0).map((w) => w.url);
}

/** After a crawl: the home page and the pages with the highest internal link rank become the watched pages. */
export async function chooseFromCrawl({ watchdog }: Pick<Repositories, "watchdog">, host: string, facts: SiteFacts, stats: Iterable<{ url: string; score: number }>, count: number): Promise<void> {
  const home = facts.home?.response?.requestedUrl;
  if (count <= 0 || !home) return;
  await watchdog.choose(host, chooseWatchedPages(home, stats, count));
}

function pagesByUrl(facts: SiteFacts): Map<string, PageFacts> {
  const pages = new Map<string, PageFacts>();
  for (const page of [facts.home, ...facts.pages]) {
    const res = page?.response;
    if (!page || !res) continue;
    if (!pages.has(res.requestedUrl)) pages.set(res.requestedUrl, page);
  }
  return pages;
}

/**
 * Compares the watched pages an analysis fetched with their stored snapshots, through the watchdog
 * repository of the analysis's unit of work: records the changes and the new snapshots, and returns one event per
 * page whose SEO-critical elements changed, for each account that monitors the host. Before a
 * host has watched pages, the home page and the first pages of the sample become them.
 */
export async function settleWatchdog(
  { watchdog }: Pick<Repositories, "watchdog">,
  run: { host: string; runId: number; checkedAt: number; facts: SiteFacts; accounts: readonly number[]; count: number },
): Promise<NewEvent[]> {
  const { host, count } = run;
  if (count <= 0 || run.accounts.length === 0) return [];
  const pages = pagesByUrl(run.facts);
  let watched = await watchdog.watched(host);
  if (watched.length === 0) {
    const urls = [...pages.entries()].filter(([, p]) => p.isHtml).map(([url]) => url).slice(0, count);
    await watchdog.choose(host, urls);
    watched = await watchdog.watched(host);
  }
  const found: { url: string; changes: WatchChange[] }[] = [];
  for (const w of watched) {
    const page = pages.get(w.url);
    if (!page) continue;
    const snapshot = watchSnapshot(page);
    const changes = w.snapshot ? watchChanges(w.snapshot as unknown as WatchSnapshot, snapshot) : [];
    await watchdog.record(host, w.url, snapshot, run.checkedAt, changes.length > 0);
    if (changes.length > 0) found.push({ url: w.url, changes });
  }
  const rows = found.flatMap((f) => f.changes.map((c) => ({ url: f.url, field: c.field, before: c.before, after: c.after, level: c.level })));
  // A repeated completion of the same run finds its changes recorded already: no second event.
  if ((await watchdog.addChanges(host, run.runId, run.checkedAt, rows)) === 0) return [];
  const events: NewEvent[] = [];
  for (const f of found) {
    const critical = f.changes.filter((c) => c.critical);
    if (critical.length === 0) continue;
    const said = critical.map((c) => `${FIELD_WORDS[c.field]} ${describe(c)}`).join("; ");
    const changes = critical.map((c) => ({ field: c.field, before: c.before, after: c.after, level: c.level }));
    for (const accountId of run.accounts) {
      events.push(newEvent(EVENTS.WATCHDOG_CHANGE, { run: run.runId, url: f.url, level: worstWatchLevel(critical), said, host, changes }, { accountId, host, perAccount: true }));
    }
  }
  return events;
}

function describe(c: WatchChange): string {
  const show = (v: string) => (v === "" ? "(none)" : `"${v.length > 80 ? `${v.slice(0, 79)}…` : v}"`);
  if (c.field === "status") return `${c.before} → ${c.after}`;
  return `${show(c.before)} → ${show(c.after)}`;
}
