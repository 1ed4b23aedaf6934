import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { emptyFacts } from "../../analyzer/index.ts";
import { createStore } from "../../storage/index.ts";
import { startTestGateway, T0_MS, type TestGateway } from "../harness/gateway.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { buildZip, utf16le } from "../harness/zip-writer.ts";

// Imports of the user's exports and the search operations over them (issue 19), end to end
// through the REST pipeline, with figures computed by hand.

let gw: TestGateway;
let site: SmallSite;
const NOW = Math.floor(T0_MS / 1000);
beforeAll(async () => {
  site = await startSmallSite();
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1" } });
  expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const b64 = (x: Buffer | string) => Buffer.from(x).toString("base64");
const upload = (file: Buffer | string, file_name: string, key?: string) => gw.call("POST", `/api/v1/imports/${site.host}`, { body: { file: b64(file), file_name }, ...(key ? { key } : {}) });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const get = async (path: string, key?: string): Promise<any> => {
  const res = await gw.call("GET", `/api/v1${path}`, key ? { key } : {});
  expect(res.statusCode).toBe(200);
  return res.json();
};

const WEEK = [100, 120, 130, 125, 110, 60, 50];
/** 42 days from 2026-10-01 with a weekly pattern and an outage planted on day 20 (2026-10-21). */
const chartRows = Array.from({ length: 42 }, (_, i) => {
  const day = new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10);
  const clicks = i === 20 ? 5 : WEEK[i % 7]!;
  return `${day},${clicks},${clicks * 20},5%,7.5`;
});
const gscZip = buildZip([
  {
    name: "Queries.csv",
    data:
      "Top queries,Last 28 days Clicks,Previous 28 days Clicks,Last 28 days Impressions,Previous 28 days Impressions,Last 28 days CTR,Previous 28 days CTR,Last 28 days Position,Previous 28 days Position\n" +
      "купить диван,134,118,4120,3987,3.25%,2.96%,6.4,7.1\nдиван кровать,20,,1000,,2%,,8,\n",
  },
  { name: "Chart.csv", data: `Date,Clicks,Impressions,CTR,Position\n${chartRows.join("\n")}\n` },
  { name: "Filters.csv", data: "Filter,Value\nSearch type,Web\n" },
]);

describe("before anything is imported", () => {
  it("answers empty, explained results, never invented numbers", async () => {
    const q = await get(`/queries/${site.host}`);
    expect(q).toMatchObject({ host: site.host, data_state: "missing", queries: [], period: null });
    expect(q.note).toContain("POST /imports/{host}");
    const t = await get(`/traffic/${site.host}`);
    expect(t).toMatchObject({ data_state: "missing", source: null, days: 0, real_monthly_organic: null, verdict: "insufficient_data", forecast: null, estimate: null, potential: null });
    expect((await get(`/providers`)).providers).toEqual([]);
  });
});

describe("a GSC Performance ZIP", () => {
  let batchId = 0;
  it("is imported once: the same file again answers its batch", async () => {
    const first = await upload(gscZip, "site-Performance-on-Search-2026-11-12.zip");
    expect(first.statusCode).toBe(201);
    const body = first.json();
    batchId = body.import.id;
    expect(body.import).toMatchObject({ provider: "gsc", kind: "performance", formats: ["gsc_performance", "gsc_filters"], period: { start: "2026-10-01", end: "2026-11-11" }, rows: 2 + 42, truncated: false, filters: { "Search type": "Web" }, imported_at: NOW });
    const again = await upload(gscZip, "renamed.zip");
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: false, import: { id: batchId, file_name: "site-Performance-on-Search-2026-11-12.zip" } });
    expect((await get(`/imports/${site.host}`)).imports.map((b: { id: number }) => b.id)).toEqual([batchId]);
  });

  it("gives queries with CTR and position recomputed from sums, and Compare-mode previous values", async () => {
    const q = await get(`/queries/${site.host}`);
    expect(q.period).toEqual({ start: "2026-10-01", end: "2026-11-11" });
    expect(q.queries).toEqual([
      { engine: "google", query: "купить диван", clicks: 134, clicks_prev: 118, impressions: 4120, ctr: 3.25, position: 6.4, position_prev: 7.1 },
      { engine: "google", query: "диван кровать", clicks: 20, clicks_prev: null, impressions: 1000, ctr: 2, position: 8, position_prev: null },
    ]);
  });

  it("gives near opportunities at the site's own CTR curve: 4120 × (11 % − 134/4120) = 319 and 1000 × (11 % − 2 %) = 90, and a ctr one", async () => {
    const o = await get(`/opportunities/${site.host}`);
    expect(o.ctr_source).toBe("measured");
    // ctr: "купить диван" is alone at rank 6, so it is judged against the study's 5.1 % (leave-one-out):
    // 4120 × (5.1 % − 3.25 %) = 76; "диван кровать" alone at rank 8: 1000 × (3.2 % − 2 %) = 12.
    expect(o.opportunities.map((x: { kind: string; query: string; expected_gain_clicks: number }) => [x.kind, x.query, x.expected_gain_clicks])).toEqual([
      ["near", "купить диван", 319],
      ["near", "диван кровать", 90],
      ["ctr", "купить диван", 76],
      ["ctr", "диван кровать", 12],
    ]);
    expect((await get(`/opportunities/${site.host}?kind=ctr`)).opportunities.map((x: { query: string }) => x.query)).toEqual(["купить диван", "диван кровать"]);
  });

  it("forecasts traffic from the Chart: the outage is an unusual day and the weekly model wins", async () => {
    const t = await get(`/traffic/${site.host}`);
    // The last 28 days: four weeks of 695 clicks, less the outage's 45 missing clicks: 2735 × 30/28.
    // The Chart ends on 2026-11-11, 11 days before today (2026-11-22): stale for gsc (fresh within 4).
    expect(t).toMatchObject({ data_state: "stale", source: "gsc", days: 42, data_until: "2026-11-11", real_monthly_organic: 2930, verdict: "flat", level_shift: null, potential: 497, estimate: null });
    expect(t.note).toBe("The gsc data end on 2026-11-11, 11 days ago: stale (fresh within 4 days, expired after 12); import a newer export.");
    expect(t.forecast.model).toBe("seasonal_naive");
    expect(t.forecast.unusual_days).toEqual([{ date: "2026-10-21", clicks: 5, expected: 50, z: expect.any(Number), direction: "drop" }]);
    // The forecast starts today: 2026-11-22 is weekday 3 of the pattern (2026-10-01 is 0).
    expect(t.forecast.days.map((d: { date: string; clicks: number }) => [d.date, d.clicks]).slice(0, 7)).toEqual([
      ["2026-11-22", 125], ["2026-11-23", 110], ["2026-11-24", 60], ["2026-11-25", 50], ["2026-11-26", 100], ["2026-11-27", 120], ["2026-11-28", 130],
    ]);
    expect(t.forecast.days.at(-1).date).toBe("2026-12-05");
  });

  it("lists the provider as stale: its newest day is 11 days old, past gsc's 4", async () => {
    const p = await get(`/providers`);
    // Data until 2026-11-11, now 2026-11-22: 11 days old, over gsc's 4 and within 3 × 4 = 12: stale.
    expect(p.providers).toEqual([{ provider: "gsc", enabled: true, state: "stale", slo_days: 4, sites: [site.host], imports: 1, last_import_at: NOW, data_until: "2026-11-11", rows: 44, fresh_days_30: 0, slo_met: false }]);
    expect((await get(`/providers?all=1`)).providers).toHaveLength(7);
  });

  it("is removed with everything it brought", async () => {
    const other = await gw.newAccount("other@example.com");
    // Another account's batch is not theirs to remove: nothing happens, as for a batch already gone.
    expect((await gw.call("DELETE", `/api/v1/imports/batches/${batchId}`, { key: other.key })).json()).toEqual({ id: batchId, host: null, removed: false });
    const res = await gw.call("DELETE", `/api/v1/imports/batches/${batchId}`);
    expect(res.json()).toEqual({ id: batchId, host: site.host, removed: true });
    // DELETE is idempotent: again, 200 and removed false.
    const again = await gw.call("DELETE", `/api/v1/imports/batches/${batchId}`);
    expect([again.statusCode, again.json()]).toEqual([200, { id: batchId, host: null, removed: false }]);
    expect((await get(`/queries/${site.host}`)).queries).toEqual([]);
    expect((await get(`/traffic/${site.host}`)).days).toBe(0);
  });
});

