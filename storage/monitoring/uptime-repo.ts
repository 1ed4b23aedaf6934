import type { Db } from "../engine/db.ts";
import type { ProbeSample } from "./uptime-series.ts";

export type UptimeStateName = "unknown" | "up" | "suspect" | "down" | "degraded";

/** A monitored host's probing state (uptime_targets). */
export interface UptimeTargetRow {
  readonly host: string;
  readonly url: string;
  readonly interval_s: number;
  readonly next_slot: number;
  readonly state: UptimeStateName;
  readonly since: number | null;
  readonly suspect_at: number | null;
  readonly first_probe: number | null;
  readonly fails: number;
  readonly successes: number;
  readonly slow: number;
  readonly last_check: number | null;
  readonly last_status: number | null;
  readonly last_cause: string | null;
  /** The text a probe's answer must contain; empty: none. */
  readonly keyword: string;
  /** The URL is the home URL an analysis resolved; false: the scheme is still a guess. */
  readonly url_known: boolean;
  /** While down: when the first of the consecutive successes came (null: none yet). */
  readonly recovering_at: number | null;
}

/** A probe due in a slot. */
export interface DueProbe {
  readonly host: string;
  readonly url: string;
  readonly slot: number;
  readonly keyword: string;
  /** No analysis resolved the site's scheme: the probe may fall back to http://. */
  readonly schemeUnknown: boolean;
}

/** One probe's result as the scheduler settles it (the time series stores it as it is), with the URL it probed. */
export type ProbeRow = ProbeSample & { readonly url?: string };

/** A target's state after a probe, as the scheduler's state machine decided it. */
export type TargetState = Pick<UptimeTargetRow, "state" | "since" | "suspect_at" | "fails" | "successes" | "slow" | "recovering_at">;

const TARGET_COLUMNS = "host, url, interval_s, next_slot, state, since, suspect_at, first_probe, fails, successes, slow, last_check, last_status, last_cause, keyword, url_known, recovering_at";

/**
 * Uptime monitoring on the account database: the probing state of every monitored host (its
 * incidents are the incidents repository's). Raw probes live behind the UptimeSeries port
 * (ClickHouse in the distributed mode).
 */
export class UptimeRepo {
  constructor(private readonly db: Db) {}

  /**
   * Keeps one target per monitored host: new hosts get a slot at a stable offset within their
   * interval (so that slots spread instead of all falling on the minute); the interval is the
   * shortest of the plans of the accounts that monitor the host; hosts nobody monitors go. A
   * target that did not change is not written (an idle scheduler runs this every 15 s).
   *
   * The URL is the origin of the latest run whose home page answered: a run that got no answer
   * (the site was down while it ran) says nothing about the scheme and moves nothing. Before any
   * such run, a new target starts at https:// with url_known false (the probe then finds the
   * scheme the site answers on, and keeps it: see settle).
   */
  async syncTargets(now: number): Promise<void> {
    await this.db.tx(async (q) => {
      await q.query(
        `INSERT INTO uptime_targets (host, url, url_known, interval_s, next_slot, keyword)
         SELECT g.host, coalesce(g.origin, 'https://' || g.host) || '/', g.origin IS NOT NULL, g.interval_s, g.next_slot, g.keyword
         FROM (
           SELECT s.host,
                  (SELECT r.report->>'origin' FROM runs r
                    WHERE r.host = s.host
                      AND EXISTS (SELECT 1 FROM jsonb_array_elements(r.report->'items') AS i(item)
                                   WHERE i.item->>'code' = 'home_status' AND jsonb_typeof(i.item->'value') = 'number')
                    ORDER BY r.id DESC LIMIT 1) AS origin,
                  min(p.uptime_min) * 60 AS interval_s,
                  $1 + abs(hashtext(s.host)) % (min(p.uptime_min) * 60) AS next_slot,
                  coalesce((SELECT k.uptime_keyword FROM sites k WHERE k.host = s.host AND coalesce(k.uptime_keyword, '') <> '' ORDER BY k.added, k.account_id LIMIT 1), '') AS keyword
           FROM sites s JOIN accounts a ON a.id = s.account_id JOIN plans p ON p.id = a.plan_id
           GROUP BY s.host) g
         ON CONFLICT (host) DO UPDATE SET interval_s = EXCLUDED.interval_s, keyword = EXCLUDED.keyword,
           url = CASE WHEN EXCLUDED.url_known THEN EXCLUDED.url ELSE uptime_targets.url END,
           url_known = uptime_targets.url_known OR EXCLUDED.url_known
         WHERE (uptime_targets.interval_s, uptime_targets.keyword) IS DISTINCT FROM (EXCLUDED.interval_s, EXCLUDED.keyword)
            OR (EXCLUDED.url_known AND (uptime_targets.url, uptime_targets.url_known) IS DISTINCT FROM (EXCLUDED.url, true))`,
        [now],
      );
      await q.query("DELETE FROM uptime_targets t WHERE NOT EXISTS (SELECT 1 FROM sites s WHERE s.host = t.host)");
    });
  }

