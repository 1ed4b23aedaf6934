import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BacklinkFact, DailyFact, IndexUrlFact, MarketKeywordFact, PeriodFact, RankFact, SerpFact, SerpResult } from "../../analyzer/index.ts";
import type { BacklinkRow, BacklinkSeries, IndexSeries, MarketDomainSum, MarketSeries, CheckPoint, CheckRow, CheckSeries, ProbeSample, PeriodSum, RankRow, RankSeries, SearchDailySeries, SearchPeriodSeries, SerpSeries, UptimeSeries, UsageSeries } from "../../storage/index.ts";

/** The time-series ports of one store. */
export interface SeriesHandle {
  readonly usage: UsageSeries;
  readonly checks: CheckSeries;
  readonly uptime: UptimeSeries;
  readonly serp: SerpSeries;
  readonly searchDaily: SearchDailySeries;
  readonly searchPeriod: SearchPeriodSeries;
  readonly ranks: RankSeries;
  readonly backlinks: BacklinkSeries;
  readonly index: IndexSeries;
  readonly market: MarketSeries;
  /** Runs the store's background merges to the end (ClickHouse: OPTIMIZE … FINAL); reads must not change. */
  settle?(): Promise<void>;
  close(): Promise<void>;
}

/** One implementation of the time-series ports that must behave like the others. */
export interface SeriesTarget {
  readonly name: string;
  /** Ports over a new, empty store. */
  open(): Promise<SeriesHandle>;
}

/**
 * Text that has broken SQL built by hand: quotes, backslashes, comments, placeholders, control
 * characters, non-ASCII. No NUL: Postgres text cannot hold it, so every CheckSeries refuses it.
 */
export const HOSTILE_TEXT: readonly string[] = [
  "it's.example",
  "it''s.example",
  "a\\",
  "a\\\\",
  "\\'",
  "' OR 1=1 --",
  "\\' OR ''='",
  "x') UNION ALL SELECT version() --",
  "'; DROP TABLE check_results; --",
  "/* c */ host -- x",
  "{p0:String}",
  "`bq` \"dq\"",
  "line\nbreak\r\n\ttab",
  "\x01\x1b[31m\x7f",
  "\\x41\\0\\n",
  "%_%",
  "Ärzte Süd 中文 العربية",
  "😀 👩‍👩‍👧",
  "\u2028\u00a0\ufeff",
  "",
];

const T0 = 1_706_745_600; // 2024-02-01 00:00:00 UTC

function row(r: Partial<CheckRow> & Pick<CheckRow, "runId" | "host" | "code">): CheckRow {
  return { jobId: r.runId + 1_000, attempt: 1, checkedAt: T0 + r.runId, status: "pass", value: null, group: "content", ...r };
}

const point = (r: CheckRow): CheckPoint => ({ runId: r.runId, checkedAt: r.checkedAt, status: r.status, value: r.value });

/**
 * The time-series contract: the same expectations, with exact values, on every target. Each
 * target gets one store for the whole block; tests keep to their own hosts, keys and run ids.
 */