describe("hostile and wrong files", () => {
  it("refuses an unknown format with bad_param naming what was expected, and stores nothing", async () => {
    const res = await upload("name,age\nann,3\n", "Queries.csv");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_param", param: "file" });
    expect(res.json().error).toContain("expected one of: Google Search Console Performance");
    expect((await get(`/imports/${site.host}`)).imports).toEqual([]);
  });

  it("leaves nothing when storing fails halfway (one transaction)", async () => {
    const facts = emptyFacts();
    facts.period.push({ engine: "google", dim: "query", key: "a", key2: "", clicks: 1, impressions: 1, posXImpr: 1, prevClicks: null, prevImpressions: null, prevPosXImpr: null });
    facts.ranks.push({ engine: "google", region: Number.NaN, device: "desktop", keyword: "a", date: "2026-01-01", position: 1, url: null, group: "", volume: null });
    const account = (await get("/me")).user.id as number;
    expect(await gw.store.sites.get(account, site.host)).not.toBeNull();
    await expect(gw.store.search.importBatch({ accountId: account, host: site.host, provider: "gsc", kind: "performance", formats: [], fileName: "x", sha256: "f".repeat(64), parserVersion: 1, rows: 2, importedAt: NOW }, facts)).rejects.toThrow();
    expect((await get(`/imports/${site.host}`)).imports).toEqual([]);
    expect((await get(`/queries/${site.host}`)).queries).toEqual([]);
  });

  it("stores Ahrefs UTF-16 links without formula characters; live and lost apart", async () => {
    const header = ["Referring page URL", "Domain rating", "Target URL", "Anchor", "Nofollow", "First seen", "Lost"].join("\t");
    const rows = [`https://blog.example.com/p\t54\thttps://${site.host}/\t=HYPERLINK("x")\tfalse\t2026-05-01 10:00:00\t`, `https://b.example.org/\t12\thttps://${site.host}/a\t@cmd\ttrue\t2026-06-01 10:00:00\t2026-10-05 00:00:00`];
    expect((await upload(utf16le([header, ...rows].join("\n")), "links.csv")).statusCode).toBe(201);
    expect((await get(`/backlinks/${site.host}`)).links).toEqual([
      { source: "https://blog.example.com/p", target: `https://${site.host}/`, anchor: 'HYPERLINK("x")', nofollow: false, source_rating: 54, rating_scale: "ahrefs_dr", first_seen: Date.UTC(2026, 4, 1) / 1000, lost_at: null, provider: "ahrefs" },
    ]);
    const lost = await get(`/backlinks/${site.host}?state=lost`);
    expect(lost.links.map((l: { anchor: string; nofollow: boolean; lost_at: number }) => [l.anchor, l.nofollow, l.lost_at])).toEqual([["cmd", true, Date.UTC(2026, 9, 5) / 1000]]);
  });

  it("takes each link from the newest export that has it, once, and the older one again when that export is deleted", async () => {
    const header = ["Referring page URL", "Domain rating", "Target URL", "Anchor", "Nofollow", "First seen", "Lost"].join("\t");
    // The blog link is lost now; a new link appears twice in the file (one link).
    const rows = [`https://blog.example.com/p\t54\thttps://${site.host}/\tHYPERLINK("x")\tfalse\t2026-05-01 10:00:00\t2026-11-01 00:00:00`, `https://new.example.net/\t30\thttps://${site.host}/n\tnew\tfalse\t2026-10-01 10:00:00\t`, `https://new.example.net/\t31\thttps://${site.host}/n\tnew\tfalse\t2026-10-02 10:00:00\t`];
    const res = await upload(utf16le([header, ...rows].join("\n")), "links-later.csv");
    expect(res.statusCode).toBe(201);
    const live = await get(`/backlinks/${site.host}`);
    expect(live.links.map((l: { source: string; source_rating: number }) => [l.source, l.source_rating])).toEqual([["https://new.example.net/", 31]]);
    expect(live.page.total).toBe(1);
    const lost = await get(`/backlinks/${site.host}?state=lost`);
    expect(lost.links.map((l: { source: string; lost_at: number }) => [l.source, l.lost_at])).toEqual([["https://blog.example.com/p", Date.UTC(2026, 10, 1) / 1000], ["https://b.example.org/", Date.UTC(2026, 9, 5) / 1000]]);
    expect((await gw.call("DELETE", `/api/v1/imports/batches/${res.json().import.id}`)).statusCode).toBe(200);
    expect((await get(`/backlinks/${site.host}`)).links.map((l: { source: string }) => l.source)).toEqual(["https://blog.example.com/p"]);
    expect((await get(`/backlinks/${site.host}?state=lost`)).page.total).toBe(1);
  });
});

