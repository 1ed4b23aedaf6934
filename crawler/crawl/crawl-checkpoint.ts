// A whole-site crawl's checkpoint: the pages stored so far, handed to `store` in batches as they
// come, one batch at a time. A crawl given them back resumes where they end. What it keeps of a
// page once stored is the compact facts the whole-crawl analysis reads (analyzer/crawl-facts.ts),
// not the page: a page's full facts live only until its batch is stored.
import { CrawlFactsBuilder, type CrawlFacts } from "../../analyzer/index.ts";
import { FactsFileWriter, type SpilledFacts } from "./facts-file.ts";
import type { CrawledPage } from "../../proto/index.ts";

/**
 * When a batch is stored: at `every` pages, or, while the pages come faster than `every` per
 * `afterMs`, once the batch's first page has waited `afterMs` or the batch holds `max` pages,
 * whichever comes first. A slow crawl stores every `every` pages as before; a fast one stores
 * fewer, larger batches (fewer calls, lease renewals and inserts per page), and a crash loses at
 * most one batch: `max` pages, or what the crawl made in `afterMs` (or in the time it took to make
 * `every` pages, when that is longer).
 */
export interface StoreBatching {
  readonly every: number;
  /** Pages a batch may grow to (absent: `every`, a batch of exactly `every` pages). */
  readonly max?: number;
  /** How long a batch of `every` pages or more may wait for more (ms). */
  readonly afterMs?: number;
  /** Milliseconds, monotonic (performance.now by default). */
  readonly now?: () => number;
}

export interface CrawlProgress {
  readonly done: number;
  readonly known: number;
}

export class CrawlCheckpoint {
  /** Every URL recorded (fetched or skipped), by its strict key, in the order recorded: its compact facts. */
  readonly facts = new CrawlFactsBuilder();
  private batch: CrawledPage[] = [];
  /** When the batch's first page was recorded (batching.now). */
  private batchSince = 0;
  /** Stores a batch of `every` pages or more once its first page has waited `afterMs`. */
  private timer: NodeJS.Timeout | undefined;
  private storing: Promise<void> = Promise.resolve();
  private writer: FactsFileWriter | null = null;
  private readonly max: number;
  private readonly now: () => number;

  /**
   * `known` counts the URLs the crawl knows of (for the progress a batch carries); a failed store
   * goes to `failed`: it ends the crawl (the attempt is retried from what was stored), never the process.
   */
  constructor(
    private readonly store: (pages: CrawledPage[], progress: CrawlProgress) => Promise<void>,
    private readonly batching: StoreBatching,
    private readonly known: () => number,
    private readonly failed: (err: unknown) => void,
    /** Where the pages' compact facts go (read back by the analysis); absent: kept in memory. */
    private readonly factsFile?: string,
  ) {
    if (factsFile) this.facts.spillTo((this.writer = new FactsFileWriter(factsFile, (url) => this.facts.id(url))));
    this.max = Math.max(batching.every, batching.max ?? batching.every);
    this.now = batching.now ?? (() => performance.now());
  }

  /** The facts for the analysis: in memory, or the file's (flushed) with the URL table. */
  outcomeFacts(): CrawlFacts | SpilledFacts {
    const facts = this.facts.facts();
    return this.factsFile ? { urls: facts.urls, file: this.factsFile, pages: this.facts.size, links: this.writer?.links ?? 0 } : facts;
  }

  progress(): CrawlProgress {
    return { done: this.facts.size, known: this.known() };
  }

  /** A page a previous attempt stored: counted as done, not stored again. */
  restore(page: CrawledPage): void {
    this.facts.add(page);
  }

  record(page: CrawledPage): void {
    this.facts.add(page);
    if (this.batch.length === 0) this.batchSince = this.now();
    this.batch.push(page);
    if (this.batch.length >= this.max) return this.flush();
    if (this.batch.length < this.batching.every || this.timer) return;
    const wait = (this.batching.afterMs ?? 0) - (this.now() - this.batchSince);
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref();
  }

  /** Stores the last, partial batch and waits until every batch is stored (or failed). */
  async drain(): Promise<void> {
    this.flush();
    await this.storing;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.length === 0) return;
    const out = this.batch;
    this.batch = [];
    const progress = this.progress();
    this.storing = this.storing.then(() => this.store(out, progress)).catch(this.failed);
  }
}
