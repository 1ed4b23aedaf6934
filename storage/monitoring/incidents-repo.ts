import type { Db } from "../engine/db.ts";

/** What an incident is about: the probes' (down, degraded) and the analyses' (certificate, noindex, robots). */
export type IncidentKind = "down" | "degraded" | "certificate" | "noindex" | "robots";

export interface IncidentRow {
  readonly id: number;
  readonly host: string;
  readonly kind: IncidentKind;
  readonly title: string;
  readonly cause: string;
  readonly status: "open" | "closed";
  readonly first_seen: number;
  readonly resolved_at: number | null;
}

const INCIDENT_COLUMNS = "id, host, kind, title, cause, status, first_seen, resolved_at";

/**
 * A host's incidents, whoever finds them: the uptime probes' settlement and the analyses'. At most
 * one incident of a kind is open per host (the partial unique index incidents_open). The writes
 * belong in the unit of work of the settlement that causes them (`store.tx`), with its events.
 */
export class IncidentsRepo {
  constructor(private readonly db: Db) {}

  /** A host's open incidents of the given kinds, locked until the unit of work ends. */
  async openOf(host: string, kinds: readonly IncidentKind[]): Promise<Pick<IncidentRow, "id" | "kind" | "cause">[]> {
    return this.db.query<Pick<IncidentRow, "id" | "kind" | "cause">>(
      "SELECT id, kind, cause FROM incidents WHERE host = $1 AND status = 'open' AND kind = ANY ($2::text[]) ORDER BY id FOR UPDATE",
      [host, kinds],
    );
  }

  /** Opens an incident beginning at `at` (an open one of the kind stays as it is); returns its id. */
  async open(i: { host: string; kind: IncidentKind; title: string; cause: string; at: number }): Promise<number> {
    const [row] = await this.db.query<{ id: number }>(
      `INSERT INTO incidents (host, kind, title, cause, status, first_seen) VALUES ($1, $2, $3, $4, 'open', $5)
       ON CONFLICT (host, kind) WHERE status = 'open' DO UPDATE SET cause = incidents.cause RETURNING id`,
      [i.host, i.kind, i.title, i.cause, i.at],
    );
    return Number(row?.id);
  }

  /** Retitles an open incident whose cause got worse; returns its id, or null when none is open. */
  async revise(i: { host: string; kind: IncidentKind; title: string; cause: string }): Promise<number | null> {
    const [row] = await this.db.query<{ id: number }>(
      "UPDATE incidents SET title = $3, cause = $4 WHERE host = $1 AND kind = $2 AND status = 'open' RETURNING id",
      [i.host, i.kind, i.title, i.cause],
    );
    return row ? Number(row.id) : null;
  }

  /** Closes the open incident of a kind at `at` (never before it began); returns its id, or null when none was open. */
  async close(host: string, kind: IncidentKind, at: number): Promise<number | null> {
    const [row] = await this.db.query<{ id: number }>(
      "UPDATE incidents SET status = 'closed', resolved_at = greatest(first_seen, $3) WHERE host = $1 AND kind = $2 AND status = 'open' RETURNING id",
      [host, kind, at],
    );
    return row ? Number(row.id) : null;
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

  /** A host's latest incidents, newest first. */
  async latest(host: string, limit: number): Promise<IncidentRow[]> {
    return this.db.query<IncidentRow>(`SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE host = $1 ORDER BY first_seen DESC, id DESC LIMIT $2`, [host, limit]);
  }

  /** A host's incidents that began, or were still open, after `since`; oldest first. */
  async since(host: string, since: number): Promise<IncidentRow[]> {
    return this.db.query<IncidentRow>(
      `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE host = $1 AND coalesce(resolved_at, first_seen, $2) >= $2 ORDER BY first_seen, id`,
      [host, since],
    );
  }

  /** Incidents of the sites of an account that began or were open after `since`, newest first, with the total. */
  async ofAccount(
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

  /** Open incidents by kind, in the whole cluster (the partial index incidents_open holds exactly these rows). */
  async openCounts(): Promise<Map<IncidentKind, number>> {
    const rows = await this.db.query<{ kind: IncidentKind; n: number }>("SELECT kind, count(*)::int AS n FROM incidents WHERE status = 'open' GROUP BY kind");
    return new Map(rows.map((r) => [r.kind, r.n]));
  }
}