describe("indexing from both engines", () => {
  it("joins GSC Page indexing and Yandex pages in search, with the gaps between them", async () => {
    const zip = buildZip([
      { name: "Chart.csv", data: "Date,Not indexed,Indexed,Impressions\n2026-11-01,40,200,900\n2026-11-08,35,210,950\n" },
      { name: "Critical issues.csv", data: "Reason,Source,Validation,Pages\nSoft 404,Website,Not Started,2\nCrawled - currently not indexed,Google systems,Not Started,33\n" },
      { name: "Soft 404/Table.csv", data: `URL,Last crawled\nhttps://${site.host}/a,2026-11-01\nhttps://${site.host}/b,2026-11-02\n` },
    ]);
    expect((await upload(zip, "Coverage.zip")).statusCode).toBe(201);
    const yandex = `updateDate,url,httpCode,status,target,lastAccess,title,event\n2026-11-10,https://${site.host}/a,200,SEARCHABLE,,2026-11-09,A,\n2026-11-10,https://${site.host}/b,404,HTTP_ERROR,,2026-11-09,,DELETE\n2026-11-10,https://${site.host}/c,200,SEARCHABLE,,2026-11-09,C,\n`;
    expect((await upload(yandex, "pages.csv")).statusCode).toBe(201);
    const ix = await get(`/indexing/${site.host}`);
    // GSC's chart (2026-11-08) is 14 days old, fresh for gsc_indexing (14); Yandex's list (2026-11-10)
    // is 12 days old, expired for yandex_webmaster (fresh within 3, expired after 9): the section is expired.
    expect(ix.note).toBe("The yandex_webmaster data end on 2026-11-10, 12 days ago: expired (fresh within 3 days, expired after 9); import a newer export.");
    expect(ix).toMatchObject({
      data_state: "expired",
      google: { indexed: 210, not_indexed: 35, updated: "2026-11-08", urls_not_indexed: 2 },
      yandex: { searchable: 2, excluded: 1, reasons: [{ reason: "HTTP_ERROR", pages: 1 }] },
      gaps: { not_in_google: [`https://${site.host}/a`], in_neither: [`https://${site.host}/b`] },
      summary: "Google: 210 indexed, 35 not indexed (2026-11-08); Yandex: 2 in search, 1 excluded.",
    });
    expect(ix.actions[0]).toEqual({ engine: "google", reason: "Crawled - currently not indexed", pages: 33 });
  });

  it("is the caller's own: another account monitoring the host sees none of it", async () => {
    const other = await gw.newAccount("third@example.com");
    expect((await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: site.host } })).statusCode).toBe(201);
    expect(await get(`/indexing/${site.host}`, other.key)).toMatchObject({ data_state: "missing", google: null, yandex: null });
    expect((await get(`/imports/${site.host}`, other.key)).imports).toEqual([]);
  });
});

