import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, T0_MS, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { buildZip } from "../harness/zip-writer.ts";

// Search sections of known truth (issue 31, §3): volatility from sparse snapshots and daily rank
// checks, indexing crossed with Svc's own crawl, the market's own row, a volume nobody knows. Today
// is 2026-11-22; every import below ends 2026-11-21 unless it says otherwise.

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

const upload = async (file: Buffer | string, file_name: string) => {
  const res = await gw.call("POST", `/api/v1/imports/${site.host}`, { body: { file: Buffer.from(file).toString("base64"), file_name } });
  expect(res.statusCode).toBe(201);
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const get = async (path: string): Promise<any> => {
  const res = await gw.call("GET", `/api/v1${path}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const day = (d: number) => `2026-11-${String(d).padStart(2, "0")}`;

describe("volatility with weekly SERP snapshots and daily rank checks", () => {
  it("measures the rank checks' moved share, and says the snapshots were too sparse", async () => {
    // Rank checks 2026-11-14 … 21 of two keywords; диван falls from 5 to 12 on the 21st. No volumes.
    const days = Array.from({ length: 8 }, (_, i) => day(14 + i));
    await upload(
      JSON.stringify({
        regions: { "1": { searcher: "yandex", region: 213, device: "desktop" } },
        result: {
          keywords: [
            { name: "диван", group_name: "", positionsData: Object.fromEntries(days.map((d) => [`${d}:9:1`, { position: d === day(21) ? "12" : "5", relevant_url: `https://${site.host}/d` }])) },
            { name: "кровать", group_name: "", positionsData: Object.fromEntries(days.map((d) => [`${d}:9:1`, { position: "3", relevant_url: `https://${site.host}/k` }])) },
          ],
        },
      }),
      "positions.json",
    );
    // Snapshots a week apart (11-14, 11-21): no list has the day before's to compare with.
    const list = (d: string) => Object.fromEntries(["a.ru", "b.ru", "c.ru"].map((x, i) => [`${d}:${i + 1}:1`, { url: `https://${x}/`, domain: x }]));
    await upload(JSON.stringify({ regions: { "1": { searcher: "yandex", region: 213, device: "desktop" } }, result: { keywords: [{ name: "диван", snapshotsData: { ...list(day(14)), ...list(day(21)) } }] } }), "snapshots.json");
    const v = await get(`/positions/${site.host}/volatility?days=14`);
    expect(v).toMatchObject({ method: "moved_share", data_state: "fresh", market_median_pct: 0 });
    expect(v.note).toBe(
      "The SERP snapshots are sparse: 2 days with lists in the window measure 0 (a day needs a query's top-10 list on the day before too); the daily rank checks measure 7: the volatility is their moved share.",
    );
    // 11-08 … 11-14 have no check the day before; then nothing moves until one of two keywords on the 21st.
    expect(v.series).toEqual(Array.from({ length: 14 }, (_, i) => {
      const d = day(8 + i);
      const pct = d <= day(14) ? null : d === day(21) ? 50 : 0;
      return { date: d, site_pct: pct, market_pct: pct };
    }));
    expect(v.shakes).toEqual([{ date: day(21), market_pct: 50, keywords: [{ query: "диван", from: 5, to: 12 }] }]);
  });

  it("shows an unknown volume as null, never 0, in the ranking pages", async () => {
    const pages = await get(`/positions/${site.host}/pages`);
    expect(pages.pages).toEqual([
      { url: `https://${site.host}/k`, keywords: 1, avg_position: 3, top3: 1, top10: 1, volume: null },
      { url: `https://${site.host}/d`, keywords: 1, avg_position: 12, top3: 0, top10: 0, volume: null },
    ]);
    expect((await get(`/positions/${site.host}`)).keywords.map((k: { volume: number | null }) => k.volume)).toEqual([null, null]);
  });
});

