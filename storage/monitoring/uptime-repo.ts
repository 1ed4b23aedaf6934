import type { Db, Queryable } from "../engine/db.ts";
import { appendEvents, type NewEvent } from "../work/events-repo.ts";
import { enqueueOutbox, type OutboxMessage } from "../work/jobs-repo.ts";
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

export interface IncidentRow {
  readonly id: number;
  readonly host: string;
  readonly kind: "down" | "degraded" | "certificate" | "noindex" | "robots";
  readonly title: string;
  readonly cause: string;
  readonly status: "open" | "closed";
  readonly first_seen: number;
  readonly resolved_at: number | null;
}

/** What the scheduler decided for one probe result: the target's new state and what follows. */
export interface ProbeSettlement {
  readonly target: Pick<UptimeTargetRow, "state" | "since" | "suspect_at" | "fails" | "successes" | "slow" | "recovering_at">;
  /** A new probe URL: the scheme a probe found the site answering on, while no analysis resolved it. */
  readonly url?: string;
  /** A confirmation probe to plan now. */
  readonly confirm?: OutboxMessage;
  readonly open?: { readonly kind: IncidentRow["kind"]; readonly title: string; readonly cause: string; readonly firstSeen: number };
  readonly close?: { readonly kind: IncidentRow["kind"]; readonly at: number };
  /** Events, given the incident opened or closed (its id) and the accounts that monitor the host. */
  readonly events?: (incidentId: number | null, accounts: readonly number[]) => NewEvent[];
}

const TARGET_COLUMNS = "host, url, interval_s, next_slot, state, since, suspect_at, first_probe, fails, successes, slow, last_check, last_status, last_cause, keyword, url_known, recovering_at";
const INCIDENT_COLUMNS = "id, host, kind, title, cause, status, first_seen, resolved_at";