describe("tracked positions from a Topvisor export", () => {
  it("answers positions, pages and volatility from the rank checks", async () => {
    const days = Array.from({ length: 8 }, (_, i) => `2026-11-0${i + 1}`);
    const tv = {
      regions: { "1": { searcher: "yandex", region: 213, device: "desktop" } },
      result: {
        keywords: [
          { name: "диван", group_name: "Диваны", positionsData: Object.fromEntries(days.map((d, i) => [`${d}:9:1`, { position: i === 7 ? "12" : "5", relevant_url: `https://${site.host}/d` }])) },
          { name: "кровать", group_name: "Кровати", positionsData: Object.fromEntries(days.map((d) => [`${d}:9:1`, { position: "3", relevant_url: `https://${site.host}/k` }])) },
        ],
      },
    };
    expect((await upload(JSON.stringify(tv), "positions.json")).statusCode).toBe(201);
    const down = await get(`/positions/${site.host}?trend=down`);
    expect(down.keywords).toEqual([
      { query: "диван", engine: "yandex", device: "desktop", region: 213, group: "Диваны", position: 12, previous: 5, week_ago: 5, change_week: -7, best: 5, page: `https://${site.host}/d`, checked: "2026-11-08", trend: "down", volume: null },
    ]);
    expect((await get(`/positions/${site.host}`)).page.total).toBe(2);
    const pages = await get(`/positions/${site.host}/pages`);
    expect(pages.pages.map((x: { url: string; top3: number; top10: number }) => [x.url, x.top3, x.top10])).toEqual([[`https://${site.host}/k`, 1, 1], [`https://${site.host}/d`, 0, 0]]);
    const vol = await get(`/positions/${site.host}/volatility?days=7`);
    // One of two keywords moved on 11-08 (5 → 12); nothing moved on the days before. This is the only
    // site with rank checks, so the market is the site.
    expect(vol.series).toEqual(days.slice(1).map((date) => ({ date, site_pct: date === "2026-11-08" ? 50 : 0, market_pct: date === "2026-11-08" ? 50 : 0 })));
    expect(vol.market_median_pct).toBe(0);
    expect(vol.shakes).toEqual([{ date: "2026-11-08", market_pct: 50, keywords: [{ query: "диван", from: 5, to: 12 }] }]);
  });
});