export function seriesContract(targets: readonly SeriesTarget[]): void {
  describe.each(targets)("time-series contract on $name", (target) => {
    let s: SeriesHandle;
    const settle = async () => s.settle?.();

    beforeAll(async () => {
      s = await target.open();
    });

    afterAll(async () => {
      await s?.close();
    });

    describe("UsageSeries", () => {
      it("add is additive per (key, day); read sums over keys per day, from..to inclusive, oldest first", async () => {
        const [k1, k2, k3] = [910_001, 910_002, 910_003];
        await s.usage.add([]);
        await s.usage.add([
          { keyId: k1, day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
          { keyId: k1, day: "2024-02-28", calls: 1, errors: 0, limited: 0 },
          { keyId: k2, day: "2024-02-28", calls: 2, errors: 1, limited: 0 },
          { keyId: k1, day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
          { keyId: k3, day: "2024-02-29", calls: 100, errors: 100, limited: 100 },
        ]);
        await s.usage.add([
          { keyId: k1, day: "2024-02-28", calls: 3, errors: 1, limited: 1 },
          { keyId: k2, day: "2024-03-02", calls: 7, errors: 0, limited: 0 },
        ]);
        const expectAll = async () => {
          expect(await s.usage.read([k1], "2024-02-28", "2024-03-01")).toEqual([
            { day: "2024-02-28", calls: 4, errors: 1, limited: 1 },
            { day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
            { day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
          ]);
          expect(await s.usage.read([k1, k2], "2024-02-28", "2024-03-02")).toEqual([
            { day: "2024-02-28", calls: 6, errors: 2, limited: 1 },
            { day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
            { day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
            { day: "2024-03-02", calls: 7, errors: 0, limited: 0 },
          ]);
          expect(await s.usage.read([k1, k2], "2024-02-29", "2024-03-01")).toEqual([
            { day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
            { day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
          ]);
          expect(await s.usage.read([k1], "2024-03-02", "2024-02-28")).toEqual([]);
          expect(await s.usage.read([], "2024-01-01", "2024-12-31")).toEqual([]);
          expect(await s.usage.read([987_654], "2024-01-01", "2024-12-31")).toEqual([]);
        };
        await expectAll();
        await settle();
        await expectAll();
      });

      it("the same deltas added twice count twice: add is a counter, not an upsert", async () => {
        const delta = { keyId: 920_001, day: "2024-05-05", calls: 3, errors: 2, limited: 1 };
        await s.usage.add([delta]);
        await s.usage.add([delta]);
        await settle();
        expect(await s.usage.read([920_001], "2024-05-05", "2024-05-05")).toEqual([{ day: "2024-05-05", calls: 6, errors: 4, limited: 2 }]);
      });

      it("concurrent adds sum exactly, also after merges (40 writers)", async () => {
        const [k1, k2] = [930_001, 930_002];
        await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            s.usage.add([
              { keyId: k1, day: "2024-06-30", calls: 1, errors: i % 2, limited: i % 4 === 0 ? 1 : 0 },
              { keyId: k2, day: i < 20 ? "2024-06-30" : "2024-07-01", calls: 1_000_000_007, errors: 0, limited: 0 },
            ]),
          ),
        );
        const expected = [
          { day: "2024-06-30", calls: 40 + 20 * 1_000_000_007, errors: 20, limited: 10 },
          { day: "2024-07-01", calls: 20 * 1_000_000_007, errors: 0, limited: 0 },
        ];
        expect(await s.usage.read([k1, k2], "2024-06-01", "2024-07-31")).toEqual(expected);
        await settle();
        expect(await s.usage.read([k1, k2], "2024-06-01", "2024-07-31")).toEqual(expected);
        expect(await s.usage.read([k1], "2024-06-30", "2024-06-30")).toEqual([{ day: "2024-06-30", calls: 40, errors: 20, limited: 10 }]);
      });

      it("a batch with an impossible day is refused whole", async () => {
        const good = { keyId: 940_001, day: "2024-02-28", calls: 1, errors: 0, limited: 0 };
        await expect(s.usage.add([good, { ...good, day: "2024-02-30" }])).rejects.toThrow();
        expect(await s.usage.read([940_001], "2024-01-01", "2024-12-31")).toEqual([]);
      });
    });

    describe("CheckSeries", () => {
      it("write, then history, latest and count with exact values", async () => {
        const host = "basic.example";
        const rows = [
          row({ runId: 101, host, code: "title", status: "pass", value: "Home" }),
          row({ runId: 101, host, code: "https", status: "fail", value: null, group: "security" }),
          row({ runId: 102, host, code: "title", status: "warn", value: "Home — too long" }),
          row({ runId: 102, host, code: "https", status: "pass", value: "", group: "security" }),
          row({ runId: 103, host, code: "title", status: "skip", value: null, attempt: 3 }),
          row({ runId: 104, host: "other.example", code: "title", status: "fail" }),
        ];
        await s.checks.write(rows);
        expect(await s.checks.count(host)).toBe(5);
        expect(await s.checks.history(host, "title", 10)).toEqual([rows[4], rows[2], rows[0]].map((r) => point(r as CheckRow)));
        expect(await s.checks.history(host, "title", 2)).toEqual([rows[4], rows[2]].map((r) => point(r as CheckRow)));
        expect(await s.checks.history(host, "title", 0)).toEqual([]);
        expect(await s.checks.history(host, "https", 10)).toEqual([rows[3], rows[1]].map((r) => point(r as CheckRow)));
        expect(await s.checks.latest(host)).toEqual([rows[4]]);
        expect(await s.checks.latest("other.example")).toEqual([rows[5]]);
        expect(await s.checks.count("other.example")).toBe(1);
      });

      it("an unknown host has no rows; a bad limit is refused", async () => {
        expect(await s.checks.latest("nobody.example")).toEqual([]);
        expect(await s.checks.history("nobody.example", "title", 10)).toEqual([]);
        expect(await s.checks.count("nobody.example")).toBe(0);
        await expect(s.checks.history("nobody.example", "title", -1)).rejects.toThrow(RangeError);
        await expect(s.checks.history("nobody.example", "title", 1.5)).rejects.toThrow(RangeError);
      });

      it("writing the same rows twice leaves counts and reads unchanged, also after merges", async () => {
        const host = "twice.example";
        const rows = Array.from({ length: 30 }, (_, i) => row({ runId: 200 + (i % 3), host, code: `c${i}`, value: `v${i}` }));
        await s.checks.write(rows);
        const before = { count: await s.checks.count(host), latest: await s.checks.latest(host), history: await s.checks.history(host, "c2", 10) };
        expect(before.count).toBe(30);
        await s.checks.write(rows);
        await s.checks.write(rows.slice(0, 10));
        expect({ count: await s.checks.count(host), latest: await s.checks.latest(host), history: await s.checks.history(host, "c2", 10) }).toEqual(before);
        await settle();
        expect({ count: await s.checks.count(host), latest: await s.checks.latest(host), history: await s.checks.history(host, "c2", 10) }).toEqual(before);
      });

      it("a higher attempt replaces the row, a lower one written later does not; NULL values too", async () => {
        const host = "attempts.example";
        const first = row({ runId: 300, host, code: "speed", attempt: 1, status: "pass", value: "120" });
        const second = row({ runId: 300, host, code: "speed", attempt: 2, status: "fail", value: null, jobId: 7, checkedAt: T0 + 999 });
        const stale = row({ runId: 300, host, code: "speed", attempt: 1, status: "warn", value: "stale" });
        await s.checks.write([first]);
        await s.checks.write([second]);
        await s.checks.write([stale]);
        const expectSecond = async () => {
          expect(await s.checks.count(host)).toBe(1);
          expect(await s.checks.latest(host)).toEqual([second]);
          expect(await s.checks.history(host, "speed", 5)).toEqual([point(second)]);
        };
        await expectSecond();
        await settle();
        await expectSecond();
      });

      it("duplicates within one write keep the highest attempt", async () => {
        const host = "dupes.example";
        const a1 = row({ runId: 310, host, code: "a", attempt: 1, value: "one" });
        const a3 = row({ runId: 310, host, code: "a", attempt: 3, value: "three" });
        const a2 = row({ runId: 310, host, code: "a", attempt: 2, value: "two" });
        await s.checks.write([a1, a3, a2, a1]);
        expect(await s.checks.latest(host)).toEqual([a3]);
        expect(await s.checks.count(host)).toBe(1);
      });

      it("a later attempt in the next month (another partition) still leaves one row", async () => {
        const host = "month-edge.example";
        const jan = row({ runId: 320, host, code: "x", attempt: 1, checkedAt: 1_706_745_599, value: "jan" }); // 2024-01-31 23:59:59
        const feb = row({ runId: 320, host, code: "x", attempt: 2, checkedAt: 1_706_745_610, value: "feb" }); // 2024-02-01 00:00:10
        await s.checks.write([jan]);
        await s.checks.write([feb]);
        await settle();
        expect(await s.checks.count(host)).toBe(1);
        expect(await s.checks.latest(host)).toEqual([feb]);
        expect(await s.checks.history(host, "x", 5)).toEqual([point(feb)]);
      });

      it("latest() gives the newest run's rows by code point order of code", async () => {
        const host = "order.example";
        const codes = ["b", "😀", "B", "ﬀ", "a", "é", "z", "a b", "a-b", "_"];
        await s.checks.write(codes.map((code) => row({ runId: 331, host, code })));
        await s.checks.write([row({ runId: 330, host, code: "older" })]);
        expect((await s.checks.latest(host)).map((r) => r.code)).toEqual(["B", "_", "a", "a b", "a-b", "b", "z", "é", "ﬀ", "😀"]);
        expect(await s.checks.count(host)).toBe(codes.length + 1);
      });

      it("concurrent writes of the same and of different rows count exactly (12 writers)", async () => {
        const host = "concurrent.example";
        const shared = Array.from({ length: 50 }, (_, i) => row({ runId: 400 + (i % 5), host, code: `s${i}` }));
        await Promise.all(
          Array.from({ length: 12 }, (_, w) =>
            s.checks.write([...shared, ...Array.from({ length: 10 }, (_, i) => row({ runId: 500 + w, host, code: `own${i}`, attempt: w }))]),
          ),
        );
        expect(await s.checks.count(host)).toBe(50 + 12 * 10);
        await settle();
        expect(await s.checks.count(host)).toBe(50 + 12 * 10);
        expect(await s.checks.latest(host)).toEqual(
          Array.from({ length: 10 }, (_, i) => row({ runId: 511, host, code: `own${i}`, attempt: 11 })).sort((x, y) => (x.code < y.code ? -1 : 1)),
        );
      });

      it("hostile host, code, status, value and group strings come back exactly as written", async () => {
        let runId = 600;
        const written = HOSTILE_TEXT.map((text) => {
          runId += 1;
          return row({ runId, host: `h:${text}`, code: text, status: text, value: text, group: text });
        });
        await s.checks.write(written);
        for (const r of written) {
          expect(await s.checks.latest(r.host), JSON.stringify(r.host)).toEqual([r]);
          expect(await s.checks.count(r.host), JSON.stringify(r.host)).toBe(1);
          expect(await s.checks.history(r.host, r.code, 5), JSON.stringify(r.host)).toEqual([point(r)]);
        }
        // Near misses match nothing: no wildcard, no unescaping, no truncation at a quote.
        for (const miss of ["h:it", "h:it's", "h:a", "h:a\\\\\\", "h:%", "h:'", "h", "H:%_%", "h:line"]) {
          expect(await s.checks.count(miss), JSON.stringify(miss)).toBe(0);
          expect(await s.checks.latest(miss), JSON.stringify(miss)).toEqual([]);
        }
      });

      it("a batch with an invalid row is refused whole, naming the row", async () => {
        const host = "invalid.example";
        const good = row({ runId: 700, host, code: "ok" });
        for (const bad of [
          row({ runId: 701, host: "bad\0host", code: "x" }),
          row({ runId: 702, host, code: "\ud800" }),
          row({ runId: 0, host, code: "x" }),
          row({ runId: 703, host, code: "x", attempt: -1 }),
          row({ runId: 704, host, code: "x", checkedAt: Number.NaN }),
        ]) {
          await expect(s.checks.write([good, bad])).rejects.toThrow(/^check row 1 /);
        }
        expect(await s.checks.count(host)).toBe(0);
      });
    });

    describe("UptimeSeries", () => {
      const H = 3600;
      const D0 = 1_717_200_000 - (1_717_200_000 % 86_400); // 2024-06-01 00:00 UTC
      const probe = (host: string, at: number, p: Partial<ProbeSample> = {}): ProbeSample => ({
        host,
        slot: at - 3,
        confirm: false,
        at,
        ok: true,
        status: 200,
        cause: "",
        dnsMs: 1.5,
        connectMs: 0.5,
        tlsMs: 2.5,
        ttfbMs: 10.5,
        totalMs: 100,
        lateMs: 3000,
        node: "n1",
        held: false,
        ...p,
      });

      it("keeps each probe once, however often it is stored, and gives the latest one's timings that was not held", async () => {
        const host = "uptime-once.example";
        const batch = [probe(host, D0 + 60), probe(host, D0 + 360, { totalMs: 300, ttfbMs: 20.5 }), probe(host, D0 + 360, { confirm: true, slot: D0 + 357, ok: false, status: 503, cause: "http", held: true })];
        await s.uptime.add([]);
        await s.uptime.add(batch);
        await s.uptime.add(batch);
        await s.uptime.add([batch[1]!, batch[1]!]);
        await settle();
        expect(await s.uptime.summary(host, D0, D0 + H)).toEqual({ probes: 2, failed: 0, avgTotalMs: 200 });
        expect(await s.uptime.lastTimings(host)).toEqual({ dns_ms: 1.5, connect_ms: 0.5, tls_ms: 2.5, ttfb_ms: 20.5, total_ms: 300 });
        expect(await s.uptime.lastTimings("uptime-never.example")).toBeNull();
      });

      it("sums whole UTC hours over days: failures counted, held ones left out, the mean over successes only", async () => {
        const host = "uptime-days.example";
        const rows: ProbeSample[] = [];
        // Three days, a probe every 20 minutes; on day 2 from 10:00 to 12:00 the site fails.
        for (let t = D0; t < D0 + 3 * 86_400; t += 1200) {
          const failing = t >= D0 + 86_400 + 10 * H && t < D0 + 86_400 + 12 * H;
          rows.push(probe(host, t, failing ? { ok: false, status: 0, cause: "timeout", totalMs: 10_000 } : { totalMs: t % 2400 === 0 ? 100 : 300 }));
        }
        // A suspect node's failure of another host and slot: never counted.
        rows.push(probe(host, D0 + 86_400 + 5 * H + 7, { slot: D0 + 86_400 + 5 * H, ok: false, held: true, totalMs: 9000 }));
        await s.uptime.add(rows);
        await settle();
        // Day 2 whole: 72 probes, 6 failed, 66 successes alternating 100 and 300 ms.
        expect(await s.uptime.summary(host, D0 + 86_400, D0 + 2 * 86_400)).toEqual({ probes: 72, failed: 6, avgTotalMs: 200 });
        // From 09:30 of day 1 to 03:10 of day 3, to the second: 09:40, the 41 whole hours from 10:00 of
        // day 1 to 03:00 of day 3 (3 probes each; the daily rollup for day 2, the hourly one beside
        // it), and 03:00. The mean is over the 119 successes: 59 of 100 ms and 60 of 300.
        expect(await s.uptime.summary(host, D0 + 9 * H + 1800, D0 + 2 * 86_400 + 3 * H + 600)).toEqual({ probes: 125, failed: 6, avgTotalMs: (59 * 100 + 60 * 300) / 119 });
        // Within one hour: the probes in it, not only whole hours (05:00 and 05:20, not 05:40); an empty window.
        expect(await s.uptime.summary(host, D0 + 86_400 + 10 * H, D0 + 86_400 + 11 * H)).toEqual({ probes: 3, failed: 3, avgTotalMs: null });
        expect(await s.uptime.summary(host, D0 + 5 * H, D0 + 5 * H + 1800)).toEqual({ probes: 2, failed: 0, avgTotalMs: 200 });
        expect(await s.uptime.summary(host, D0 + 5 * H + 1, D0 + 5 * H + 1199)).toEqual({ probes: 0, failed: 0, avgTotalMs: null });
      });

      it("refuses samples it cannot hold, and stores hostile host names as they are", async () => {
        await expect(s.uptime.add([probe("", D0)])).rejects.toThrow(RangeError);
        await expect(s.uptime.add([probe("x.example", D0, { totalMs: Number.NaN })])).rejects.toThrow(RangeError);
        await expect(s.uptime.add([probe("x.example", -1)])).rejects.toThrow(RangeError);
        const hostile = HOSTILE_TEXT.filter((h) => h !== "");
        await s.uptime.add(hostile.map((h) => probe(h, D0 + 2 * 86_400 + 600)));
        await settle();
        for (const h of hostile) expect(await s.uptime.summary(h, D0 + 2 * 86_400, D0 + 2 * 86_400 + H)).toEqual({ probes: 1, failed: 0, avgTotalMs: 100 });
      });
    });

    describe("SerpSeries", () => {
      const fact = (keyword: string, date: string, rank: number, domain: string): SerpFact => ({ engine: "yandex", region: 213, device: "desktop", keyword, date, rank, domain, url: `https://${domain}/${rank}` });
      const result = (keyword: string, day: string, rank: number, domain: string): SerpResult => ({ engine: "yandex", region: 213, device: "desktop", keyword, day, rank, domain });
      const sorted = (rows: SerpResult[]) => [...rows].sort((a, b) => a.day.localeCompare(b.day) || a.keyword.localeCompare(b.keyword) || a.rank - b.rank);
      const host = "serp.example";
      const [acc, other] = [2 ** 40 + 1, 2 ** 40 + 2];

      it("reads each query's day from the newest live batch that has it, whole, within the account and host", async () => {
        await s.serp.add({ importId: 11, accountId: acc, host }, []);
        await s.serp.add({ importId: 11, accountId: acc, host }, [fact("диван", "2024-03-01", 1, "a.ru"), fact("диван", "2024-03-01", 2, "b.ru"), fact("диван", "2024-03-02", 1, "a.ru"), fact("диван", "2024-03-02", 2, "b.ru")]);
        await s.serp.add({ importId: 12, accountId: acc, host }, [fact("диван", "2024-03-02", 1, "c.ru"), fact("кровать", "2024-03-02", 1, "a.ru")]);
        await s.serp.add({ importId: 13, accountId: other, host }, [fact("диван", "2024-03-05", 1, "z.ru")]);
        await s.serp.add({ importId: 14, accountId: acc, host: "other.example" }, [fact("диван", "2024-03-05", 1, "z.ru")]);
        // A batch stored twice (a retry) is read once.
        await s.serp.add({ importId: 12, accountId: acc, host }, [fact("диван", "2024-03-02", 1, "c.ru"), fact("кровать", "2024-03-02", 1, "a.ru")]);
        const expectAll = async () => {
          // 03-02 of диван: batch 12's list replaces batch 11's whole (b.ru at 2 is not kept).
          expect(sorted(await s.serp.read(acc, host, "2024-01-01", [11, 12, 13, 14]))).toEqual([
            result("диван", "2024-03-01", 1, "a.ru"),
            result("диван", "2024-03-01", 2, "b.ru"),
            result("диван", "2024-03-02", 1, "c.ru"),
            result("кровать", "2024-03-02", 1, "a.ru"),
          ]);
          // Batch 12 deleted (not live): batch 11's lists again.
          expect(sorted(await s.serp.read(acc, host, "2024-03-02", [11]))).toEqual([result("диван", "2024-03-02", 1, "a.ru"), result("диван", "2024-03-02", 2, "b.ru")]);
          expect(await s.serp.read(acc, host, "2024-03-03", [11, 12])).toEqual([]);
          expect(await s.serp.read(acc, host, "2024-01-01", [])).toEqual([]);
          expect(await s.serp.read(other, host, "2024-01-01", [11, 12, 13])).toEqual([result("диван", "2024-03-05", 1, "z.ru")]);
          expect(await s.serp.latestDay(acc, host, [11, 12, 13, 14])).toBe("2024-03-02");
          expect(await s.serp.latestDay(acc, host, [11])).toBe("2024-03-02");
          expect(await s.serp.latestDay(acc, host, [99])).toBeNull();
          expect(await s.serp.latestDay(acc, host, [])).toBeNull();
        };
        await expectAll();
        await settle();
        await expectAll();
        await s.serp.drop(12);
        expect(sorted(await s.serp.read(acc, host, "2024-03-02", [11]))).toEqual([result("диван", "2024-03-02", 1, "a.ru"), result("диван", "2024-03-02", 2, "b.ru")]);
      });

      it("readMarket reads every site's lists of the named batches, the newest batch's per query and day", async () => {
        await s.serp.add({ importId: 31, accountId: acc, host }, [fact("диван", "2025-01-01", 1, "a.ru"), fact("диван", "2025-01-01", 2, "b.ru"), fact("диван", "2025-01-02", 1, "a.ru")]);
        await s.serp.add({ importId: 32, accountId: other, host: "other.example" }, [fact("диван", "2025-01-02", 1, "c.ru"), fact("стол", "2025-01-02", 1, "d.ru")]);
        await s.serp.add({ importId: 33, accountId: other, host }, [fact("стол", "2025-01-03", 1, "e.ru")]);
        await settle();
        // диван 01-02: batch 32 (another account's site) is newer than 31, so its list is the market's.
        expect(sorted(await s.serp.readMarket("2025-01-01", [31, 32]))).toEqual([
          result("диван", "2025-01-01", 1, "a.ru"),
          result("диван", "2025-01-01", 2, "b.ru"),
          result("диван", "2025-01-02", 1, "c.ru"),
          result("стол", "2025-01-02", 1, "d.ru"),
        ]);
        expect(sorted(await s.serp.readMarket("2025-01-02", [31]))).toEqual([result("диван", "2025-01-02", 1, "a.ru")]);
        expect(await s.serp.readMarket("2025-01-01", [])).toEqual([]);
      });

      it("refuses rows it cannot hold, and keeps hostile keywords, domains and hosts as they are", async () => {
        await expect(s.serp.add({ importId: 20, accountId: acc, host }, [fact("x", "2024-03-01", 0, "a.ru")])).rejects.toThrow(RangeError);
        await expect(s.serp.add({ importId: 20, accountId: acc, host }, [fact("x", "1.3.2024", 1, "a.ru")])).rejects.toThrow(RangeError);
        const hostile = HOSTILE_TEXT.filter((h) => h !== "");
        for (const [i, h] of hostile.entries()) await s.serp.add({ importId: 100 + i, accountId: acc, host: h }, [fact(h, "2024-04-01", 1, h)]);
        await settle();
        for (const [i, h] of hostile.entries()) expect(await s.serp.read(acc, h, "2024-04-01", [100 + i])).toEqual([result(h, "2024-04-01", 1, h)]);
      });
    });

    describe("SearchPeriodSeries", () => {
      const host = "period.example";
      const acc = 2 ** 40 + 5;
      const fact = (engine: "google" | "yandex", dim: "query" | "page", key: string, clicks: number, impressions: number, posXImpr: number, prev: [number, number, number] | null = null): PeriodFact => ({
        engine,
        dim,
        key,
        key2: "",
        clicks,
        impressions,
        posXImpr,
        prevClicks: prev?.[0] ?? null,
        prevImpressions: prev?.[1] ?? null,
        prevPosXImpr: prev?.[2] ?? null,
      });
      const sum = (f: PeriodFact, importId: number): PeriodSum => ({
        engine: f.engine,
        dim: f.dim,
        key: f.key,
        key2: f.key2,
        clicks: f.clicks,
        impressions: f.impressions,
        pos_x_impr: f.posXImpr,
        prev_clicks: f.prevClicks,
        prev_impressions: f.prevImpressions,
        prev_pos_x_impr: f.prevPosXImpr,
        import_id: importId,
      });
      const sorted = (rows: PeriodSum[]) => [...rows].sort((a, b) => a.engine.localeCompare(b.engine) || a.dim.localeCompare(b.dim) || a.key.localeCompare(b.key));
      const divan = fact("google", "query", "диван", 30, 600, 1800);
      const bed = fact("google", "query", "кровать", 30, 900, 4500);
      const zebra = fact("google", "query", "zebra", 2, 20, 20);
      const apple = fact("google", "query", "äpple", 2, 20, 20);
      const page = fact("google", "page", "https://a.example/", 50, 1000, 3000);
      const big = fact("yandex", "query", "диван", 5_000_000_000, 9_000_000_000, 27_000_000_000.5);
      const wardrobe = fact("google", "query", "шкаф", 7, 70, 70, [1, 10, 30]);

      it("reads per engine the newest live batch holding the dimensions, whole; repeated keys summed; ranks and pages exact", async () => {
        await s.searchPeriod.add({ importId: 41, accountId: acc, host }, []);
        // стол twice in the file (two spellings normalised alike): one row, summed.
        await s.searchPeriod.add({ importId: 41, accountId: acc, host }, [divan, bed, fact("google", "query", "стол", 1, 10, 20), fact("google", "query", "стол", 2, 20, 40), zebra, apple, page, big]);
        await s.searchPeriod.add({ importId: 42, accountId: acc, host }, [wardrobe]);
        await s.searchPeriod.add({ importId: 43, accountId: acc + 1, host }, [fact("google", "query", "чужой", 1, 1, 1)]);
        // Retried: stored once.
        await s.searchPeriod.add({ importId: 42, accountId: acc, host }, [wardrobe]);
        const table = sum(fact("google", "query", "стол", 3, 30, 60), 41);
        const expectAll = async () => {
          expect(sorted(await s.searchPeriod.latest(acc, host, ["query"], [41, 42, 43]))).toEqual([sum(wardrobe, 42), sum(big, 41)]);
          expect(await s.searchPeriod.latest(acc, host, ["page"], [41, 42])).toEqual([sum(page, 41)]);
          expect(sorted(await s.searchPeriod.latest(acc, host, ["query", "page"], [41]))).toEqual(sorted([sum(page, 41), sum(divan, 41), sum(bed, 41), table, sum(zebra, 41), sum(apple, 41), sum(big, 41)]));
          // Query rows under 100 impressions left out; page rows whatever their impressions.
          expect(sorted(await s.searchPeriod.latest(acc, host, ["query"], [41], 100))).toEqual(sorted([sum(divan, 41), sum(bed, 41), sum(big, 41)]));
          expect(await s.searchPeriod.latest(acc, host, ["query"], [])).toEqual([]);
          expect(await s.searchPeriod.latest(acc + 1, host, ["query"], [41, 42, 43])).toEqual([sum(fact("google", "query", "чужой", 1, 1, 1), 43)]);
          // Positions 3, 5, 2 (60 / 30), 1 (zebra, äpple) and 3.0000000000555 (yandex).
          const ranks = (await s.searchPeriod.ctrByRank(acc, host, [41])).sort((a, b) => a.engine.localeCompare(b.engine) || a.rank - b.rank);
          expect(ranks).toEqual([
            { engine: "google", rank: 1, clicks: 4, impressions: 40 },
            { engine: "google", rank: 2, clicks: 3, impressions: 30 },
            { engine: "google", rank: 3, clicks: 30, impressions: 600 },
            { engine: "google", rank: 5, clicks: 30, impressions: 900 },
            { engine: "yandex", rank: 3, clicks: 5_000_000_000, impressions: 9_000_000_000 },
          ]);
          // Most clicks, then impressions, then key in code point order (z before ä), then engine.
          const all = await s.searchPeriod.queriesPage(acc, host, null, 10, 0, [41]);
          expect(all).toEqual({ rows: [sum(big, 41), sum(bed, 41), sum(divan, 41), table, sum(zebra, 41), sum(apple, 41)], total: 6, imports: [41] });
          expect(await s.searchPeriod.queriesPage(acc, host, null, 2, 4, [41])).toEqual({ rows: [sum(zebra, 41), sum(apple, 41)], total: 6, imports: [41] });
          const google = await s.searchPeriod.queriesPage(acc, host, "google", 10, 0, [41, 42]);
          expect(google).toEqual({ rows: [sum(wardrobe, 42)], total: 1, imports: [42] });
          expect((await s.searchPeriod.queriesPage(acc, host, null, 10, 0, [41, 42])).imports.sort()).toEqual([41, 42]);
          expect(await s.searchPeriod.queriesPage(acc, host, null, 10, 0, [])).toEqual({ rows: [], total: 0, imports: [] });
        };
        await expectAll();
        await settle();
        await expectAll();
        // A deleted batch is no longer named live (ClickHouse removes its rows by a mutation, later).
        await s.searchPeriod.drop(42);
        expect(sorted(await s.searchPeriod.latest(acc, host, ["query"], [41]))).toEqual(sorted([sum(divan, 41), sum(bed, 41), table, sum(zebra, 41), sum(apple, 41), sum(big, 41)]));
      });

      it("appends a batch's slices beside each other (an import in bounded transactions); add still replaces", async () => {
        const at = { importId: 61, accountId: acc, host: "append.example" };
        await s.searchPeriod.append(at, [divan, page]);
        await s.searchPeriod.append(at, [bed]);
        await s.searchPeriod.append(at, []);
        await settle();
        expect(sorted(await s.searchPeriod.latest(acc, at.host, ["query", "page"], [61]))).toEqual(sorted([sum(divan, 61), sum(page, 61), sum(bed, 61)]));
        expect((await s.searchPeriod.queriesPage(acc, at.host, null, 10, 0, [61])).total).toBe(2);
        // A retried add of the whole batch is stored once, whatever was appended before.
        await s.searchPeriod.add(at, [divan, bed, page]);
        await s.searchPeriod.add(at, [divan, bed, page]);
        await settle();
        expect(sorted(await s.searchPeriod.latest(acc, at.host, ["query", "page"], [61]))).toEqual(sorted([sum(divan, 61), sum(page, 61), sum(bed, 61)]));
      });

      it("refuses rows it cannot hold, and keeps hostile keys and hosts as they are", async () => {
        await expect(s.searchPeriod.add({ importId: 50, accountId: acc, host }, [fact("google", "query", "x", -1, 1, 1)])).rejects.toThrow(RangeError);
        await expect(s.searchPeriod.add({ importId: 50, accountId: acc, host }, [fact("google", "query", "x", 1, 1.5, 1)])).rejects.toThrow(RangeError);
        await expect(s.searchPeriod.add({ importId: 50, accountId: acc, host }, [fact("google", "query", "x", 1, 1, Number.NaN)])).rejects.toThrow(RangeError);
        expect(await s.searchPeriod.latest(acc, host, ["query"], [50])).toEqual([]);
        const hostile = HOSTILE_TEXT.filter((h) => h !== "");
        for (const [i, h] of hostile.entries()) await s.searchPeriod.add({ importId: 200 + i, accountId: acc, host: h }, [fact("google", "query", h, 1, 2, 3)]);
        await settle();
        for (const [i, h] of hostile.entries()) expect(await s.searchPeriod.latest(acc, h, ["query"], [200 + i])).toEqual([sum(fact("google", "query", h, 1, 2, 3), 200 + i)]);
      });
    });

    describe("SearchDailySeries", () => {
      const fact = (engine: "google" | "yandex", date: string, clicks: number, impressions: number, posXImpr: number, query = ""): DailyFact => ({ engine, date, query, page: "", country: "", device: "", clicks, impressions, posXImpr });
      const host = "daily.example";
      const acc = 2 ** 40 + 3;

      it("sums a day's totals from the newest live batch that has the day, exactly, per engine and oldest first", async () => {
        await s.searchDaily.add({ importId: 31, accountId: acc, host }, []);
        await s.searchDaily.add({ importId: 31, accountId: acc, host }, [
          fact("google", "2024-05-02", 5_000_000_000, 9_000_000_000, 67_500_000_000.5),
          fact("google", "2024-05-01", 10, 200, 1500.25),
          fact("google", "2024-05-01", 7, 70, 700, "диван"),
          fact("yandex", "2024-05-01", 3, 30, 90.5),
        ]);
        // A later export overlapping on 05-02 replaces that day; 05-03 is new.
        await s.searchDaily.add({ importId: 32, accountId: acc, host }, [fact("google", "2024-05-02", 4, 40, 160.75), fact("google", "2024-05-03", 6, 60, 240)]);
        await s.searchDaily.add({ importId: 33, accountId: acc + 1, host }, [fact("google", "2024-05-01", 1, 1, 1)]);
        // Retried: counted once.
        await s.searchDaily.add({ importId: 32, accountId: acc, host }, [fact("google", "2024-05-02", 4, 40, 160.75), fact("google", "2024-05-03", 6, 60, 240)]);
        const expectAll = async () => {
          expect(await s.searchDaily.totals(acc, host, [31, 32, 33])).toEqual([
            { engine: "google", day: "2024-05-01", clicks: 10, impressions: 200, posXImpr: 1500.25 },
            { engine: "google", day: "2024-05-02", clicks: 4, impressions: 40, posXImpr: 160.75 },
            { engine: "google", day: "2024-05-03", clicks: 6, impressions: 60, posXImpr: 240 },
            { engine: "yandex", day: "2024-05-01", clicks: 3, impressions: 30, posXImpr: 90.5 },
          ]);
          // Batch 32 gone: 05-02 from batch 31 again, sums beyond 2^32 exact.
          expect(await s.searchDaily.totals(acc, host, [31])).toEqual([
            { engine: "google", day: "2024-05-01", clicks: 10, impressions: 200, posXImpr: 1500.25 },
            { engine: "google", day: "2024-05-02", clicks: 5_000_000_000, impressions: 9_000_000_000, posXImpr: 67_500_000_000.5 },
            { engine: "yandex", day: "2024-05-01", clicks: 3, impressions: 30, posXImpr: 90.5 },
          ]);
          expect(await s.searchDaily.totals(acc, host, [])).toEqual([]);
          expect(await s.searchDaily.totals(acc, "other.example", [31, 32])).toEqual([]);
        };
        await expectAll();
        await settle();
        await expectAll();
        await s.searchDaily.drop(32);
        expect((await s.searchDaily.totals(acc, host, [31])).map((t) => t.clicks)).toEqual([10, 5_000_000_000, 3]);
        await expect(s.searchDaily.add({ importId: 34, accountId: acc, host }, [fact("google", "2024-05-01", -1, 0, 0)])).rejects.toThrow(RangeError);
        await expect(s.searchDaily.add({ importId: 34, accountId: acc, host }, [fact("google", "2024-05-01", 1, 1, Number.NaN)])).rejects.toThrow(RangeError);
      });
    });

    describe("RankSeries", () => {
      const check = (keyword: string, date: string, position: number | null, url: string | null, volume: number | null, engine: "google" | "yandex" = "yandex"): RankFact => ({
        engine,
        region: engine === "yandex" ? 213 : 2,
        device: engine === "yandex" ? "desktop" : "mobile",
        keyword,
        date,
        position,
        url,
        group: "g",
        volume,
      });
      const row = (keyword: string, day: string, position: number | null, url: string | null, volume: number | null): RankRow => ({ engine: "yandex", region: 213, device: "desktop", keyword, day, position, url, grp: "g", volume });
      const host = "ranks.example";
      const [acc, other] = [2 ** 40 + 5, 2 ** 40 + 6];

      it("reads each check from the newest live batch, ordered; volumes and the market's moves over the live batches", async () => {
        await s.ranks.add({ importId: 41, accountId: acc, host, provider: "topvisor" }, [
          check("диван", "2024-03-01", 5, "/a", 1000),
          check("диван", "2024-03-02", 9, "/b", 1000),
          check("диван", "2024-03-03", null, null, 1000),
          check("кровать", "2024-03-02", 3, "/k", null),
          check("кресло", "2024-03-02", 10, "/c", null),
          check("кресло", "2024-03-03", 11, "/c", null),
        ]);
        await s.ranks.add({ importId: 42, accountId: acc, host, provider: "keysso" }, [check("диван", "2024-03-03", 4, "/a", 5_000_000_000)]);
        await s.ranks.add({ importId: 43, accountId: other, host: "other.example", provider: "topvisor" }, [check("стул", "2024-03-02", 1, "/s", null, "google"), check("стул", "2024-03-03", 50, "/s", null, "google")]);
        await s.ranks.add({ importId: 42, accountId: acc, host, provider: "keysso" }, [check("диван", "2024-03-03", 4, "/a", 5_000_000_000)]);
        const expectAll = async () => {
          expect(await s.ranks.read(acc, host, "2024-03-01", [41, 42, 43])).toEqual([
            row("диван", "2024-03-01", 5, "/a", 1000),
            row("диван", "2024-03-02", 9, "/b", 1000),
            row("диван", "2024-03-03", 4, "/a", 5_000_000_000),
            row("кресло", "2024-03-02", 10, "/c", null),
            row("кресло", "2024-03-03", 11, "/c", null),
            row("кровать", "2024-03-02", 3, "/k", null),
          ]);
          expect(await s.ranks.read(acc, host, "2024-03-03", [41])).toEqual([row("диван", "2024-03-03", null, null, 1000), row("кресло", "2024-03-03", 11, "/c", null)]);
          expect(await s.ranks.read(acc, host, "2024-03-01", [])).toEqual([]);
          expect([...(await s.ranks.volumes(acc, host, [41, 42]))]).toEqual([["диван", 5_000_000_000]]);
          expect([...(await s.ranks.volumes(acc, host, [41]))]).toEqual([["диван", 1000]]);
          // Since 03-02: диван 5 → 9 (moved) and 9 → 4 (moved), кресло 10 → 11 (not), стул 1 → 50 (moved); кровать has no day before.
          expect(await s.ranks.moves("2024-03-02", [41, 42, 43])).toEqual([
            { engine: "google", day: "2024-03-03", checked: 1, moved: 1 },
            { engine: "yandex", day: "2024-03-02", checked: 1, moved: 1 },
            { engine: "yandex", day: "2024-03-03", checked: 2, moved: 1 },
          ]);
          // Without batch 42 диван is not found on 03-03: a move out of the depth.
          expect(await s.ranks.moves("2024-03-03", [41])).toEqual([{ engine: "yandex", day: "2024-03-03", checked: 2, moved: 1 }]);
          expect(await s.ranks.moves("2024-03-02", [])).toEqual([]);
        };
        await expectAll();
        await settle();
        await expectAll();
        await s.ranks.drop(42);
        expect((await s.ranks.read(acc, host, "2024-03-03", [41])).map((r) => r.position)).toEqual([null, 11]);
      });

      it("refuses checks it cannot hold, and keeps hostile keywords and URLs as they are", async () => {
        await expect(s.ranks.add({ importId: 50, accountId: acc, host, provider: "topvisor" }, [check("x", "2024-03-01", 0, null, null)])).rejects.toThrow(RangeError);
        await expect(s.ranks.add({ importId: 50, accountId: acc, host, provider: "topvisor" }, [check("x", "2024-03-01", 1, null, -1)])).rejects.toThrow(RangeError);
        const hostile = HOSTILE_TEXT.filter((h) => h !== "");
        await s.ranks.add({ importId: 51, accountId: acc, host: "hostile-ranks.example", provider: "topvisor" }, hostile.map((h) => check(h, "2024-04-01", 7, h, 10)));
        await settle();
        const back = await s.ranks.read(acc, "hostile-ranks.example", "2024-04-01", [51]);
        expect(back.map((r) => [r.keyword, r.url]).sort()).toEqual(hostile.map((h) => [h, h]).sort());
      });
    });
    describe("BacklinkSeries", () => {
      const host = "links.example";
      const [acc, other] = [2 ** 40 + 7, 2 ** 40 + 8];
      const link = (sourceUrl: string, sourceRating: number | null, firstSeen: string | null, lostAt: string | null, anchor = "a"): BacklinkFact => ({
        sourceUrl,
        targetUrl: `https://${host}/`,
        anchor,
        sourceDomain: new URL(sourceUrl).hostname,
        nofollow: sourceRating === null,
        sourceRating,
        ratingScale: sourceRating === null ? null : "ahrefs_dr",
        firstSeen,
        lastSeen: null,
        lostAt,
      });
      const row = (l: BacklinkFact, provider: string): BacklinkRow => ({
        source_url: l.sourceUrl,
        target_url: l.targetUrl,
        anchor: l.anchor,
        nofollow: l.nofollow,
        source_rating: l.sourceRating,
        rating_scale: l.ratingScale,
        first_seen: l.firstSeen,
        last_seen: l.lastSeen,
        lost_at: l.lostAt,
        provider,
      });
      const blog = link("https://blog.example.com/p", 54, "2026-05-01", null);
      const b = link("https://b.example.org/", null, "2026-06-01", null);
      const c = link("https://c.example.net/", 12, "2026-06-01", "2026-10-05");
      const d = link("https://a.example/", 31, "2026-10-02", null);
      const blogLost = link("https://blog.example.com/p", 54, "2026-05-01", "2026-11-01");
      // Z (0x5A) sorts before a (0x61) in code point order, after it in most locales.
      const z = link("https://Z.example/", 31, "2026-10-02", null);

      it("reads each link from the newest live batch: live by rating and first seen, lost by day, ties in code point order; totals exact; a dropped batch reveals the older rows", async () => {
        const b61 = { importId: 61, accountId: acc, host, provider: "ahrefs" };
        const b62 = { importId: 62, accountId: acc, host, provider: "semrush" };
        // d twice in the file: its last row counts (rating 31).
        await s.backlinks.add(b61, [blog, b, c, link("https://a.example/", 30, "2026-10-01", null), d]);
        await s.backlinks.seal(b61, [61]);
        await s.backlinks.add(b62, [blogLost]);
        await s.backlinks.add(b62, [z]);
        await s.backlinks.seal(b62, [61, 62]);
        const b63 = { importId: 63, accountId: other, host, provider: "ahrefs" };
        await s.backlinks.add(b63, [link("https://other.example/", 1, null, null)]);
        await s.backlinks.seal(b63, [63]);
        const expectAll = async () => {
          expect(await s.backlinks.page(acc, host, "live", 10, 0, [61, 62])).toEqual({ rows: [row(z, "semrush"), row(d, "ahrefs"), row(b, "ahrefs")], total: 3 });
          expect(await s.backlinks.page(acc, host, "live", 1, 1, [61, 62])).toEqual({ rows: [row(d, "ahrefs")], total: 3 });
          expect(await s.backlinks.page(acc, host, "lost", 10, 0, [61, 62])).toEqual({ rows: [row(blogLost, "semrush"), row(c, "ahrefs")], total: 2 });
          expect(await s.backlinks.dates(acc, host, [61, 62])).toEqual([
            { first_seen: "2026-10-02", lost_at: null },
            { first_seen: "2026-10-02", lost_at: null },
            { first_seen: "2026-06-01", lost_at: null },
            { first_seen: "2026-05-01", lost_at: "2026-11-01" },
            { first_seen: "2026-06-01", lost_at: "2026-10-05" },
          ]);
          expect((await s.backlinks.page(other, host, "live", 10, 0, [63])).total).toBe(1);
          expect(await s.backlinks.page(acc, host, "live", 10, 0, [])).toEqual({ rows: [], total: 0 });
        };
        await expectAll();
        await settle();
        await expectAll();
        await s.backlinks.drop(62, [61]);
        expect(await s.backlinks.page(acc, host, "live", 10, 0, [61])).toEqual({ rows: [row(blog, "ahrefs"), row(d, "ahrefs"), row(b, "ahrefs")], total: 3 });
        expect(await s.backlinks.page(acc, host, "lost", 10, 0, [61])).toEqual({ rows: [row(c, "ahrefs")], total: 1 });
      });

      it("refuses links it cannot hold, and keeps hostile URLs, anchors and hosts as they are", async () => {
        await expect(s.backlinks.add({ importId: 64, accountId: acc, host, provider: "ahrefs" }, [link("https://x.example/", 1.5, null, null)])).rejects.toThrow(RangeError);
        const hostile = HOSTILE_TEXT.filter((h) => h !== "");
        for (const [i, h] of hostile.entries()) {
          const batch = { importId: 300 + i, accountId: acc, host: h, provider: "ahrefs" };
          await s.backlinks.add(batch, [{ ...link("https://h.example/", 5, "2026-01-01", null, h), sourceUrl: h, targetUrl: h }]);
          await s.backlinks.seal(batch, [300 + i]);
        }
        await settle();
        for (const [i, h] of hostile.entries()) {
          const got = await s.backlinks.page(acc, h, "live", 10, 0, [300 + i]);
          expect([got.total, got.rows.map((r) => [r.source_url, r.target_url, r.anchor])]).toEqual([1, [[h, h, h]]]);
        }
      });
    });

    describe("IndexSeries", () => {
      const host = "index.example";
      const [acc, other] = [2 ** 40 + 9, 2 ** 40 + 10];
      const url = (engine: "google" | "yandex", u: string, status: IndexUrlFact["status"], reason: string, httpCode: number | null = null): IndexUrlFact => ({ engine, url: u, status, reason, httpCode, lastCrawled: httpCode === null ? null : "2024-04-30", event: null, eventDate: null, target: null });
      const urlRow = (f: IndexUrlFact) => ({ engine: f.engine, url: f.url, status: f.status, reason: f.reason, http_code: f.httpCode, last_crawled: f.lastCrawled });

      it("reads points and URLs from the newest live batch that has them, issues whole from each engine's newest; ordered and exact", async () => {
        const soft = { engine: "google" as const, reason: "Soft 404", source: "Website", validation: "Not started", pages: 35 };
        const crawled = { engine: "google" as const, reason: "Crawled - currently not indexed", source: "Google systems", validation: "N/A", pages: 90 };
        const redirect = { engine: "google" as const, reason: "Page with redirect", source: "Website", validation: "Started", pages: 35 };
        const dup = { engine: "google" as const, reason: "Duplicate", source: "Website", validation: "", pages: 7 };
        const yandexGone = { engine: "yandex" as const, reason: "HTTP 404", source: "", validation: "", pages: 5_000_000_000 };
        await s.index.add({ importId: 71, accountId: acc, host }, {
          status: [
            { engine: "google", date: "2024-05-01", indexed: 10, notIndexed: 5 },
            { engine: "google", date: "2024-05-02", indexed: 12, notIndexed: 3 },
            { engine: "google", date: "2024-05-02", indexed: 13, notIndexed: 2 },
          ],
          issues: [soft, crawled, redirect, yandexGone],
          urls: [url("google", "https://index.example/a", "not_indexed", "Soft 404", 404), url("yandex", "https://index.example/a", "searchable", ""), url("yandex", "https://index.example/b", "excluded", "HTTP 404", 404)],
        });
        await s.index.add({ importId: 72, accountId: acc, host }, {
          status: [{ engine: "google", date: "2024-05-02", indexed: 20, notIndexed: null }, { engine: "google", date: "2024-05-03", indexed: 21, notIndexed: 0 }],
          issues: [dup],
          urls: [url("google", "https://index.example/a", "not_indexed", "Duplicate"), url("google", "https://index.example/Z", "not_indexed", "Duplicate")],
        });
        await s.index.add({ importId: 73, accountId: other, host }, { status: [{ engine: "google", date: "2024-05-01", indexed: 1, notIndexed: 1 }], issues: [], urls: [] });
        const expectAll = async () => {
          expect(await s.index.points(acc, host, [71, 72, 73])).toEqual([
            { engine: "google", day: "2024-05-01", indexed: 10, not_indexed: 5 },
            { engine: "google", day: "2024-05-02", indexed: 20, not_indexed: null },
            { engine: "google", day: "2024-05-03", indexed: 21, not_indexed: 0 },
          ]);
          expect(await s.index.points(acc, host, [71])).toEqual([
            { engine: "google", day: "2024-05-01", indexed: 10, not_indexed: 5 },
            { engine: "google", day: "2024-05-02", indexed: 13, not_indexed: 2 },
          ]);
          expect(await s.index.issues(acc, host, [71, 72])).toEqual([yandexGone, dup]);
          expect(await s.index.issues(acc, host, [71])).toEqual([yandexGone, crawled, redirect, soft]);
          expect(await s.index.urls(acc, host, [71, 72])).toEqual([
            urlRow(url("google", "https://index.example/Z", "not_indexed", "Duplicate")),
            urlRow(url("google", "https://index.example/a", "not_indexed", "Duplicate")),
            urlRow(url("yandex", "https://index.example/a", "searchable", "")),
            urlRow(url("yandex", "https://index.example/b", "excluded", "HTTP 404", 404)),
          ]);
          expect(await s.index.points(other, host, [71, 72, 73])).toEqual([{ engine: "google", day: "2024-05-01", indexed: 1, not_indexed: 1 }]);
          expect(await s.index.urls(acc, host, [])).toEqual([]);
        };
        await expectAll();
        await settle();
        await expectAll();
        await s.index.drop(72);
        expect((await s.index.urls(acc, host, [71])).map((u) => [u.engine, u.reason])).toEqual([["google", "Soft 404"], ["yandex", ""], ["yandex", "HTTP 404"]]);
        await expect(s.index.add({ importId: 74, accountId: acc, host }, { status: [], issues: [{ ...dup, pages: -1 }], urls: [] })).rejects.toThrow(RangeError);
      });
    });

    describe("MarketSeries", () => {
      const host = "market.example";
      const [acc, other] = [2 ** 40 + 11, 2 ** 40 + 12];
      const kw = (base: string, domain: string, keyword: string, position: number, u: string, volume: number | null): MarketKeywordFact => ({ base, domain, keyword, position, url: u, volume });
      const dom = (domain: string, commonKeywords: number | null, similarityPct: number | null, visibility: number | null) => ({ base: "msk", domain, commonKeywords, similarityPct, visibility, top10: commonKeywords, pagesInIndex: null });
      const sum = (d: ReturnType<typeof dom>, importId: number): MarketDomainSum => ({ domain: d.domain, common_keywords: d.commonKeywords, similarity_pct: d.similarityPct, visibility: d.visibility, top10: d.top10, pages_in_index: null, import_id: importId });

      it("reads a competitor report whole from the newest live batch, in its order; keywords per domain from the newest live batch; sources per batch", async () => {
        const rival = dom("rival.ru", 100, 12.5, 1000.5);
        const zeta = dom("Zeta.ru", 5_000_000_000, null, 0.25);
        const later = dom("other.ru", 3, 1, null);
        await s.market.add({ importId: 81, accountId: acc, host, provider: "keysso" }, {
          domains: [rival, zeta],
          keywords: [kw("msk", "site.ru", "диван", 3, "/d", 1000), kw("msk", "rival.ru", "диван", 1, "/x", 1000), kw("msk", "rival.ru", "диван", 2.4, "/x2", 1000), kw("msk", "rival.ru", "кровать", 7, "/k", null)],
        });
        await s.market.add({ importId: 82, accountId: acc, host, provider: "keysso" }, { domains: [later], keywords: [kw("msk", "rival.ru", "диван", 5, "/y", 900)] });
        await s.market.add({ importId: 83, accountId: acc, host, provider: "keysso" }, { domains: [], keywords: [kw("gru", "site.ru", "sofa", 9, "/s", 5_000_000_000)] });
        await s.market.add({ importId: 84, accountId: other, host, provider: "keysso" }, { domains: [dom("x.ru", 1, 1, 1)], keywords: [] });
        const expectAll = async () => {
          expect(await s.market.sources(acc, host, [81, 82, 83, 84])).toEqual([
            { provider: "keysso", base: "gru", import_id: 83 },
            { provider: "keysso", base: "msk", import_id: 81 },
            { provider: "keysso", base: "msk", import_id: 82 },
          ]);
          expect(await s.market.domains(acc, host, "keysso", "msk", [81, 82])).toEqual([sum(later, 82)]);
          expect(await s.market.domains(acc, host, "keysso", "msk", [81])).toEqual([sum(rival, 81), sum(zeta, 81)]);
          expect(await s.market.keywords(acc, host, "keysso", "msk", [81, 82])).toEqual([
            { domain: "rival.ru", keyword: "диван", position: 5, url: "/y", volume: 900 },
            { domain: "rival.ru", keyword: "кровать", position: 7, url: "/k", volume: null },
            { domain: "site.ru", keyword: "диван", position: 3, url: "/d", volume: 1000 },
          ]);
          expect((await s.market.keywords(acc, host, "keysso", "msk", [81]))[0]).toEqual({ domain: "rival.ru", keyword: "диван", position: 2, url: "/x2", volume: 1000 });
          expect(await s.market.keywords(acc, host, "keysso", "gru", [81, 82, 83])).toEqual([{ domain: "site.ru", keyword: "sofa", position: 9, url: "/s", volume: 5_000_000_000 }]);
          expect(await s.market.domains(other, host, "keysso", "msk", [84])).toEqual([sum(dom("x.ru", 1, 1, 1), 84)]);
          expect(await s.market.sources(acc, host, [])).toEqual([]);
        };
        await expectAll();
        await settle();
        await expectAll();
        await s.market.drop(82);
        expect((await s.market.domains(acc, host, "keysso", "msk", [81])).map((d) => d.domain)).toEqual(["rival.ru", "Zeta.ru"]);
        await expect(s.market.add({ importId: 85, accountId: acc, host, provider: "keysso" }, { domains: [], keywords: [kw("msk", "a.ru", "x", Number.NaN, "/", 1)] })).rejects.toThrow(RangeError);
      });
    });
  });
}