/**
 * Uptime monitoring on the account database: the probing state of every monitored host and
 * incidents. Raw probes live behind the UptimeSeries port (ClickHouse in the distributed mode).
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
   * its latest slot) and moves each host to its next slot; `plan` turns them into bus messages,
   * written to the outbox in the same transaction — a crash before publishing loses nothing.
   */
  async planDue(now: number, limit: number, plan: (due: DueProbe[]) => OutboxMessage[]): Promise<number> {
    return this.db.tx(async (q) => {
      const rows = await q.query<{ host: string; url: string; interval_s: number; next_slot: number; keyword: string; url_known: boolean }>(
        "SELECT host, url, interval_s, next_slot, keyword, url_known FROM uptime_targets WHERE next_slot <= $1 ORDER BY next_slot LIMIT $2 FOR UPDATE SKIP LOCKED",
        [now, limit],
      );
      if (rows.length === 0) return 0;
      const due = rows.map((r) => ({
        host: r.host,
        url: r.url,
        keyword: r.keyword,
        schemeUnknown: !r.url_known,
        slot: r.next_slot + Math.floor((now - r.next_slot) / r.interval_s) * r.interval_s,
      }));
      await q.query(
        `UPDATE uptime_targets t SET next_slot = d.slot + t.interval_s FROM unnest($1::text[], $2::bigint[]) AS d(host, slot) WHERE t.host = d.host`,
        [due.map((d) => d.host), due.map((d) => d.slot)],
      );
      for (const m of plan(due)) await enqueueOutbox(q, m, now);
      return due.length;
    });
  }

  /**
   * Applies a batch of probe results (stored in the time series before this) in order: for each
   * result newer than the last its host applied (a duplicate or an older one changes nothing), the
   * state `decide` gives the host, with the incident, the events and the confirmation it asks for —
   * all in one transaction.
   */
  async settle(probes: readonly ProbeRow[], now: number, decide: (target: UptimeTargetRow, probe: ProbeRow) => ProbeSettlement): Promise<number> {
    return this.db.tx(async (q) => {
      let settled = 0;
      const events: NewEvent[] = [];
      for (const p of probes) {
        const [target] = await q.query<UptimeTargetRow & { last_ordinal: number }>(`SELECT ${TARGET_COLUMNS}, last_ordinal FROM uptime_targets WHERE host = $1 FOR UPDATE`, [p.host]);
        if (!target) continue; // nobody monitors it any more
        const ordinal = p.slot * 2 + (p.confirm ? 1 : 0);
        if (ordinal <= Number(target.last_ordinal)) continue;
        const s = decide(target, p);
        await q.query(
          `UPDATE uptime_targets SET state = $2, since = $3, suspect_at = $4, fails = $5, successes = $6, slow = $7,
             last_check = greatest(coalesce(last_check, 0), $8), last_status = $9, last_cause = $10, first_probe = coalesce(first_probe, $8), last_ordinal = $11,
             recovering_at = $12, url = CASE WHEN url_known THEN url ELSE coalesce($13, url) END
           WHERE host = $1`,
          [p.host, s.target.state, s.target.since, s.target.suspect_at, s.target.fails, s.target.successes, s.target.slow, p.at, p.status, p.cause, ordinal, s.target.recovering_at, s.url ?? null],
        );
        if (s.confirm) await enqueueOutbox(q, s.confirm, now);
        let incidentId: number | null = null;
        if (s.open) {
          const [row] = await q.query<{ id: number }>(
            `INSERT INTO incidents (host, kind, title, cause, status, first_seen) VALUES ($1, $2, $3, $4, 'open', $5)
             ON CONFLICT (host, kind) WHERE status = 'open' DO UPDATE SET cause = incidents.cause RETURNING id`,
            [p.host, s.open.kind, s.open.title, s.open.cause, s.open.firstSeen],
          );
          incidentId = row?.id ?? null;
        }
        if (s.close) {
          const [row] = await q.query<{ id: number }>(
            "UPDATE incidents SET status = 'closed', resolved_at = $3 WHERE host = $1 AND kind = $2 AND status = 'open' RETURNING id",
            [p.host, s.close.kind, s.close.at],
          );
          incidentId = row?.id ?? null;
        }
        if (s.events) {
          const accounts = (await q.query<{ account_id: number }>("SELECT account_id FROM sites WHERE host = $1 ORDER BY account_id", [p.host])).map((r) => r.account_id);
          events.push(...s.events(incidentId, accounts));
        }
        settled += 1;
      }
      // Last in the transaction: appends serialise from here to the commit.
      await appendEvents(q, events, now);
      return settled;
    });
  }

  /** A host's open incidents of the given kinds (within the caller's transaction, rows locked). */
  async openIncidents(q: Queryable, host: string, kinds: readonly string[]): Promise<Pick<IncidentRow, "id" | "kind" | "cause">[]> {
    return q.query<Pick<IncidentRow, "id" | "kind" | "cause">>(
      "SELECT id, kind, cause FROM incidents WHERE host = $1 AND status = 'open' AND kind = ANY ($2::text[]) ORDER BY id FOR UPDATE",
      [host, kinds],
    );
  }

  /** Opens an incident (an open one of the kind stays as it is); returns its id. */
  async openIncident(q: Queryable, i: { host: string; kind: IncidentRow["kind"]; title: string; cause: string; at: number }): Promise<number> {
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO incidents (host, kind, title, cause, status, first_seen) VALUES ($1, $2, $3, $4, 'open', $5)
       ON CONFLICT (host, kind) WHERE status = 'open' DO UPDATE SET cause = incidents.cause RETURNING id`,
      [i.host, i.kind, i.title, i.cause, i.at],
    );
    return Number(row?.id);
  }

  /** Retitles an open incident whose cause got worse; returns its id, or null when none is open. */
  async reviseIncident(q: Queryable, i: { host: string; kind: IncidentRow["kind"]; title: string; cause: string }): Promise<number | null> {
    const [row] = await q.query<{ id: number }>(
      "UPDATE incidents SET title = $3, cause = $4 WHERE host = $1 AND kind = $2 AND status = 'open' RETURNING id",
      [i.host, i.kind, i.title, i.cause],
    );
    return row ? Number(row.id) : null;
  }

  /** Closes the open incident of a kind; returns its id, or null when none was open. */
  async closeIncident(q: Queryable, host: string, kind: IncidentRow["kind"], at: number): Promise<number | null> {
    const [row] = await q.query<{ id: number }>(
      "UPDATE incidents SET status = 'closed', resolved_at = greatest(first_seen, $3) WHERE host = $1 AND kind = $2 AND status = 'open' RETURNING id",
      [host, kind, at],
    );
    return row ? Number(row.id) : null;
  }

  async target(host: string): Promise<UptimeTargetRow | null> {
    const [row] = await this.db.query<UptimeTargetRow>(`SELECT ${TARGET_COLUMNS} FROM uptime_targets WHERE host = $1`, [host]);
    return row ?? null;
  }

  /** Seconds a host was down (confirmed down incidents) within [from, to). */
  async downSeconds(host: string, from: number, to: number): Promise<number> {
    const [row] = await this.db.query<{ s: number | null }>(
      `SELECT sum(greatest(0, least(coalesce(resolved_at, $3), $3) - greatest(first_seen, $2)))::bigint AS s
       FROM incidents WHERE host = $1 AND kind = 'down' AND first_seen < $3 AND coalesce(resolved_at, $3) > $2`,
      [host, from, to],
    );
    return Number(row?.s ?? 0);
  }

  /** A host's latest incidents. */
  async incidentsOf(host: string, limit: number): Promise<IncidentRow[]> {
    return this.db.query<IncidentRow>(`SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE host = $1 ORDER BY first_seen DESC, id DESC LIMIT $2`, [host, limit]);
  }

  /** A host's incidents that began, or were still open, after `since`; oldest first. */
  async incidentsSince(host: string, since: number): Promise<IncidentRow[]> {
    return this.db.query<IncidentRow>(
      `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE host = $1 AND coalesce(resolved_at, first_seen, $2) >= $2 ORDER BY first_seen, id`,
      [host, since],
    );
  }

  /** Incidents of the sites of an account that began or were open after `since`, newest first. */
  async incidents(
    accountId: number,
    o: { host?: string; since: number; status: "all" | "open" | "closed"; limit: number; offset: number },
  ): Promise<{ rows: IncidentRow[]; total: number }> {
    const where = ["i.host IN (SELECT host FROM sites WHERE account_id = $1)", "(i.first_seen >= $2 OR coalesce(i.resolved_at, $2) >= $2)"];
    const params: unknown[] = [accountId, o.since];
    if (o.host !== undefined) {
      params.push(o.host);
      where.push(`i.host = $${params.length}`);
    }
    if (o.status !== "all") {
      params.push(o.status);
      where.push(`i.status = $${params.length}`);
    }
    const cond = where.join(" AND ");
    const rows = await this.db.query<IncidentRow>(
      `SELECT ${INCIDENT_COLUMNS.split(", ").map((c) => `i.${c}`).join(", ")} FROM incidents i WHERE ${cond}
       ORDER BY i.first_seen DESC, i.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, o.limit, o.offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM incidents i WHERE ${cond}`, params);
    return { rows, total: count?.n ?? 0 };
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

  /** Open incidents by kind, in the whole cluster (the partial index incidents_open holds exactly these rows). */
  async openIncidentCounts(): Promise<Map<IncidentRow["kind"], number>> {
    const rows = await this.db.query<{ kind: IncidentRow["kind"]; n: number }>("SELECT kind, count(*)::int AS n FROM incidents WHERE status = 'open' GROUP BY kind");
    return new Map(rows.map((r) => [r.kind, r.n]));
  }
}