describe("competitor history from Topvisor SERP snapshots", () => {
  it("answers share of voice per point with rivals and movers, the caller's own only", async () => {
    expect((await get(`/competitors/${site.host}/history`)).note).toContain("snapshots_2/history");
    const self = site.host.replace(/:\d+$/, "");
    const list = (day: string, domains: string[]) => Object.fromEntries(domains.map((d, i) => [`${day}:${i + 1}:1`, { url: `https://${d}/p`, domain: d }]));
    const snap = {
      regions: { "1": { searcher: "yandex", region: 213, device: "desktop" } },
      result: {
        keywords: [
          { name: "диван", snapshotsData: { ...list("2026-11-01", [self, "rival.ru"]), ...list("2026-11-08", ["rival.ru", self]) } },
          { name: "кровать", snapshotsData: { ...list("2026-11-01", ["rival.ru"]), ...list("2026-11-08", ["www.rival.ru", "other.ru", self]) } },
        ],
      },
    };
    const res = await upload(JSON.stringify(snap), "snapshots.json");
    expect(res.statusCode).toBe(201);
    expect(res.json().import).toMatchObject({ provider: "topvisor", formats: ["topvisor_snapshots"], rows: 8, period: { start: "2026-11-01", end: "2026-11-08" } });
    const h = await get(`/competitors/${site.host}/history?points=2&step=7`);
    // Rank checks of these queries carry no volume: equal weights. 11-01: self 28.5/57 = 50 %, rival
    // (15.7 + 28.5)/57 = 77.54 %; 11-08: self (15.7 + 11.0)/57 = 46.84 %, rival 100 %, other 15.7/57 = 27.54 %.
    expect(h).toEqual({
      host: site.host,
      // The snapshots end on 2026-11-08, 14 days before today: expired for topvisor (fresh within 2 days).
      data_state: "expired",
      note: "The topvisor data end on 2026-11-08, 14 days ago: expired (fresh within 2 days, expired after 6); import a newer export.",
      step_days: 7,
      days: 14,
      valid_points: 2,
      checked_queries: 2,
      weights: "equal",
      timeline: [
        { date: "2026-11-01", checked: 2, valid: true },
        { date: "2026-11-08", checked: 2, valid: true },
      ],
      my_share: { domain: self, shares: [50, 46.84], mean: 48.42, last: 46.84 },
      rivals: [
        { domain: "rival.ru", shares: [77.54, 100], mean: 88.77, last: 100 },
        { domain: "other.ru", shares: [0, 27.54], mean: 13.77, last: 27.54 },
      ],
      movers: [
        { domain: "other.ru", first: 0, last: 27.54, change: 27.54 },
        { domain: "rival.ru", first: 77.54, last: 100, change: 22.46 },
      ],
    });
    // No market report yet: /competitors from the newest snapshots (rival.ru in both top 10s, other.ru in one of two).
    expect((await get(`/competitors/${site.host}`)).competitors).toEqual([
      { domain: "rival.ru", common_keywords: 2, similarity_pct: 100, visibility: null, top10: 2, pages_in_index: null },
      { domain: "other.ru", common_keywords: 1, similarity_pct: 50, visibility: null, top10: 1, pages_in_index: null },
    ]);
    const bad = await gw.call("GET", `/api/v1/competitors/${site.host}/history?step=14`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "bad_param" });
    const other = await gw.newAccount("serp-other@example.com");
    expect((await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: site.host } })).statusCode).toBe(201);
    expect(await get(`/competitors/${site.host}/history`, other.key)).toMatchObject({ data_state: "missing", checked_queries: 0, rivals: [], my_share: { shares: [] } });
    expect((await gw.call("DELETE", `/api/v1/imports/batches/${res.json().import.id}`)).statusCode).toBe(200);
    expect(await get(`/competitors/${site.host}/history`)).toMatchObject({ data_state: "missing", valid_points: 0, rivals: [] });
  });

  it("measures volatility as the top-10 lists' rank distance once snapshots are imported", async () => {
    const self = site.host.replace(/:\d+$/, "");
    const list = (day: string, domains: string[]) => Object.fromEntries(domains.map((d, i) => [`${day}:${i + 1}:1`, { url: `https://${d}/p`, domain: d }]));
    const ten = Array.from({ length: 10 }, (_, i) => `n${i}.ru`);
    const mid = ["rival.ru", "other.ru", self];
    const snap = {
      regions: { "1": { searcher: "yandex", region: 213, device: "desktop" } },
      result: {
        keywords: [
          { name: "диван", snapshotsData: { ...list("2026-11-08", ["rival.ru", self]), ...list("2026-11-09", [self, "rival.ru", "new.ru"]), ...list("2026-11-10", ten), ...list("2026-11-11", ten) } },
          { name: "кровать", snapshotsData: { ...list("2026-11-08", mid), ...list("2026-11-09", mid), ...list("2026-11-10", mid), ...list("2026-11-11", mid) } },
        ],
      },
    };
    const res = await upload(JSON.stringify(snap), "snapshots-volatility.json");
    expect(res.statusCode).toBe(201);
    const vol = await get(`/positions/${site.host}/volatility?days=7`);
    // диван 11-09: rival 1→2, self 2→1, new.ru in at 3 (|3 − 11| = 8): D = 10, 9.09 %; кровать: 0.
    // 11-10: the three leave (10 + 9 + 8) and ten come in (10 + … + 1 = 55): D = 82, 74.55 %; then 0.
    // This is the only site with snapshots: the market is its queries (median of two = the mean).
    const none = { site_pct: null, market_pct: null };
    // Snapshots until 2026-11-11 are 11 days old today: expired for topvisor (fresh within 2 days, 6 at most stale).
    expect(vol).toMatchObject({ method: "rank_distance", data_state: "expired", note: "The topvisor data end on 2026-11-11, 11 days ago: expired (fresh within 2 days, expired after 6); import a newer export.", market_median_pct: 4.5 });
    expect(vol.series).toEqual([
      { date: "2026-11-05", ...none },
      { date: "2026-11-06", ...none },
      { date: "2026-11-07", ...none },
      { date: "2026-11-08", ...none },
      { date: "2026-11-09", site_pct: 4.5, market_pct: 4.5 },
      { date: "2026-11-10", site_pct: 37.3, market_pct: 37.3 },
      { date: "2026-11-11", site_pct: 0, market_pct: 0 },
    ]);
    // 37.3 > 2 × 4.5 and ≥ the p90 (37.3): a shake; the site's own диван went from 1 to not found.
    expect(vol.shakes).toEqual([{ date: "2026-11-10", market_pct: 37.3, keywords: [{ query: "диван", from: 1, to: null }] }]);
    expect((await gw.call("DELETE", `/api/v1/imports/batches/${res.json().import.id}`)).statusCode).toBe(200);
    expect((await get(`/positions/${site.host}/volatility?days=7`)).method).toBe("moved_share");
  });
});

