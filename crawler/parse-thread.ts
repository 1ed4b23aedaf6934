// A parse thread of the crawler: turns fetched HTML into stored crawl pages (crawledPage) and runs
// the whole-crawl analysis, off the event loop that fetches and serves requests.
import { parentPort, workerData } from "node:worker_threads";
import { analyzeCrawl, type CrawlInput } from "../analyzer/index.ts";
import { crawledPage, type PageInput } from "./crawled-page.ts";
import { warmUp } from "./warm-up.ts";

export type ParseTask = { readonly id: number; readonly kind: "page"; readonly input: PageInput } | { readonly id: number; readonly kind: "crawl"; readonly input: CrawlInput };

const port = parentPort;
if (port) {
  port.on("message", (task: ParseTask) => {
    try {
      const result = task.kind === "page" ? crawledPage(task.input) : analyzeCrawl(task.input);
      port.postMessage({ id: task.id, result });
    } catch (err) {
      port.postMessage({ id: task.id, error: (err as Error).stack ?? String(err) });
    }
  });
  // Its modules are loaded once this runs (static imports come first); warmed up, the pool counts it ready.
  warmUp((workerData as { warmUpPages?: number } | null)?.warmUpPages ?? 0);
  port.postMessage("loaded");
}
