// A parse thread of the crawler: turns fetched HTML into stored crawl pages (crawledPage) and runs
// the whole-crawl analysis, off the event loop that fetches and serves requests.
import { parentPort } from "node:worker_threads";
import { analyzeCrawl, type CrawlInput } from "../analyzer/index.ts";
import { crawledPage, type PageInput } from "./crawled-page.ts";

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
}
