import type { Db } from "../engine/db.ts";

/** One uptime probe as the time series keeps it (unix seconds; timings in ms). */
export interface ProbeSample {
  readonly host: string;
  /** The slot it was planned for. */
  readonly slot: number;
  /** A confirmation of a failed probe. */
  readonly confirm: boolean;
  /** When it ran. */
  readonly at: number;
  readonly ok: boolean;
  readonly status: number;
  readonly cause: string;
  readonly dnsMs: number;
  readonly connectMs: number;
  readonly tlsMs: number;
  readonly ttfbMs: number;
  readonly totalMs: number;
  readonly lateMs: number;
  readonly node: string;
  /** A failure of a node that suspected itself: not evidence about the site. */
  readonly held: boolean;
}

export interface ProbeTimings {
  readonly dns_ms: number;
  readonly connect_ms: number;
  readonly tls_ms: number;
  readonly ttfb_ms: number;
  readonly total_ms: number;
}

/** Probes of a host within a window, held ones left out. */
export interface ProbeSummary {
  readonly probes: number;
  readonly failed: number;
  /** Mean total time of the probes that succeeded (ms), null without one. */
  readonly avgTotalMs: number | null;
}

/**
 * The time-series port for uptime probes: raw probes keyed by (host, slot, confirm) — a result
 * stored twice (a redelivery) counts once — and windows of them. The embedded mode keeps them in
 * Postgres; the distributed mode on ClickHouse, with hourly and daily rollups.
 */
export interface UptimeSeries {
  add(probes: readonly ProbeSample[]): Promise<void>;
  /** The latest probe that was not held. */
  lastTimings(host: string): Promise<ProbeTimings | null>;
  /**
   * Probes that ran in [from, to), to the second (not only whole hours: a window that ends now
   * counts the probes of the current hour). Counts and means are exact.
   */
  summary(host: string, from: number, to: number): Promise<ProbeSummary>;
}

export const HOUR_S = 3600;

/**
 * The whole hours inside [from, to) — what rollups of the hour grain can answer; the seconds
 * before and after them are read from the raw probes. Empty (from ≥ to) when no whole hour fits.
 */
export function hourWindow(from: number, to: number): { from: number; to: number } {
  return { from: Math.ceil(from / HOUR_S) * HOUR_S, to: Math.floor(to / HOUR_S) * HOUR_S };
}

export function assertSample(p: ProbeSample): void {
  if (typeof p.host !== "string" || p.host === "" || p.host.includes("\0")) throw new RangeError(`not a host: ${JSON.stringify(p.host)}`);
  for (const [name, n] of [["slot", p.slot], ["at", p.at], ["status", p.status]] as const) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
  }
  for (const [name, n] of [["dnsMs", p.dnsMs], ["connectMs", p.connectMs], ["tlsMs", p.tlsMs], ["ttfbMs", p.ttfbMs], ["totalMs", p.totalMs], ["lateMs", p.lateMs]] as const) {
    if (!Number.isFinite(n) || n < 0) throw new RangeError(`${name} must be a non-negative number, got ${n}`);
  }
}

export class PostgresUptimeSeries implements UptimeSeries {
  constructor(private readonly db: Db) {}

  async add(probes: readonly ProbeSample[]): Promise<void> {
    if (probes.length === 0) return;
    probes.forEach(assertSample);
    const col = <T>(f: (p: ProbeSample) => T) => probes.map(f);
    await this.db.query(
      `INSERT INTO uptime_probes (host, slot, confirm, at, ok, status, cause, dns_ms, connect_ms, tls_ms, ttfb_ms, total_ms, late_ms, node, held)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bool[], $4::bigint[], $5::bool[], $6::int[], $7::text[], $8::real[], $9::real[], $10::real[], $11::real[], $12::real[], $13::real[], $14::text[], $15::bool[])
       ON CONFLICT DO NOTHING`,
      [
        col((p) => p.host),
        col((p) => p.slot),
        col((p) => p.confirm),
        col((p) => p.at),
        col((p) => p.ok),
        col((p) => p.status),
        col((p) => p.cause),
        col((p) => p.dnsMs),
        col((p) => p.connectMs),
        col((p) => p.tlsMs),
        col((p) => p.ttfbMs),
        col((p) => p.totalMs),
        col((p) => p.lateMs),
        col((p) => p.node),
        col((p) => p.held),
      ],
    );
  }

  async lastTimings(host: string): Promise<ProbeTimings | null> {
    const [row] = await this.db.query<ProbeTimings>(
      "SELECT dns_ms, connect_ms, tls_ms, ttfb_ms, total_ms FROM uptime_probes WHERE host = $1 AND NOT held ORDER BY at DESC, slot DESC, confirm DESC LIMIT 1",
      [host],
    );
    return row ?? null;
  }

  async summary(host: string, from: number, to: number): Promise<ProbeSummary> {
    const [row] = await this.db.query<{ probes: number; failed: number; avg: number | null }>(
      `SELECT count(*)::int AS probes, count(*) FILTER (WHERE NOT ok)::int AS failed, avg(total_ms) FILTER (WHERE ok)::float8 AS avg
       FROM uptime_probes WHERE host = $1 AND NOT held AND at >= $2 AND at < $3`,
      [host, from, to],
    );
    return { probes: row?.probes ?? 0, failed: row?.failed ?? 0, avgTotalMs: row?.avg ?? null };
  }
}
