import { assertSample, hourWindow, type ProbeSample, type ProbeSummary, type ProbeTimings, type UptimeSeries } from "../monitoring/uptime-series.ts";
import { UPTIME_PROBES_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inList, sql } from "../engine/clickhouse-sql.ts";

const COLUMNS = ["host", "slot", "confirm", "at", "ok", "status", "cause", "dns_ms", "connect_ms", "tls_ms", "ttfb_ms", "total_ms", "late_ms", "node", "held"] as const;
const DAY_S = 86_400;

const keyOf = (p: Pick<ProbeSample, "host" | "slot" | "confirm">) => `${p.host}\n${p.slot}\n${p.confirm ? 1 : 0}`;

/**
 * UptimeSeries on ClickHouse: raw probes in a ReplacingMergeTree with monthly partitions (retention
 * drops whole months), and rollups per hour and per day that materialized views fill as probes
 * arrive, so a window of any length is a sum over at most a few hundred rows.
 */
export class ClickHouseUptimeSeries implements UptimeSeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(probes: readonly ProbeSample[]): Promise<void> {
    probes.forEach(assertSample);
    const fresh = new Map<string, ProbeSample>();
    for (const p of probes) if (!fresh.has(keyOf(p))) fresh.set(keyOf(p), p);
    if (fresh.size === 0) return;
    // The rollups count what is inserted, before merges remove duplicates: a result stored again
    // (redelivered after a crash) must not be inserted again. Results of one host come one at a
    // time (the results topic is keyed by domain), so reading the keys first is enough.
    const list = [...fresh.values()];
    const stored = await this.ch.query<{ h: string; s: string; c: number }>(
      sql`SELECT host AS h, toString(slot) AS s, confirm AS c FROM uptime_probes
          WHERE host IN ${inList([...new Set(list.map((p) => p.host))])} AND slot IN ${inList([...new Set(list.map((p) => p.slot))])}`,
    );
    for (const r of stored) fresh.delete(keyOf({ host: r.h, slot: Number(r.s), confirm: Number(r.c) === 1 }));
    const rows = [...fresh.values()].map((p) => ({
      host: p.host,
      slot: p.slot,
      confirm: p.confirm ? 1 : 0,
      at: p.at,
      ok: p.ok ? 1 : 0,
      status: p.status,
      cause: p.cause,
      dns_ms: p.dnsMs,
      connect_ms: p.connectMs,
      tls_ms: p.tlsMs,
      ttfb_ms: p.ttfbMs,
      total_ms: p.totalMs,
      late_ms: p.lateMs,
      node: p.node,
      held: p.held ? 1 : 0,
    }));
    if (rows.length > 0) await this.ch.insert(UPTIME_PROBES_TABLE, COLUMNS, rows);
  }

  async lastTimings(host: string): Promise<ProbeTimings | null> {
    const [row] = await this.ch.query<{ dns_ms: number; connect_ms: number; tls_ms: number; ttfb_ms: number; total_ms: number }>(
      sql`SELECT dns_ms, connect_ms, tls_ms, ttfb_ms, total_ms FROM uptime_probes
          WHERE host = ${host} AND held = 0 ORDER BY at DESC, slot DESC, confirm DESC LIMIT 1`,
    );
    if (!row) return null;
    // Float32 columns: the values were stored to one decimal.
    const r = (n: number) => Math.round(Number(n) * 10) / 10;
    return { dns_ms: r(row.dns_ms), connect_ms: r(row.connect_ms), tls_ms: r(row.tls_ms), ttfb_ms: r(row.ttfb_ms), total_ms: r(row.total_ms) };
  }

  async summary(host: string, from: number, to: number): Promise<ProbeSummary> {
    if (to <= from) return { probes: 0, failed: 0, avgTotalMs: null };
    // Whole UTC days inside the window from the daily rollup, whole hours from the hourly one, and
    // the seconds before the first whole hour and after the last from the raw probes (FINAL: one
    // row per key, as the rollups count them).
    const w = hourWindow(from, to);
    const raw = (a: number, b: number) =>
      sql`SELECT toUInt64(1) AS probes, toUInt64(ok = 0) AS failed, toUInt64(ok) AS ok_probes, if(ok = 1, toFloat64(total_ms), 0) AS ok_total_ms
          FROM uptime_probes FINAL WHERE host = ${host} AND held = 0 AND at >= toDateTime(${a}, 'UTC') AND at < toDateTime(${b}, 'UTC')`;
    let parts;
    if (w.to <= w.from) {
      parts = raw(from, to);
    } else {
      const dayFrom = Math.ceil(w.from / DAY_S) * DAY_S;
      const dayTo = Math.floor(w.to / DAY_S) * DAY_S;
      const hours =
        dayTo > dayFrom
          ? sql`SELECT probes, failed, ok_probes, ok_total_ms FROM uptime_daily WHERE host = ${host} AND day >= toDate(toDateTime(${dayFrom}, 'UTC')) AND day < toDate(toDateTime(${dayTo}, 'UTC'))
                UNION ALL SELECT probes, failed, ok_probes, ok_total_ms FROM uptime_hourly WHERE host = ${host}
                  AND ((hour >= toDateTime(${w.from}, 'UTC') AND hour < toDateTime(${dayFrom}, 'UTC')) OR (hour >= toDateTime(${dayTo}, 'UTC') AND hour < toDateTime(${w.to}, 'UTC')))`
          : sql`SELECT probes, failed, ok_probes, ok_total_ms FROM uptime_hourly WHERE host = ${host} AND hour >= toDateTime(${w.from}, 'UTC') AND hour < toDateTime(${w.to}, 'UTC')`;
      parts = sql`${hours} UNION ALL ${raw(from, w.from)} UNION ALL ${raw(w.to, to)}`;
    }
    const [row] = await this.ch.query<{ p: string; f: string; o: string; t: number }>(
      sql`SELECT toString(sum(probes)) AS p, toString(sum(failed)) AS f, toString(sum(ok_probes)) AS o, sum(ok_total_ms) AS t FROM (${parts})`,
    );
    const ok = Number(row?.o ?? 0);
    return { probes: Number(row?.p ?? 0), failed: Number(row?.f ?? 0), avgTotalMs: ok > 0 ? Number(row?.t ?? 0) / ok : null };
  }
}