  /** Whether a probe is due by `now`: a read, so that an idle pass opens no transaction (planDue takes them). */
  async anyDue(now: number): Promise<boolean> {
    const [row] = await this.db.query<{ due: boolean }>("SELECT EXISTS (SELECT 1 FROM uptime_targets WHERE next_slot <= $1) AS due", [now]);
    return row?.due === true;
  }

  /**
   * Takes the probes due by `now` (one per host: a host whose slots were missed is probed once, in
   * its latest slot), oldest slot first, and moves each host to its next slot. Rows another
   * scheduler holds are skipped; in a unit of work they stay held until the probes' outbox
   * messages commit with the move.
   */
  async takeDue(now: number, limit: number): Promise<DueProbe[]> {
    const rows = await this.db.query<{ host: string; url: string; keyword: string; url_known: boolean; slot: number; was: number }>(
      `WITH due AS (
         SELECT host, next_slot AS was, next_slot + (($1::bigint - next_slot) / interval_s) * interval_s AS slot
         FROM uptime_targets WHERE next_slot <= $1 ORDER BY next_slot LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE uptime_targets t SET next_slot = due.slot + t.interval_s FROM due WHERE t.host = due.host
       RETURNING t.host, t.url, t.keyword, t.url_known, due.slot, due.was`,
      [now, limit],
    );
    return rows
      .sort((a, b) => a.was - b.was || (a.host < b.host ? -1 : 1))
      .map((r) => ({ host: r.host, url: r.url, keyword: r.keyword, schemeUnknown: !r.url_known, slot: Number(r.slot) }));
  }

  /**
   * The target a probe result is for, locked until the unit of work ends; null when nobody
   * monitors the host any more, or when the host applied this result or a newer one already (a
   * duplicate or a late result changes nothing).
   */
  async lockForProbe(probe: Pick<ProbeRow, "host" | "slot" | "confirm">): Promise<UptimeTargetRow | null> {
    const [target] = await this.db.query<UptimeTargetRow & { last_ordinal: number }>(`SELECT ${TARGET_COLUMNS}, last_ordinal FROM uptime_targets WHERE host = $1 FOR UPDATE`, [probe.host]);
    if (!target || ordinalOf(probe) <= Number(target.last_ordinal)) return null;
    const { last_ordinal: _, ...row } = target;
    return row;
  }

  /**
   * Applies a probe result to its target: the state decided, the result's time, status and cause,
   * and `url`, the scheme a probe found the site answering on (kept only while no analysis
   * resolved it).
   */
  async recordProbe(probe: ProbeRow, state: TargetState, url?: string): Promise<void> {
    await this.db.query(
      `UPDATE uptime_targets SET state = $2, since = $3, suspect_at = $4, fails = $5, successes = $6, slow = $7,
         last_check = greatest(coalesce(last_check, 0), $8), last_status = $9, last_cause = $10, first_probe = coalesce(first_probe, $8), last_ordinal = $11,
         recovering_at = $12, url = CASE WHEN url_known THEN url ELSE coalesce($13, url) END
       WHERE host = $1`,
      [probe.host, state.state, state.since, state.suspect_at, state.fails, state.successes, state.slow, probe.at, probe.status, probe.cause, ordinalOf(probe), state.recovering_at, url ?? null],
    );
  }

  async target(host: string): Promise<UptimeTargetRow | null> {
    const [row] = await this.db.query<UptimeTargetRow>(`SELECT ${TARGET_COLUMNS} FROM uptime_targets WHERE host = $1`, [host]);
    return row ?? null;
  }

  /** Whether each host is up (true), down (false) or not yet known (absent), for the overview. */
  async online(hosts: readonly string[]): Promise<Map<string, boolean>> {
    if (hosts.length === 0) return new Map();
    const rows = await this.db.query<{ host: string; state: UptimeStateName }>("SELECT host, state FROM uptime_targets WHERE host = ANY ($1::text[]) AND state <> 'unknown'", [hosts]);
    return new Map(rows.map((r) => [r.host, r.state !== "down"]));
  }

  /** Hosts of an account that are confirmed down. */
  async downHosts(accountId: number): Promise<string[]> {
    const rows = await this.db.query<{ host: string }>(
      "SELECT t.host FROM uptime_targets t WHERE t.state = 'down' AND t.host IN (SELECT host FROM sites WHERE account_id = $1) ORDER BY t.host",
      [accountId],
    );
    return rows.map((r) => r.host);
  }
}

/** A probe result's place in its host's order: its slot, the confirmation after the first probe. */
function ordinalOf(p: Pick<ProbeRow, "slot" | "confirm">): number {
  return p.slot * 2 + (p.confirm ? 1 : 0);
}