describe("competitors, keyword gap and market from Keys.so reports", () => {
  it("classifies keywords by the gap filters with gains at the best rival's position", async () => {
    const self = site.host.replace(/:\d+$/, "");
    const kw = (domain: string, rows: [string, number, number][]) => JSON.stringify({ base: "msk", data: rows.map(([word, pos, wsk]) => ({ word, pos, wsk, ws: wsk * 3, url: `https://${domain}/${wsk}` })) });
    const uploads: [string, string][] = [
      [JSON.stringify({ base: "msk", data: [{ name: "rival-a.ru", cnt: 120, perc: 30, vis: 500 }, { name: "rival-b.ru", cnt: 80, perc: 50, vis: 300 }, { name: self, cnt: 999, perc: 100 }] }), "concurents.json"],
      [kw(self, [["диван", 8, 1000], ["кресло", 2, 500]]), "mine.json"],
      [kw("rival-a.ru", [["диван", 2, 1000], ["кровать", 5, 2000], ["кресло", 5, 500]]), "a.json"],
      [kw("rival-b.ru", [["диван", 4, 1000], ["кровать", 60, 2000], ["кресло", 9, 500]]), "b.json"],
    ];
    for (const [file, name] of uploads) expect((await upload(file, name)).statusCode).toBe(201);
    const c = await get(`/competitors/${site.host}`);
    expect(c.competitors.map((x: { domain: string }) => x.domain)).toEqual(["rival-b.ru", "rival-a.ru"]);
    expect(c).toMatchObject({ source: "keysso", base: "msk", ts: NOW });
    const missing = await get(`/keyword-gap/${site.host}`);
    // кровать: rival-a at 5, rival-b beyond 50; 2000 × CTR(5) 7.2 % = 144.
    expect(missing).toMatchObject({ kind: "missing", total: 1, rows: [{ keyword: "кровать", volume: 2000, my_pos: null, my_url: null, rival: "rival-a.ru", rival_pos: 5, url: "https://rival-a.ru/2000", rivals: 1, gain: 144 }] });
    const behind = await get(`/keyword-gap/${site.host}?kind=behind`);
    // диван: 8 against 2 and 4; 1000 × (15.7 % − 3.2 %) = 125.
    expect(behind.rows.map((r: { keyword: string; rival: string; gain: number }) => [r.keyword, r.rival, r.gain])).toEqual([["диван", "rival-a.ru", 125]]);
    const m = await get(`/market/${site.host}`);
    expect(m).toMatchObject({ source: "keysso", filter: "all", rivals: ["rival-a.ru", "rival-b.ru"], overlap: 0.667, counts: { all: 3, missing: 0, behind: 1, strong: 1, shared: 2, unique: 0, theirs: 1 }, mine: { domain: self, keywords: 2, top10: 2 }, country: { base: "msk", engine: "yandex", country: "ru" } });
    expect(m.opportunities.map((o: { keyword: string; gain: number }) => [o.keyword, o.gain])).toEqual([["кровать", 144], ["диван", 125], ["кресло", 0]]);
    expect((await get(`/market/${site.host}?filter=strong`)).opportunities.map((o: { keyword: string }) => o.keyword)).toEqual(["кресло"]);
    // Serpstat has no importer: it is not offered as a source.
    const serpstat = await gw.call("GET", `/api/v1/market/${site.host}?src=serpstat`);
    expect([serpstat.statusCode, serpstat.json().code]).toEqual([400, "bad_param"]);
  });
});

describe("sources the administrator turned off (SVC_SEARCH_SOURCES_OFF)", () => {
  it("answers 503 service_off for their imports and for sections reading only them; /providers shows them off", async () => {
    const off = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_SEARCH_SOURCES_OFF: "ahrefs, semrush,gsc" }, shareWith: gw });
    try {
      const before = (await get(`/imports/${site.host}`)).page.total as number;
      const header = ["Referring page URL", "Domain rating", "Target URL", "Anchor", "Nofollow", "First seen", "Lost"].join("\t");
      const file = utf16le([header, `https://off.example.com/\t9\thttps://${site.host}/\toff\tfalse\t2026-05-01 10:00:00\t`].join("\n"));
      const refused = await off.call("POST", `/api/v1/imports/${site.host}`, { body: { file: b64(file), file_name: "off.csv" } });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers["retry-after"]).toBeUndefined();
      expect(refused.json()).toMatchObject({ code: "service_off", error: "imports from ahrefs are turned off by the administrator of this installation (SVC_SEARCH_SOURCES_OFF)" });
      // Named in the body, refused before the file is read.
      const named = await off.call("POST", `/api/v1/imports/${site.host}`, { body: { file: b64("x"), file_name: "x.csv", provider: "semrush" } });
      expect([named.statusCode, named.json().code]).toEqual([503, "service_off"]);
      expect((await get(`/imports/${site.host}`)).page.total).toBe(before);
      // Backlinks read only gsc, ahrefs and semrush: all off. The same data on the other gateway stays readable.
      const links = await off.call("GET", `/api/v1/backlinks/${site.host}`);
      expect(links.statusCode).toBe(503);
      expect(links.json()).toMatchObject({ code: "service_off", error: "this section reads only gsc, ahrefs, semrush, which the administrator of this installation turned off (SVC_SEARCH_SOURCES_OFF)" });
      expect((await gw.call("GET", `/api/v1/backlinks/${site.host}`)).statusCode).toBe(200);
      // Queries also read Yandex Webmaster, which is on: an answer, not service_off.
      expect((await off.call("GET", `/api/v1/queries/${site.host}`)).statusCode).toBe(200);
      const providers = (await off.call("GET", "/api/v1/providers")).json().providers as { provider: string; enabled: boolean }[];
      expect(providers.filter((p) => !p.enabled).map((p) => p.provider)).toEqual(["gsc", "ahrefs", "semrush"]);
      expect(providers.every((p) => ["gsc", "ahrefs", "semrush"].includes(p.provider) !== p.enabled)).toBe(true);
      expect(((await get("/providers")).providers as { enabled: boolean }[]).every((p) => p.enabled)).toBe(true);
    } finally {
      await off.close();
    }
  });
});

