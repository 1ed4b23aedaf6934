// A whole-site crawl's checkpoint: the pages stored so far, handed to `store` in batches as they
// come, one batch at a time. A crawl given them back resumes where they end. What it keeps of a
// page once stored is the compact facts the whole-crawl analysis reads (analyzer/crawl-facts.ts),
// not the page: a page's full facts live only until its batch is stored.
import { CrawlFactsBuilder, type CrawlFacts } from "../../analyzer/index.ts";
import { FactsFileWriter, type SpilledFacts } from "./facts-file.ts";
import type { CrawledPage } from "../../proto/index.ts";

export interface CrawlProgress {
  readonly done: number;
  readonly known: number;
}

export class CrawlCheckpoint {
  /** Every URL recorded (fetched or skipped), by its strict key, in the order recorded: its compact facts. */
  readonly facts = new CrawlFactsBuilder();
  private batch: CrawledPage[] = [];
  private storing: Promise<void> = Promise.resolve();
  private writer: FactsFileWriter | null = null;

  /**
   * `known` counts the URLs the crawl knows of (for the progress a batch carries); a failed store
   * goes to `failed`: it ends the crawl (the attempt is retried from what was stored), never the process.
   */
  constructor(
    private readonly store: (pages: CrawledPage[], progress: CrawlProgress) => Promise<void>,
    private readonly storeEvery: number,
    private readonly known: () => number,
    private readonly failed: (err: unknown) => void,
    /** Where the pages' compact facts go (read back by the analysis); absent: kept in memory. */
    private readonly factsFile?: string,
  ) {
    if (factsFile) this.facts.spillTo((this.writer = new FactsFileWriter(factsFile, (url) => this.facts.id(url))));
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
    this.batch.push(page);
    this.flush(false);
  }

  /** Stores the last, partial batch and waits until every batch is stored (or failed). */
  async drain(): Promise<void> {
    this.flush(true);
    await this.storing;
  }

  private flush(force: boolean): void {
    if (this.batch.length === 0 || (!force && this.batch.length < this.storeEvery)) return;
    const out = this.batch;
    this.batch = [];
    const progress = this.progress();
    this.storing = this.storing.then(() => this.store(out, progress)).catch(this.failed);
  }
}
