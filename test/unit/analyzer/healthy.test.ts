import { describe, expect, it } from "vitest";
import { analyzeSite } from "../../../analyzer/index.ts";
import { BROWSER_CASES, fastBrowserRun } from "./cases/browser.ts";
import { CRAWL_CASES } from "./cases/crawl.ts";
import { cleanCrawl, healthySite } from "./site-builder.ts";

describe("healthy fixture", () => {
  it("passes every check but the crawl and browser-metric checks, which a site without a whole-site crawl or a browser run leaves not applicable", () => {
    const a = analyzeSite(healthySite());
    const notPassing = a.items.filter((i) => i.status !== "pass").map((i) => `${i.code}: ${i.status} ${i.detail}`);
    const noBrowser = "no browser metrics in this run (SVC_BROWSER off, no browser installed, or a synchronous check)";
    expect(notPassing.sort()).toEqual(
      [...Object.keys(CRAWL_CASES).map((code) => `${code}: na no whole-site crawl in the last 30 days`), ...Object.keys(BROWSER_CASES).map((code) => `${code}: na ${noBrowser}`)].sort(),
    );
    expect(a.rank).toBe(100);
  });

  it("with a clean whole-site crawl and a fast browser run, passes every check", () => {
    const a = analyzeSite(
      healthySite((f) => {
        f.crawl = cleanCrawl();
        f.browser = fastBrowserRun();
      }),
    );
    expect(a.items.filter((i) => i.status !== "pass").map((i) => `${i.code}: ${i.status} ${i.detail}`)).toEqual([]);
    expect(a.rank).toBe(100);
  });
});
