import { WEBHOOK_EVENT_TYPES, type EventLevel, type NewEvent, type WebhookEventType } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";

export type { EventLevel, NewEvent } from "../../analyzer/index.ts";

/** The spec's webhook event types: every event has one (docs/monitoring.md maps what happens to them). */
export const EVENT_TYPES = WEBHOOK_EVENT_TYPES;
export type EventType = WebhookEventType;

/** A stored event, as the feed, the webhook dispatcher and the summaries read it. */
export interface EventRecord {
  readonly id: number;
  readonly account_id: number | null;
  readonly host: string | null;
  readonly type: EventType;
  readonly kind: string;
  readonly text: string;
  readonly level: EventLevel;
  readonly payload: Record<string, unknown>;
  readonly created: number;
}

/** The feed's filters (GET /events): all optional but the account. */
export interface EventFilter {
  readonly accountId: number;
  readonly type?: EventType;
  readonly level?: EventLevel;
  readonly host?: string;
  /** Only events created at or after this unix second (days → now − days × 86400). */
  readonly since?: number;
  /** Only events with a larger id: the polling cursor. */
  readonly afterId?: number;
  readonly limit: number;
  readonly offset: number;
}

/*
 * The cursor rule. Event ids come from a sequence, and a sequence hands out numbers when rows are
 * inserted, not when they commit: with several writers, id 6 can commit before id 5, and a poller
 * that saw 6 and asked for after_id=6 would never see 5. Every append therefore takes one
 * transaction-scoped advisory lock just before it inserts and holds it until its transaction ends,
 * so appending transactions commit one after another in the order of their ids: whatever a poller
 * can see, every smaller id that will ever exist is already visible (or rolled back). The price is
 * that appends serialise from the append to the commit, which is why callers append last in their
 * transaction; PostgreSQL releases the lock only after the commit is visible to other sessions.
 * (A visibility horizon on transaction ids was the alternative; it orders by xid, not by id, and
 * would need a two-part cursor where the contract has one integer.)
 */
const EVENTS_APPEND_LOCK = 7_316_010;

const EVENT_COLUMNS = "id, account_id, host, type, kind, text, level, payload, created";

/**
 * Appends events inside the caller's transaction `q` (the one that causes them). Keys are
 * deterministic: a repeated completion appends nothing new.
 */
export async function appendEvents(q: Queryable, events: readonly NewEvent[], now: number): Promise<void> {
  if (events.length === 0) return;
  await q.query("SELECT pg_advisory_xact_lock($1)", [EVENTS_APPEND_LOCK]);
  for (const e of events) {
    await q.query(
      `INSERT INTO events (event_key, account_id, host, type, kind, text, level, payload, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (event_key) DO NOTHING`,
      [e.eventKey, e.accountId, e.host, e.type, e.kind, e.text, e.level, JSON.stringify(e.payload), now],
    );
  }
}

/** Events of every account after a cursor, oldest first, inside the caller's transaction when it moves a cursor with them. */
export async function eventsAfter(q: Queryable, afterId: number, limit: number): Promise<EventRecord[]> {
  return q.query<EventRecord>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > $1 ORDER BY id ASC LIMIT $2`, [afterId, limit]);
}

/** The one owner of events: appended in the transaction that causes them, read by the feed and its consumers. */
export class EventsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Appends events: within the unit of work the repository is bound to (`store.tx`; call it last
   * there, see appendEvents), or in a transaction of their own.
   */
  async add(events: readonly NewEvent[], now: number): Promise<void> {
    if (events.length === 0) return;
    await this.db.tx((q) => appendEvents(q, events, now));
  }

  /** The feed: an account's events, oldest first after a cursor, newest first otherwise; with the total matching. */
  async list(filter: EventFilter): Promise<{ rows: EventRecord[]; total: number }> {
    const where: string[] = ["account_id = $1"];
    const params: unknown[] = [filter.accountId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace("?", `$${params.length}`));
    };
    if (filter.type !== undefined) add("type = ?", filter.type);
    if (filter.level !== undefined) add("level = ?", filter.level);
    if (filter.host !== undefined) add("host = ?", filter.host);
    if (filter.since !== undefined) add("created >= ?", filter.since);
    if (filter.afterId !== undefined) add("id > ?", filter.afterId);
    const cond = where.join(" AND ");
    // A poller walks forward from its cursor; a reader without one wants the latest first.
    const order = filter.afterId !== undefined ? "id ASC" : "id DESC";
    const rows = await this.db.query<EventRecord>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE ${cond} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE ${cond}`, params);
    return { rows, total: count?.n ?? 0 };
  }

  /** The latest events of one site for an account (GET /site/{host}). */
  async recentForHost(accountId: number, host: string, limit: number): Promise<EventRecord[]> {
    const rows = await this.db.query<EventRecord>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE host = $1 AND account_id = $2 ORDER BY id DESC LIMIT $3`,
      [host, accountId, limit],
    );
    return rows;
  }

  /**
   * Every account's events of [from, to) counted by kind and level (digests themselves aside):
   * what a daily digest summarises. Accounts without events that day are absent.
   */
  async countsBetween(from: number, to: number): Promise<{ account_id: number; kind: string; level: EventLevel; n: number }[]> {
    const rows = await this.db.query<{ account_id: number; kind: string; level: EventLevel; n: number }>(
      `SELECT account_id, kind, level, count(*)::int AS n FROM events
        WHERE created >= $1 AND created < $2 AND account_id IS NOT NULL AND type <> 'digest'
        GROUP BY account_id, kind, level ORDER BY account_id, kind, level`,
      [from, to],
    );
    return rows.map((r) => ({ ...r, account_id: Number(r.account_id) }));
  }

  /** How many tasks a run opened for the first time for an account (its task.new events). */
  async tasksOpenedByRun(accountId: number, host: string, runId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE account_id = $1 AND host = $2 AND kind = 'task.new' AND payload->>'run' = $3",
      [accountId, host, String(runId)],
    );
    return row?.n ?? 0;
  }

  /** Events of every account after a cursor, oldest first: for consumers that follow the whole log (webhook outbox, summaries). */
  async after(afterId: number, limit: number): Promise<EventRecord[]> {
    return eventsAfter(this.db, afterId, limit);
  }
}
