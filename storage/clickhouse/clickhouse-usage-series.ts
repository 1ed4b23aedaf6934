import type { UsageDay, UsageDelta, UsageSeries } from "../accounts/usage-series.ts";
import { USAGE_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inList, sql } from "../engine/clickhouse-sql.ts";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// ClickHouse's Date ends in 2149; its date functions of 18.16 are exact up to 2105.
const LAST_DAY = "2105-12-31";

/**
 * UsageSeries on a SummingMergeTree: add() appends rows, merges sum them in the background, and
 * read() sums once more, so the answer is exact whether or not the parts have merged yet.
 */
export class ClickHouseUsageSeries implements UsageSeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(input: readonly UsageDelta[]): Promise<void> {
    const merged = new Map<string, UsageDelta>();
    for (const d of input) {
      assertDelta(d);
      const id = `${d.keyId}|${d.day}`;
      const m = merged.get(id);
      merged.set(id, m ? { ...m, calls: m.calls + d.calls, errors: m.errors + d.errors, limited: m.limited + d.limited } : d);
    }
    // A summing merge drops rows whose sums are all zero; dropping them here keeps reads the same
    // before and after merges.
    const rows = [...merged.values()]
      .filter((d) => d.calls !== 0 || d.errors !== 0 || d.limited !== 0)
      .map((d) => ({ key_id: d.keyId, day: d.day, calls: d.calls, errors: d.errors, limited: d.limited }));
    if (rows.length === 0) return;
    await this.ch.insert(USAGE_TABLE, ["key_id", "day", "calls", "errors", "limited"], rows);
  }

  async read(keyIds: readonly number[], from: string, to: string): Promise<UsageDay[]> {
    assertDay(from);
    assertDay(to);
    // Ids the table cannot hold match nothing (and would not convert to UInt64).
    const ids = keyIds.filter((k) => Number.isSafeInteger(k) && k >= 0);
    if (ids.length === 0 || from > to) return [];
    // ClickHouse aliases are visible in WHERE: an alias "day" would replace the column there.
    const rows = await this.ch.query<{ d: string; c: string; e: string; l: string }>(
      sql`SELECT toString(day) AS d, sum(calls) AS c, sum(errors) AS e, sum(limited) AS l
          FROM usage_daily
          WHERE key_id IN ${inList(ids)} AND day >= toDate(${from}) AND day <= toDate(${to})
          GROUP BY day ORDER BY day`,
    );
    return rows.map((r) => ({ day: r.d, calls: Number(r.c), errors: Number(r.e), limited: Number(r.l) }));
  }
}

function assertDelta(d: UsageDelta): void {
  if (!Number.isSafeInteger(d.keyId) || d.keyId < 0) throw new RangeError(`keyId must be a non-negative integer, got ${d.keyId}`);
  assertDay(d.day);
  for (const [name, n] of [["calls", d.calls], ["errors", d.errors], ["limited", d.limited]] as const) {
    if (!Number.isSafeInteger(n)) throw new RangeError(`${name} must be an integer, got ${n}`);
  }
}

function assertDay(day: string): void {
  const valid = typeof day === "string" && DAY.test(day) && day >= "1970-01-01" && day <= LAST_DAY && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
  if (!valid) throw new RangeError(`not a day (YYYY-MM-DD, 1970..2105): ${JSON.stringify(day)}`);
}
