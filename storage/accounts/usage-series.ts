import type { Db } from "../engine/db.ts";

export interface UsageDelta {
  readonly keyId: number;
  /** UTC day, YYYY-MM-DD. */
  readonly day: string;
  readonly calls: number;
  readonly errors: number;
  readonly limited: number;
}

export interface UsageDay {
  readonly day: string;
  readonly calls: number;
  readonly errors: number;
  readonly limited: number;
}

/**
 * The time-series port for per-day usage. The embedded mode keeps it in Postgres tables; the
 * distributed mode implements the same interface on ClickHouse.
 */
export interface UsageSeries {
  add(deltas: readonly UsageDelta[]): Promise<void>;
  /** Days with any usage of the key, from..to inclusive (YYYY-MM-DD), oldest first. */
  read(keyIds: readonly number[], from: string, to: string): Promise<UsageDay[]>;
}

export class PostgresUsageSeries implements UsageSeries {
  constructor(private readonly db: Db) {}

  async add(input: readonly UsageDelta[]): Promise<void> {
    if (input.length === 0) return;
    // One row per (key, day): an upsert may not touch a row twice in one statement.
    const merged = new Map<string, UsageDelta>();
    for (const d of input) {
      const id = `${d.keyId}|${d.day}`;
      const m = merged.get(id);
      merged.set(id, m ? { ...m, calls: m.calls + d.calls, errors: m.errors + d.errors, limited: m.limited + d.limited } : d);
    }
    const deltas = [...merged.values()];
    await this.db.query(
      `INSERT INTO usage_daily (key_id, day, calls, errors, limited)
       SELECT * FROM unnest($1::bigint[], $2::date[], $3::bigint[], $4::bigint[], $5::bigint[])
       ON CONFLICT (key_id, day) DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls,
         errors = usage_daily.errors + EXCLUDED.errors, limited = usage_daily.limited + EXCLUDED.limited`,
      [
        deltas.map((d) => d.keyId),
        deltas.map((d) => d.day),
        deltas.map((d) => d.calls),
        deltas.map((d) => d.errors),
        deltas.map((d) => d.limited),
      ],
    );
  }

  async read(keyIds: readonly number[], from: string, to: string): Promise<UsageDay[]> {
    return this.db.query<UsageDay>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(calls)::bigint AS calls, sum(errors)::bigint AS errors, sum(limited)::bigint AS limited
       FROM usage_daily WHERE key_id = ANY ($1::bigint[]) AND day BETWEEN $2::date AND $3::date
       GROUP BY day ORDER BY day`,
      [keyIds, from, to],
    );
  }
}
