/**
 * bench:crawl's linkinator peer: linkinator 7.6.1's Node API in recursive mode, every link not on
 * the site's origin skipped (as `--skip`), at a given concurrency. It also checks CSS, scripts and
 * images. Broken: internal links it reports BROKEN with an HTTP status; BROKEN with status 0 (no
 * answer: refused, reset, timed out) are connection errors, reported apart.
 *
 *   node --import tsx test/bench/peers/run-linkinator.ts --url http://127.0.0.1:PORT/ [--concurrency 16]
 */
import { cpuSeconds, printReport, runArgs, sample } from "./protocol.ts";

// The part of linkinator used here, imported by a computed name (see run-crawlee.ts for why).
interface LinkResult {
  readonly url: string;
  readonly status?: number;
  readonly state: "OK" | "BROKEN" | "SKIPPED";
}
interface LinkChecker {
  on(event: "pagestart", listener: (url: string) => void): this;
  check(options: { path: string; recurse: boolean; concurrency: number; linksToSkip: string[]; timeout: number }): Promise<{ links: LinkResult[]; passed: boolean }>;
}
interface Linkinator {
  LinkChecker: new () => LinkChecker;
}

const { url: start, concurrency, deadlineMs } = runArgs();
const origin = new URL(start).origin;
const moduleName = "linkinator";
const { LinkChecker } = (await import(moduleName)) as Linkinator;

let pages = 0;
const checker = new LinkChecker().on("pagestart", () => void pages++);
const t0 = performance.now();
const cpu0 = cpuSeconds();
const timer = setTimeout(() => {
  report([], true);
  process.exit(0);
}, deadlineMs);
const result = await checker.check({
  path: start,
  recurse: true,
  concurrency,
  // The CLI's --skip: a regular expression per link; this one matches every URL off the origin.
  linksToSkip: [`^(?!${origin.replace(/[.]/g, "\\.")}(/|$))`],
  timeout: 30_000,
});
clearTimeout(timer);
report(result.links, false);
process.exit(0);

function report(links: readonly LinkResult[], timedOut: boolean): void {
  const crawlWallS = (performance.now() - t0) / 1000;
  const crawlCpuS = cpuSeconds() - cpu0;
  const internal = links.filter((l) => l.url.startsWith(`${origin}/`) || l.url === origin);
  const brokenLinks = internal.filter((l) => l.state === "BROKEN");
  const broken = new Set(brokenLinks.filter((l) => (l.status ?? 0) > 0).map((l) => l.url.replace(/#.*$/, "")));
  const noAnswer = new Set(brokenLinks.filter((l) => (l.status ?? 0) === 0).map((l) => l.url));
  printReport({
    tool: "linkinator",
    available: true,
    crawlWallS,
    crawlCpuS,
    peakRssMb: null,
    pagesReported: pages,
    brokenInternal: broken.size,
    brokenSample: sample(broken),
    connectionErrors: noAnswer.size,
    timedOut,
    failure: null,
    extra: {
      concurrency,
      linksChecked: links.length,
      skipped: links.filter((l) => l.state === "SKIPPED").length,
      connectionErrorSample: sample(noAnswer),
    },
  });
}
