import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { buildZip } from "../harness/zip-writer.ts";

// Traffic of known truth (issue 31, §3): GSC Chart exports with a weekly pattern, a sustained fall,
// a one-day spike, new and old. What the user is told — data_state, note, level shift, unusual
// days, verdict and the forecast's days — is computed by hand below; nothing else may be flagged.

let gw: TestGateway;
let site: SmallSite;
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

const DAY_MS = 86_400_000;
const WEEK = [100, 120, 130, 125, 110, 60, 50];
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const chart = (first: string, clicks: readonly number[]) =>
  buildZip([{ name: "Chart.csv", data: `Date,Clicks,Impressions,CTR,Position\n${clicks.map((c, i) => `${dayOf(Date.parse(`${first}T00:00:00Z`) + i * DAY_MS)},${c},${c * 20},5%,7.5`).join("\n")}\n` }]);
const upload = (file: Buffer, key?: string) => gw.call("POST", `/api/v1/imports/${site.host}`, { body: { file: file.toString("base64"), file_name: "Performance.zip" }, ...(key ? { key } : {}) });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const traffic = async (key?: string): Promise<any> => {
  const res = await gw.call("GET", `/api/v1/traffic/${site.host}`, key ? { key } : {});
  expect(res.statusCode).toBe(200);
  return res.json();
};
const points = (days: { date: string; clicks: number }[]) => days.map((d) => [d.date, d.clicks]);

/**
 * 56 days from 2026-09-27 (a weekday 0 of WEEK) to 2026-11-21, the day before the clock's today
 * (2026-11-22): the weekly pattern, a spike of 400 on 2026-10-17 (day 20, weekday 6: 50 expected),
 * and every day from 2026-11-12 (day 46) at 60 % of its weekday: a fall that lasts 10 days.
 */
const FIRST = "2026-09-27";
const clicks = Array.from({ length: 56 }, (_, t) => (t === 20 ? 400 : t >= 46 ? Math.round(WEEK[t % 7]! * 0.6) : WEEK[t % 7]!));
// The last observed week, 2026-11-15 … 11-21 (weekdays 0 … 6 at 60 %): what seasonal naive repeats.
const LAST_WEEK = [60, 72, 78, 75, 66, 36, 30];

describe("a fresh export with a weekly pattern, a sustained fall and a spike", () => {
  it("reports the fall as a level shift, only the spike as unusual, and repeats the last week from today", async () => {
    expect((await upload(chart(FIRST, clicks))).statusCode).toBe(201);
    const t = await traffic();
    // The Chart ends yesterday: 1 day old, gsc is fresh within 4.
    expect(t).toMatchObject({ data_state: "fresh", note: null, source: "gsc", days: 56, data_until: "2026-11-21", verdict: "declining" });
    // ln(31/51) … ln(79/131): the median change of log1p is −0.504, a fall of 39.6 %.
    expect(t.level_shift).toEqual({ date: "2026-11-12", change_pct: -39.6 });
    // The fall's days are not "unusual drops": only the spike is (expected 50, weekday 6).
    expect(t.forecast.unusual_days.map((u: { date: string; clicks: number; expected: number; direction: string }) => [u.date, u.clicks, u.expected, u.direction])).toEqual([["2026-10-17", 400, 50, "spike"]]);
    expect(t.forecast.model).toBe("seasonal_naive");
    // Today (2026-11-22) is weekday 0: the last observed week, twice.
    expect(points(t.forecast.days)).toEqual(
      Array.from({ length: 14 }, (_, i) => [dayOf(Date.parse("2026-11-22T00:00:00Z") + i * DAY_MS), LAST_WEEK[i % 7]]),
    );
    for (const d of t.forecast.days) expect(d.low <= d.clicks && d.clicks <= d.high).toBe(true);
    // The last 28 days: 2 weeks at 695, 2026-11-08 … 11 (100+120+130+125), then 66+36+30 and a week at 417.
    expect(t.real_monthly_organic).toBe(Math.round(((695 * 2 + 475 + 66 + 36 + 30 + 417) * 30) / 28));
    expect(t.real_monthly_organic).toBe(2586);
  });

  it("is stale 11 days later: the note says so, and the forecast still starts today", async () => {
    gw.clock.advance(10 * DAY_MS);
    const t = await traffic();
    // 2026-12-02 10:00: the newest day is 11 days old, between gsc's 4 and 12.
    expect(t.data_state).toBe("stale");
    expect(t.note).toBe("The gsc data end on 2026-11-21, 11 days ago: stale (fresh within 4 days, expired after 12); import a newer export.");
    // 2026-12-02 is 11 days after the last day (weekday 6): weekday 3 of the pattern.
    expect(t.forecast.days[0]).toMatchObject({ date: "2026-12-02", clicks: 75 });
    expect(points(t.forecast.days).slice(0, 7).map((p) => p[1])).toEqual([75, 66, 36, 30, 60, 72, 78]);
  });

  it("is expired 13 days later: no forecast, and the note says why", async () => {
    gw.clock.advance(2 * DAY_MS);
    const t = await traffic();
    expect(t).toMatchObject({ data_state: "expired", forecast: null, verdict: "declining", level_shift: { date: "2026-11-12", change_pct: -39.6 } });
    expect(t.note).toBe(
      "The gsc data end on 2026-11-21, 13 days ago: expired (fresh within 4 days, expired after 12); import a newer export. No forecast: the newest day is 13 days before today, and a forecast from today would have to bridge them without data.",
    );
    gw.clock.advance(-12 * DAY_MS);
  });
});

describe("an export two years old", () => {
  it("is expired, never fresh, and forecasts no dates in the past", async () => {
    // Another account, the same host: 2025-01-01 … 2025-03-14, a plain weekly pattern.
    const other = await gw.newAccount("old-export@example.com");
    expect((await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: site.host } })).statusCode).toBe(201);
    expect((await upload(chart("2025-01-01", Array.from({ length: 73 }, (_, t) => WEEK[t % 7]!)), other.key)).statusCode).toBe(201);
    const t = await traffic(other.key);
    expect(t).toMatchObject({ data_state: "expired", forecast: null, data_until: "2025-03-14", days: 73, level_shift: null, verdict: "flat" });
    expect(t.note).toContain("The gsc data end on 2025-03-14, 618 days ago: expired");
  });
});

describe("a steady weekly series with day-to-day noise", () => {
  it("raises nothing: no level shift, no unusual day, a flat verdict", async () => {
    const other = await gw.newAccount("steady@example.com");
    expect((await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: site.host } })).statusCode).toBe(201);
    // ±10 % around the pattern, deterministic; ending yesterday.
    const steady = Array.from({ length: 56 }, (_, t) => Math.round(WEEK[t % 7]! * (1 + 0.1 * Math.sin(t * 2.3))));
    expect((await upload(chart(FIRST, steady), other.key)).statusCode).toBe(201);
    const t = await traffic(other.key);
    expect(t).toMatchObject({ data_state: "fresh", note: null, level_shift: null, verdict: "flat" });
    expect(t.forecast.unusual_days).toEqual([]);
    expect(t.forecast.days).toHaveLength(14);
  });
});