describe("a large import on the embedded store (one connection), in bounded transactions", () => {
  let big: TestGateway;
  beforeAll(async () => {
    // 1,000 facts a transaction, so 10,000 links take ten.
    big = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_IMPORT_SYNC_MAX_MB: "0", SVC_RATE_PER_HOUR: "10000000" }, storeOverrides: (_store, db) => createStore(db, { importChunkRows: 1000 }) });
    expect((await big.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
  });
  afterAll(async () => {
    await big.close();
  });
  afterEach(() => expect(big.violations).toEqual([]));
  const links = (n: number) => `Page ascore,Source url,Target url,Anchor,Lost link,Last seen\n${Array.from({ length: n }, (_, i) => `${i % 90},https://s${i}.example/,https://${site.host}/,a${i},${i % 4 === 0},2026-11-01`).join("\n")}\n`;
  const count = async (table: string) => Number((await big.db.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table} WHERE host = $1`, [site.host]))[0]?.n);

  it("answers polls between its transactions with its progress, and shows none of its rows before the last commit", async () => {
    const posted = await big.call("POST", `/api/v1/imports/${site.host}`, { body: { file: b64(links(10_000)), file_name: "links.csv" } });
    expect(posted.statusCode).toBe(202);
    const id = posted.json().job.id as number;
    const seen: { state: string; progress: number; step: string; links: number; batches: number }[] = [];
    for (;;) {
      const job = (await big.call("GET", `/api/v1/jobs/${id}`)).json().job;
      const links = (await big.call("GET", `/api/v1/backlinks/${site.host}`)).json().page.total as number;
      const batches = (await big.call("GET", `/api/v1/imports/${site.host}`)).json().page.total as number;
      seen.push({ state: job.state, progress: job.progress, step: job.items[0]?.step ?? "", links, batches });
      if (job.state !== "running") break;
      // A client's next poll comes over the network: a turn of the event loop at least.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Polls were answered while the links were being stored (between two of the ten transactions),
    // the progress only grew, and nothing of the batch was visible until it was done.
    const storing = seen.filter((s) => s.state === "running" && /^storing \d+ of 10000 facts$/.test(s.step) && s.progress > 50 && s.progress < 99);
    expect(storing.length).toBeGreaterThanOrEqual(2);
    expect(new Set(storing.map((s) => s.step)).size).toBeGreaterThanOrEqual(2);
    expect(seen.map((s) => s.progress)).toEqual([...seen.map((s) => s.progress)].sort((a, b) => a - b));
    expect(seen.filter((s) => s.state === "running").every((s) => s.links === 0 && s.batches === 0)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ state: "done", progress: 100, links: 7_500, batches: 1 });
    expect((await big.call("GET", `/api/v1/backlinks/${site.host}?state=lost`)).json().page.total).toBe(2_500);
  });

  it("stores a GSC Performance table's period sums in bounded transactions too, unread until the last commit", async () => {
    // 4,501 query rows and 500 page rows in the file (5,001 facts): "q4493" twice is one row, so five
    // transactions of 1,000 sums each.
    const queries = `Top queries,Clicks,Impressions,CTR,Position\n${Array.from({ length: 4_500 }, (_, i) => `q${i},${i % 7},${100 + i},1%,${1 + (i % 30)}`).join("\n")}\nq4493,1,10,10%,1\n`;
    const pages = `Top pages,Clicks,Impressions,CTR,Position\n${Array.from({ length: 500 }, (_, i) => `https://${site.host}/p${i},1,10,10%,2`).join("\n")}\n`;
    const posted = await big.call("POST", `/api/v1/imports/${site.host}`, { body: { file: b64(buildZip([{ name: "Queries.csv", data: queries }, { name: "Pages.csv", data: pages }])), file_name: "perf.zip" } });
    expect(posted.statusCode).toBe(202);
    const id = posted.json().job.id as number;
    const seen: { state: string; progress: number; step: string; queries: number; rows: number }[] = [];
    for (;;) {
      const job = (await big.call("GET", `/api/v1/jobs/${id}`)).json().job;
      const q = (await big.call("GET", `/api/v1/queries/${site.host}?limit=1`)).json();
      const rows = await count("search_period");
      seen.push({ state: job.state, progress: job.progress, step: job.items[0]?.step ?? "", queries: q.page.total as number, rows });
      if (job.state !== "running") break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const storing = seen.filter((s) => s.state === "running" && /^storing \d+ of 5001 facts$/.test(s.step) && s.progress > 50 && s.progress < 99);
    // Polls came between the period-sum transactions: rows were committed (more each time) while none was read.
    expect(new Set(storing.map((s) => s.step)).size).toBeGreaterThanOrEqual(2);
    const partial = storing.map((s) => s.rows).filter((n) => n > 0 && n < 5_000);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    expect(partial).toEqual([...partial].sort((a, b) => a - b));
    expect(seen.map((s) => s.progress)).toEqual([...seen.map((s) => s.progress)].sort((a, b) => a - b));
    expect(seen.filter((s) => s.state === "running").every((s) => s.queries === 0)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ state: "done", progress: 100, queries: 4_500, rows: 5_000 });
    // Most clicks first: "q4493" (6 clicks as i % 7 = 6, the last such i) was in the file twice, so
    // it is one row with its sums added (7 clicks, 4,593 + 10 impressions).
    const top = (await big.call("GET", `/api/v1/queries/${site.host}?limit=2`)).json();
    expect(top.queries.map((q: { query: string; clicks: number; impressions: number }) => [q.query, q.clicks, q.impressions])).toEqual([
      ["q4493", 7, 4_603],
      ["q4486", 6, 4_586],
    ]);
  });

  it("leaves no period sums when an import fails after some of them committed", async () => {
    const account = (await big.call("GET", "/api/v1/me")).json().user.id as number;
    const before = await count("search_period");
    const facts = emptyFacts();
    for (let i = 0; i < 2_500; i++) facts.period.push({ engine: "google", dim: "query", key: `f${i}`, key2: "", clicks: 1, impressions: 2, posXImpr: 2, prevClicks: null, prevImpressions: null, prevPosXImpr: null });
    facts.ranks.push({ engine: "google", region: Number.NaN, device: "desktop", keyword: "a", date: "2026-01-01", position: 1, url: null, group: "", volume: null });
    const steps: number[] = [];
    const batch = { accountId: account, host: site.host, provider: "gsc" as const, kind: "performance" as const, formats: [], fileName: "x", parserVersion: 1, rows: 2_501, importedAt: NOW, sha256: "c".repeat(64) };
    await expect(big.store.search.importBatch(batch, facts, async (stored) => void steps.push(stored))).rejects.toThrow(RangeError);
    expect(steps).toEqual([1_000, 2_000, 2_500]);
    expect(await count("search_period")).toBe(before);
  });

  it("leaves no rows when it fails after some of its transactions committed, nor when its process stopped (the sweeper at start)", async () => {
    const account = (await big.call("GET", "/api/v1/me")).json().user.id as number;
    const before = await count("backlinks");
    const facts = emptyFacts();
    for (let i = 0; i < 3_000; i++) facts.backlinks.push({ sourceUrl: `https://f${i}.example/`, targetUrl: `https://${site.host}/`, anchor: "", sourceDomain: `f${i}.example`, nofollow: false, sourceRating: 1, ratingScale: null, firstSeen: null, lastSeen: null, lostAt: null });
    facts.ranks.push({ engine: "google", region: Number.NaN, device: "desktop", keyword: "a", date: "2026-01-01", position: 1, url: null, group: "", volume: null });
    const batch = { accountId: account, host: site.host, provider: "semrush" as const, kind: "backlinks" as const, formats: [], fileName: "x", parserVersion: 1, rows: 3_001, importedAt: NOW };
    const steps: number[] = [];
    await expect(big.store.search.importBatch({ ...batch, sha256: "e".repeat(64) }, facts, async (stored) => void steps.push(stored))).rejects.toThrow(RangeError);
    // Three transactions of links committed before the rank check failed; all of it is gone.
    expect(steps).toEqual([1_000, 2_000, 3_000]);
    expect(await count("backlinks")).toBe(before);
    // The links batch and the GSC Performance one above; not the failed one.
    expect((await big.call("GET", `/api/v1/imports/${site.host}`)).json().page.total).toBe(2);
    // A process that stops mid-import (here: one that never resumes after its second transaction)
    // leaves an incomplete batch; a gateway starting on the store removes it and its rows.
    const stalled = emptyFacts();
    stalled.backlinks.push(...facts.backlinks);
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    void big.store.search.importBatch({ ...batch, sha256: "d".repeat(64) }, stalled, async (stored) => {
      if (stored === 2_000) {
        stop();
        await new Promise(() => {});
      }
    });
    await stopped;
    expect(await count("backlinks")).toBe(before + 2_000);
    expect(Number((await big.db.query<{ n: number | string }>("SELECT count(*) AS n FROM import_batches WHERE NOT complete"))[0]?.n)).toBe(1);
    const restarted = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1" }, shareWith: big });
    try {
      expect(await count("backlinks")).toBe(before);
      expect(Number((await big.db.query<{ n: number | string }>("SELECT count(*) AS n FROM import_batches WHERE NOT complete"))[0]?.n)).toBe(0);
      expect((await restarted.call("GET", `/api/v1/backlinks/${site.host}`)).json().page.total).toBe(7_500);
    } finally {
      await restarted.close();
    }
  });
});
