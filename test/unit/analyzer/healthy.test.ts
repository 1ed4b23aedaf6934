import { describe, expect, it } from "vitest";
import { analyzeSite } from "../../../analyzer/index.ts";
import { CRAWL_CASES } from "./cases/crawl.ts";
import { cleanCrawl, healthySite } from "./site-builder.ts";

describe("healthy fixture", () => {
  it("passes every check but the crawl checks, which a site without a whole-site crawl leaves not applicable", () => {
    const a = analyzeSite(healthySite());
    const notPassing = a.items.filter((i) => i.status !== "pass").map((i) => `${i.code}: ${i.status} ${i.detail}`);
    expect(notPassing.sort()).toEqual(Object.keys(CRAWL_CASES).map((code) => `${code}: na no whole-site crawl in the last 30 days`).sort());
    expect(a.rank).toBe(100);
  });

  it("with a clean whole-site crawl, passes every check", () => {
    const a = analyzeSite(healthySite((f) => void (f.crawl = cleanCrawl())));
    expect(a.items.filter((i) => i.status !== "pass").map((i) => `${i.code}: ${i.status} ${i.detail}`)).toEqual([]);
    expect(a.rank).toBe(100);
  });
});
