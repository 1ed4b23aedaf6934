// A whole-site crawl's frontier: which URLs are admitted (this origin, allowed by robots.txt, not
// a trap, not marked missing by the site, within the depth limit), how they are fetched (a URL
// that looks like a file, and every image, script and stylesheet, is asked by HEAD first: its
// Content-Type, not its name, says whether it is a page), and in which order they start
// (breadth-first, a depth started only when no shallower page can still find its URLs nearer the
// home page). Every URL refused is recorded with the reason.
import { CrawledPage, type RobotsFacts } from "../../proto/index.ts";
import { trapOf, type TrapLimits } from "./crawl-traps.ts";
import { isAllowed } from "../site/robots.ts";

/** Unlinked (sitemap-only) URLs: fetched after every linked one, their depth unknown. */
export const UNLINKED = Number.POSITIVE_INFINITY;
/**
 * Paths that usually name a file, not a page: asked by HEAD first, so a large download is not
 * fetched whole. The answer's Content-Type decides: MediaWiki's `/wiki/File:Shot.png` is an HTML page.
 */
const FILE_LIKE = /\.(jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|rar|7z|mp[34]|webm|ogg|wav|avi|mov|css|js|mjs|woff2?|ttf|eot|exe|dmg|apk)$/i;

/** How a URL was found: a link to follow, or a subresource of a page (an image, a script, a stylesheet) only checked. */
export type Found = "link" | "asset";

export interface FrontierEntry {
  readonly url: string;
  depth: number;
  /** Link hops below the sitemap URL an unlinked entry was found from (0 for linked entries and sitemap URLs). */
  below: number;
  /** Ask by HEAD first; fetch the page whole only when the answer is HTML. */
  readonly probe: boolean;
  /** Never fetched as a page, only checked (a subresource). */
  readonly asset: boolean;
  started: boolean;
  throttles: number;
  /** Recorded as not fetched, for this reason ("" when admitted). */
  skipped: string;
}

export interface Trap {
  pattern: string;
  example: string;
  urls: number;
}

export interface FrontierRules {
  readonly origin: URL;
  readonly robots: RobotsFacts | undefined;
  readonly userAgent: string;
  readonly limits: TrapLimits & { readonly maxDepth: number };
}

export class Frontier {
  /** Every URL admitted, refused as skipped, or done (stored by a previous attempt). */
  readonly known = new Map<string, FrontierEntry>();
  readonly traps = new Map<string, Trap>();
  /** Why the crawl stopped short: the first limit reached ("" while none is). */
  truncatedBy = "";
  /** Queued entries by depth; an entry whose depth dropped or that started is left behind, and dropped when met. */
  private readonly buckets = new Map<number, Fifo<FrontierEntry>>();
  private readonly inflightByDepth = new Map<number, number>();
  /** URLs seen per URL family, for the trap rules. */
  private readonly patterns = new Map<string, number>();

  /** `skipped` receives the record of a URL refused by robots.txt or as a trap. */
  constructor(
    private readonly rules: FrontierRules,
    private readonly skipped: (page: CrawledPage) => void,
  ) {}

  truncate(why: string): void {
    if (!this.truncatedBy) this.truncatedBy = why;
  }

  /** A URL a previous attempt stored: done, never fetched again. */
  restore(page: CrawledPage): void {
    this.known.set(page.url, { url: page.url, depth: page.depth < 0 ? UNLINKED : page.depth, below: 0, probe: false, asset: false, started: true, throttles: 0, skipped: page.skipped });
  }

  /**
   * A URL found at `depth` (`below` hops under a sitemap URL when unlinked): queued when admitted,
   * or moved up when it was queued deeper or refused as too deep.
   */
  offer(url: string, depth: number, found: Found = "link", below = 0): void {
    const { limits } = this.rules;
    const existing = this.known.get(url);
    if (existing) {
      const readmit = existing.skipped === "depth_limit" && !tooDeep(depth, below, limits.maxDepth);
      if (readmit || (!existing.started && depth < existing.depth && !tooDeep(depth, below, limits.maxDepth))) {
        existing.depth = depth;
        existing.below = below;
        existing.started = false;
        existing.skipped = "";
        this.enqueue(existing);
      }
      return;
    }
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    const { origin } = this.rules;
    if (u.host !== origin.host || u.protocol !== origin.protocol) return;
    // The site says the target does not exist (MediaWiki's red links): nothing to fetch.
    if (u.searchParams.get("redlink") === "1") return this.skip(url, depth, "missing_target");
    if (!robotsAllow(this.rules.robots, this.rules.userAgent, u)) return this.skip(url, depth, "robots");
    const trap = trapOf(u, limits, this.patterns);
    if (trap) {
      const t = this.traps.get(trap) ?? { pattern: trap, example: url, urls: 0 };
      t.urls += 1;
      this.traps.set(trap, t);
      this.truncate("trap");
      return this.skip(url, depth, "trap");
    }
    // A subresource is checked at its page's depth; it leads nowhere, so it is never too deep.
    if (found === "link" && tooDeep(depth, below, limits.maxDepth)) {
      this.truncate("depth_limit");
      return this.skip(url, depth, "depth_limit");
    }
    const asset = found === "asset";
    const entry: FrontierEntry = { url, depth, below, probe: asset || FILE_LIKE.test(u.pathname), asset, started: false, throttles: 0, skipped: "" };
    this.known.set(url, entry);
    this.enqueue(entry);
  }

