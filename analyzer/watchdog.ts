// The watchdog: a monitored site's watched pages (the home page and the most important pages by
// internal link rank) are compared on every analysis, element by element. Pure: the scheduler
// gives the pages an analysis fetched and the snapshots it stored; what changed becomes a change
// row and, for an element search engines act on, an event (docs/monitoring.md, "Watchdog").
import type { PageFacts } from "../proto/index.ts";

/** What the watchdog keeps of a watched page. */
export interface WatchSnapshot {
  readonly status: number;
  readonly title: string;
  readonly description: string;
  /** Robots meta directives and X-Robots-Tag, as one lower-case string. */
  readonly robots: string;
  readonly canonical: string;
  readonly h1: string;
  /** SHA-256 of the visible text. */
  readonly hash: string;
  /** Body bytes. */
  readonly size: number;
}

export type WatchField = keyof WatchSnapshot;

/** The elements whose change is an event (search engines act on them); the others are recorded only. */
export const CRITICAL_WATCH_FIELDS: readonly WatchField[] = ["status", "title", "description", "robots", "canonical", "h1"];

export interface WatchChange {
  readonly field: WatchField | "content";
  readonly before: string;
  readonly after: string;
  readonly level: "good" | "warn" | "bad" | "info";
  /** An element search engines act on: an event, not only a record. */
  readonly critical: boolean;
}

const LIMIT = 300;

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > LIMIT ? `${t.slice(0, LIMIT - 1)}…` : t;
}

/** The snapshot of a fetched page. */
export function watchSnapshot(page: PageFacts): WatchSnapshot {
  const res = page.response;
  const robots = [page.metaRobots, page.xRobotsTag.toLowerCase()].filter(Boolean).join(", ");
  return {
    status: res?.status ?? 0,
    title: clip(page.title),
    description: clip(page.metaDescription),
    robots: clip(robots),
    canonical: page.canonicals[0] ?? page.canonicalHeader,
    h1: clip(page.headings.find((h) => h.level === 1)?.text ?? ""),
    hash: page.contentHash,
    size: res?.bodyBytes ?? 0,
  };
}

const CLOSED = /(^|[\s,:])(noindex|none)(\s|,|$)/;
const ok = (status: number) => status >= 200 && status < 300;

function statusLevel(before: number, after: number): WatchChange["level"] {
  if (ok(after)) return ok(before) ? "info" : "good";
  return ok(before) ? "bad" : "warn";
}

function robotsLevel(before: string, after: string): WatchChange["level"] {
  const was = CLOSED.test(before);
  const is = CLOSED.test(after);
  if (is && !was) return "bad";
  if (was && !is) return "good";
  return "warn";
}

/** What changed between two snapshots of one page, critical elements first. */
export function watchChanges(before: WatchSnapshot, after: WatchSnapshot): WatchChange[] {
  const changes: WatchChange[] = [];
  // A page that failed to load has no elements: only its status changed, not its title or text.
  if (before.status !== after.status) changes.push({ field: "status", before: String(before.status), after: String(after.status), level: statusLevel(before.status, after.status), critical: true });
  if (!ok(before.status) || !ok(after.status)) return changes;
  for (const field of ["title", "description", "robots", "canonical", "h1"] as const) {
    const b = before[field];
    const a = after[field];
    if (a === b) continue;
    const level = field === "robots" ? robotsLevel(b, a) : a === "" ? "warn" : field === "canonical" || field === "title" ? "warn" : "info";
    changes.push({ field, before: b, after: a, level, critical: true });
  }
  if (before.hash !== after.hash && before.hash !== "" && after.hash !== "") {
    changes.push({ field: "content", before: `${before.size} bytes`, after: `${after.size} bytes`, level: "info", critical: false });
  }
  return changes;
}

/** The worst level of a page's changes (for its event). */
export function worstWatchLevel(changes: readonly WatchChange[]): WatchChange["level"] {
  for (const level of ["bad", "warn", "good"] as const) if (changes.some((c) => c.level === level)) return level;
  return "info";
}

/**
 * The pages to watch: the home page, then the most important other pages by internal link rank
 * (ties by URL, so the choice is stable), `count` in all.
 */
export function chooseWatchedPages(home: string, ranked: Iterable<{ readonly url: string; readonly score: number }>, count: number): string[] {
  if (count <= 0) return [];
  const best: { url: string; score: number }[] = [];
  // One pass keeping the best count-1: a crawl's stats may hold 100,000 pages.
  for (const p of ranked) {
    if (p.url === home) continue;
    if (best.length < count - 1) best.push({ url: p.url, score: p.score });
    else {
      const worst = best.reduce((w, x, i) => (x.score < (best[w]?.score ?? 0) || (x.score === best[w]?.score && x.url > (best[w]?.url ?? "")) ? i : w), 0);
      const w = best[worst];
      if (w && (p.score > w.score || (p.score === w.score && p.url < w.url))) best[worst] = { url: p.url, score: p.score };
    }
  }
  best.sort((a, b) => b.score - a.score || a.url.localeCompare(b.url));
  return [home, ...best.map((b) => b.url)];
}
