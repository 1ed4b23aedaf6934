import { describe, expect, it } from "vitest";
import { parseImport, serpCompetitors, shareHistory, type SerpResult } from "../../../analyzer/index.ts";

// Share of voice over time (search-data-anchors §6.7) from SERP snapshots, figures by hand with the
// Sistrix curve: CTR(1) = 28.5 %, CTR(2) = 15.7 %, CTR(3) = 11.0 %.

const serp = (keyword: string, day: string, domains: string[]): SerpResult[] => domains.map((domain, i) => ({ engine: "yandex", region: 213, device: "desktop", keyword, day, rank: i + 1, domain }));
const rows = [
  ...serp("диван", "2026-11-01", ["site.ru", "a.ru"]),
  ...serp("диван", "2026-11-03", ["a.ru", "site.ru", "b.ru"]),
  ...serp("диван", "2026-11-08", ["site.ru", "a.ru", "b.ru"]),
  ...serp("кровать", "2026-11-08", ["a.ru", "b.ru", "site.ru"]),
  ...serp("диван", "2026-11-15", ["a.ru", "site.ru", "c.ru"]),
  ...serp("кровать", "2026-11-14", ["a.ru", "a.ru", "site.ru"]),
];

describe("share of voice history", () => {
  it("resamples to the last snapshot of each step and leaves points under 80 % coverage out", () => {
    const h = shareHistory(rows, "site.ru", 3, 7);
    expect(h).toMatchObject({ stepDays: 7, days: 21, checkedQueries: 2, validPoints: 2, weights: "equal" });
    // 11-01 has one of the two queries (50 %); in the week to 11-08 диван counts with its 11-08 list.
    expect(h.timeline).toEqual([
      { date: "2026-11-01", checked: 1, valid: false },
      { date: "2026-11-08", checked: 2, valid: true },
      { date: "2026-11-15", checked: 2, valid: true },
    ]);
    // 11-08: (28.5 + 11.0) / 57 = 69.30 %; 11-15: (15.7 + 11.0) / 57 = 46.84 %; mean 58.07.
    expect(h.mine).toEqual({ domain: "site.ru", shares: [null, 69.3, 46.84], mean: 58.07, last: 46.84 });
    // a.ru: (15.7 + 28.5) / 57 = 77.54 %, then 57 / 57 = 100 % (its best rank counts once per list);
    // b.ru: (11.0 + 15.7) / 57 = 46.84 %, then 0; c.ru: 0, then 11.0 / 57 = 19.30 %.
    expect(h.rivals).toEqual([
      { domain: "a.ru", shares: [null, 77.54, 100], mean: 88.77, last: 100 },
      { domain: "b.ru", shares: [null, 46.84, 0], mean: 23.42, last: 0 },
      { domain: "c.ru", shares: [null, 0, 19.3], mean: 9.65, last: 19.3 },
    ]);
    expect(h.movers).toEqual([
      { domain: "b.ru", first: 46.84, last: 0, change: -46.84 },
      { domain: "a.ru", first: 77.54, last: 100, change: 22.46 },
      { domain: "c.ru", first: 0, last: 19.3, change: 19.3 },
    ]);
  });

  it("weighs queries by volume only when every query has one", () => {
    // 11-15 with диван 300 and кровать 100: (300 × 15.7 + 100 × 11.0) / (400 × 28.5) = 58.1 / 114 = 50.96 %.
    const weighed = shareHistory(rows, "site.ru", 2, 7, new Map([["диван", 300], ["кровать", 100]]));
    expect(weighed.weights).toBe("volume");
    expect(weighed.mine.last).toBe(50.96);
    const partial = shareHistory(rows, "site.ru", 2, 7, new Map([["диван", 300]]));
    expect(partial).toMatchObject({ weights: "equal", mine: { last: 46.84 } });
  });

  it("puts a 30-day step's points 30 days apart and needs two valid points for movers", () => {
    const h = shareHistory(rows, "site.ru", 2, 30);
    // One bucket (10-17 … 11-15) holds every snapshot: диван's 11-15 list and кровать's 11-14 one.
    expect(h.timeline).toEqual([
      { date: "2026-10-16", checked: 0, valid: false },
      { date: "2026-11-15", checked: 2, valid: true },
    ]);
    expect(h.mine.shares).toEqual([null, 46.84]);
    expect(h.movers).toEqual([]);
    expect(shareHistory([], "site.ru", 4, 7)).toMatchObject({ days: 28, timeline: [], validPoints: 0, mine: { shares: [], mean: null }, rivals: [] });
  });
});

describe("competitors from SERP snapshots", () => {
  it("counts the tracked queries whose newest snapshot has each other domain in the top 10", () => {
    // Newest lists: диван 11-15 [a, site, c], кровать 11-14 [a, a, site]; b.ru only in older ones.
    expect(serpCompetitors(rows, "site.ru")).toEqual([
      { domain: "a.ru", top10: 2, sharePct: 100 },
      { domain: "c.ru", top10: 1, sharePct: 50 },
    ]);
    expect(serpCompetitors([...serp("стол", "2026-11-15", Array.from({ length: 11 }, (_, i) => `d${i}.ru`))], "site.ru").map((c) => c.domain)).not.toContain("d10.ru");
  });
});

describe("Topvisor snapshots_2/history import", () => {
  it("reads the rank from the date:rank:region key and the domain from the entry or its URL", async () => {
    const doc = {
      regions: { "2": { searcher: "google", region: 213, device: "mobile" } },
      result: {
        keywords: [
          {
            name: "  Диван  Кровать ",
            snapshotsData: {
              "2026-11-08:1:2": { url: "https://www.Rival.ru/x", domain: "" },
              "2026-11-08:2:2": { url: "https://shop.example.ru/", domain: "shop.example.ru" },
              "2026-11-08:x:2": { url: "https://bad.ru/" },
            },
          },
        ],
      },
    };
    const parsed = await parseImport(Buffer.from(JSON.stringify(doc)), "snap.json");
    expect(parsed).toMatchObject({ provider: "topvisor", kind: "positions", formats: ["topvisor_snapshots"] });
    expect(parsed.facts.serp).toEqual([
      { engine: "google", region: 213, device: "mobile", keyword: "диван кровать", date: "2026-11-08", rank: 1, domain: "rival.ru", url: "https://www.Rival.ru/x" },
      { engine: "google", region: 213, device: "mobile", keyword: "диван кровать", date: "2026-11-08", rank: 2, domain: "shop.example.ru", url: "https://shop.example.ru/" },
    ]);
    expect(parsed.facts.warnings).toEqual(["1 snapshot entries without a date:rank:region key or a domain were skipped"]);
    expect([parsed.facts.periodStart, parsed.facts.periodEnd]).toEqual(["2026-11-08", "2026-11-08"]);
  });
});