  /** A URL nothing links to (a sitemap's, a canonical target): fetched once, after every linked one. */
  offerUnlinked(url: string): void {
    if (!this.known.has(url)) this.offer(url, UNLINKED);
  }

  /**
   * The next URL in breadth-first order, null when none is queued, "wait" when the next must wait
   * for a fetch in flight. A URL of depth d starts only when no page shallower than d − 1 is still
   * being fetched: such a page could still find it at a smaller depth.
   */
  next(): FrontierEntry | null | "wait" {
    const depths = [...this.buckets.keys()].sort((a, b) => a - b);
    for (const d of depths) {
      const list = this.buckets.get(d) as Fifo<FrontierEntry>;
      for (let head = list.peek(); head && (head.started || head.depth !== d); head = list.peek()) list.shift();
      if (list.length === 0) {
        this.buckets.delete(d);
        continue;
      }
      for (const [fd, n] of this.inflightByDepth) if (n > 0 && fd < d - 1) return "wait";
      return list.shift() as FrontierEntry;
    }
    return null;
  }

  /** Marks an entry fetched from now on; returns the depth to give `finished` (the entry's may change once it is requeued). */
  start(entry: FrontierEntry): number {
    entry.started = true;
    const d = entry.depth;
    this.inflightByDepth.set(d, (this.inflightByDepth.get(d) ?? 0) + 1);
    return d;
  }

  finished(depth: number): void {
    this.inflightByDepth.set(depth, (this.inflightByDepth.get(depth) ?? 1) - 1);
  }

  /** An entry the site asked us to fetch later (429, 503): back in the queue, untouched. */
  requeue(entry: FrontierEntry): void {
    entry.throttles += 1;
    entry.started = false;
    this.enqueue(entry);
  }

  /** Whether an admitted URL still waits to be fetched. */
  hasQueued(): boolean {
    for (const list of this.buckets.values()) if (list.some((e) => !e.started)) return true;
    return false;
  }

  private enqueue(entry: FrontierEntry): void {
    const list = this.buckets.get(entry.depth) ?? new Fifo<FrontierEntry>();
    list.push(entry);
    this.buckets.set(entry.depth, list);
  }

  // Every stored URL is known (a skipped one is made known first, a fetched one was), so "known"
  // is the only test needed for "not seen yet".
  private skip(url: string, depth: number, why: string): void {
    this.known.set(url, { url, depth, below: 0, probe: false, asset: false, started: true, throttles: 0, skipped: why });
    this.skipped(CrawledPage.fromPartial({ url, finalUrl: url, depth: Number.isFinite(depth) ? depth : -1, skipped: why }));
  }
}

/**
 * A first-in first-out queue whose shift is O(1): Array.prototype.shift moves every element once
 * an array is large (past about 16,000 entries in V8), which made a breadth-first crawl of 100,000
 * pages quadratic (8 s of shifts alone at 100,000 queued, 41 s at 200,000).
 */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T; // not kept alive by the queue
    this.head += 1;
    // Drop the consumed part once it is most of the array: amortised O(1) a shift.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  some(test: (item: T) => boolean): boolean {
    for (let i = this.head; i < this.items.length; i++) if (test(this.items[i] as T)) return true;
    return false;
  }
}

/**
 * Whether a link is past the click-depth limit: its hops from the home page, or, for a page only a
 * sitemap leads to, its hops below that sitemap URL (a section linked from nowhere is bounded too).
 */
function tooDeep(depth: number, below: number, maxDepth: number): boolean {
  return Number.isFinite(depth) ? depth > maxDepth : below > maxDepth;
}

/** RFC 9309 §2.3.1: an unreachable robots.txt (5xx, network) means "disallow all"; 4xx means "allow all". */
function robotsAllow(robots: RobotsFacts | undefined, userAgent: string, url: URL): boolean {
  const r = robots?.response;
  if (!robots || !r) return true;
  if ((r.error !== "" && r.error !== "too_large") || r.status >= 500 || r.status === 429) return false;
  return isAllowed(robots, userAgent, url.pathname + url.search);
}