describe("indexing crossed with Svc's own crawl", () => {
  it("lists the sitemap page Google skips and the noindex page Yandex still shows, with robots.txt dated by its version", async () => {
    const hidden = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Hidden page of the small site</title><meta name="robots" content="noindex"></head><body><h1>Hidden</h1><p>${"word ".repeat(300)}</p><a href="/">Home</a></body></html>`;
    site.pages.set("/hidden", hidden);
    site.pages.set("/sitemap.xml", `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${["/", "/about", "/contact", "/hidden"].map((p) => `<url><loc>${site.url}${p}</loc></url>`).join("")}</urlset>`);
    const started = await gw.call("POST", `/api/v1/crawl/${site.host}`);
    expect(started.statusCode).toBe(202);
    expect(await untilJobDone(gw, started.json().job.id as number)).toMatchObject({ state: "done" });
    // Google: /about crawled, not indexed. Yandex: /, /contact and /hidden in its search.
    await upload(
      buildZip([
        { name: "Chart.csv", data: "Date,Not indexed,Indexed,Impressions\n2026-11-21,1,3,900\n" },
        { name: "Critical issues.csv", data: "Reason,Source,Validation,Pages\nCrawled - currently not indexed,Google systems,Not Started,1\n" },
        { name: "Crawled - currently not indexed/Table.csv", data: `URL,Last crawled\n${site.url}/about,2026-11-20\n` },
      ]),
      "Coverage.zip",
    );
    const row = (p: string) => `2026-11-21,${site.url}${p},200,SEARCHABLE,,2026-11-20,T,`;
    await upload(`updateDate,url,httpCode,status,target,lastAccess,title,event\n${["/", "/contact", "/hidden"].map(row).join("\n")}\n`, "pages.csv");
    const ix = await get(`/indexing/${site.host}`);
    expect(ix).toMatchObject({ data_state: "fresh", note: null, robots_ts: NOW });
    expect(ix.gaps).toEqual({
      not_in_google: [],
      in_neither: [],
      sitemap_not_indexed: [`${site.url}/about`],
      noindex_in_search: [`${site.url}/hidden`],
      ok_not_indexed: [`${site.url}/about`],
    });
    expect(ix.own).toMatchObject({ run: ix.run, noindex: [`${site.url}/hidden`], robots: { seen_at: NOW, status: 200 } });
    expect(ix.own.crawl).toMatchObject({ pages_read: 4, ok: 4, noindex: 1, in_sitemap: 4, truncated: false });
  });
});

describe("the market's own row", () => {
  it("gives mine.visibility from the site's row of the competitor report", async () => {
    const self = site.host.replace(/:\d+$/, "");
    await upload(JSON.stringify({ base: "msk", data: [{ name: "rival.ru", cnt: 40, perc: 20, vis: 900 }, { name: self, cnt: 100, perc: 100, vis: 300 }] }), "concurents.json");
    await upload(JSON.stringify({ base: "msk", data: [{ word: "диван", pos: 4, wsk: 1000, ws: 3000, url: `https://${self}/d` }] }), "mine.json");
    const m = await get(`/market/${site.host}`);
    // Imported today: fresh for keysso (35 days).
    expect(m).toMatchObject({ data_state: "fresh", source: "keysso", mine: { domain: self, keywords: 1, top10: 1, visibility: 300 } });
    expect(m.domains.map((d: { domain: string }) => d.domain)).toEqual(["rival.ru"]);
    expect(m.notes).toEqual(["No rival keyword reports: only the site's own keywords are known."]);
  });
});

describe("GET /site's search block", () => {
  it("summarises the caller's search data from what Svc holds; baseline and master_index stay null", async () => {
    const WEEK = [100, 120, 130, 125, 110, 60, 50];
    const rows = Array.from({ length: 28 }, (_, i) => `${new Date(Date.UTC(2026, 9, 25 + i)).toISOString().slice(0, 10)},${WEEK[i % 7]},1000,5%,7`);
    await upload(buildZip([{ name: "Chart.csv", data: `Date,Clicks,Impressions,CTR,Position\n${rows.join("\n")}\n` }]), "Performance.zip");
    const s = await get(`/site/${site.host}`);
    // Seven imports in this file; four weeks of 695 clicks × 30/28 = 2979, ending yesterday.
    expect(s.search).toEqual({ imports: 7, source: "gsc", data_state: "fresh", data_until: "2026-11-21", real_monthly_organic: 2979, verdict: "flat" });
    expect([s.baseline, s.master_index]).toEqual([null, null]);
    const other = await gw.newAccount("no-imports@example.com");
    expect((await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: site.host } })).statusCode).toBe(201);
    expect((await gw.call("GET", `/api/v1/site/${site.host}`, { key: other.key })).json().search).toBeNull();
  });
});
