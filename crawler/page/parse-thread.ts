// A parse thread of the crawler: turns fetched HTML into page facts (an analysis's pages) and
// stored crawl pages (crawledPage), and runs the whole-crawl analysis, off the event loop that
// fetches and serves requests.
import { parentPort, workerData } from "node:worker_threads";
import { analyzeCrawlTable } from "../../analyzer/index.ts";
import { collectGarbage } from "../heap-trim.ts";
import { factsPages, loadTable } from "../crawl/facts-file.ts";
import type { CrawlAnalysisInput } from "./parse-pool.ts";
import { crawledPage, type PageInput } from "./crawled-page.ts";
import { extractPage, type ExtractInput } from "./extract.ts";
import { warmUp } from "./warm-up.ts";

export type ParseTask =
  | { readonly id: number; readonly kind: "page"; readonly input: PageInput }
  | { readonly id: number; readonly kind: "extract"; readonly input: ExtractInput }
  | { readonly id: number; readonly kind: "crawl"; readonly input: CrawlAnalysisInput };

function perform(task: ParseTask): unknown {
  switch (task.kind) {
    case "page":
      return crawledPage(task.input);
    case "extract":
      return extractPage(task.input);
    case "crawl": {
      // What parsing the crawl's pages left on this thread's heap goes first, so that the analysis
      // reuses that heap instead of growing it (the crawl's peak is its whole-crawl analysis).
      if (factsPages(task.input.facts) >= TRIM_AFTER_PAGES) collectGarbage();
      // Facts in a file are read back here, as a table, on the thread that analyses (and is retired after a large crawl).
      const { facts, ...input } = task.input;
      return analyzeCrawlTable({ ...input, table: loadTable(facts) });
    }
  }
}

/**
 * Pages a thread parses between two trims, and how long it idles first: a thread that parsed half a
 * large crawl keeps the heap that grew (V8 keeps it committed while the thread idles), so once the
 * crawl's pages stop coming it collects its garbage (crawler/heap-trim.ts) and gives it back.
 */
export const TRIM_AFTER_PAGES = 2000;
export const TRIM_IDLE_MS = 3000;

const port = parentPort;
if (port) {
  let sinceTrim = 0;
  let idle: NodeJS.Timeout | null = null;
  port.on("message", (task: ParseTask) => {
    if (idle) clearTimeout(idle);
    try {
      port.postMessage({ id: task.id, result: perform(task) });
    } catch (err) {
      port.postMessage({ id: task.id, error: (err as Error).stack ?? String(err) });
    }
    if (task.kind === "page" && ++sinceTrim >= TRIM_AFTER_PAGES) {
      idle = setTimeout(() => {
        sinceTrim = 0;
        collectGarbage();
      }, TRIM_IDLE_MS);
      idle.unref();
    }
  });
  // Its modules are loaded once this runs (static imports come first); warmed up, the pool counts it ready.
  warmUp((workerData as { warmUpPages?: number } | null)?.warmUpPages ?? 0, true);
  port.postMessage("loaded");
}
