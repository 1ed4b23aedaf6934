import type { Db } from "../engine/db.ts";
import type { EventRecord } from "./events-repo.ts";
import type { OutboxMessage } from "./jobs-repo.ts";

export interface WebhookRow {
  readonly id: number;
  readonly account_id: number;
  readonly name: string;
  readonly url: string;
  readonly events: string[];
  readonly hosts: string[];
  readonly secret: string;
  readonly active: boolean;
  readonly failed_in_a_row: number;
  readonly created: number;
  readonly disabled_at: number | null;
}

export type DeliveryState = "pending" | "sending" | "failing" | "delivered" | "lost";

export interface DeliveryRow {
  readonly id: number;
  readonly webhook_id: number;
  readonly account_id: number;
  readonly event_id: number | null;
  readonly event: string;
  readonly host: string | null;
  readonly notification: Record<string, unknown>;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly failures: number;
  readonly next_attempt_at: number | null;
  readonly job_id: number | null;
  readonly last_code: number | null;
  readonly last_error: string | null;
  readonly last_duration_ms: number | null;
  readonly last_attempt_at: number | null;
  readonly delivered_at: number | null;
  readonly test: boolean;
  readonly created: number;
}

export interface AttemptRow {
  readonly delivery_id: number;
  readonly n: number;
  readonly job_id: number;
  readonly sent_at: number | null;
  readonly finished: number;
  readonly code: number | null;
  readonly error: string | null;
  readonly duration_ms: number | null;
}

export interface NewWebhook {
  readonly accountId: number;
  readonly name: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly hosts: readonly string[];
  readonly secret: string;
}

/** A delivery the planner routes an event to. */
export interface RoutedDelivery {
  readonly webhook: WebhookRow;
  readonly event: string;
  readonly notification: unknown;
}

/** What an attempt changes on its delivery (the scheduler's webhook kind decides it). */
export interface DeliveryUpdate {
  readonly state: DeliveryState;
  readonly failures: number;
  readonly nextAttemptAt: number | null;
  readonly code: number | null;
  readonly error: string | null;
  readonly durationMs: number | null;
  readonly deliveredAt: number | null;
}

/** One webhook's due attempts as the planner hands them out together, in order. */
export interface DueBatch {
  readonly hook: WebhookRow;
  readonly deliveries: readonly DeliveryRow[];
}

/** A batch's bus message, and each of its deliveries' window (unix seconds, in the batch's order). */
export interface PlannedBatch {
  readonly message: OutboxMessage;
  readonly sendingUntil: readonly number[];
}

/** What an attempt of a batch met, as the crawler node reported it (or the planner, when its window passed without a word). */
export interface BatchOutcome {
  readonly delivery: number;
  /** The attempt's number: recorded only while the delivery still waits for this attempt. */
  readonly n: number;
  readonly code: number;
  readonly error: string;
  readonly durationMs: number | null;
  readonly sentAt: number | null;
}

/** A recorded attempt and what it changed on its delivery, in the order recorded. */
export interface SettledAttempt {
  readonly delivery: DeliveryRow;
  readonly update: DeliveryUpdate;
}

const WEBHOOK_COLUMNS = "id, account_id, name, url, events, hosts, secret, active, failed_in_a_row, created, disabled_at";
const DELIVERY_COLUMNS =
  "id, webhook_id, account_id, event_id, event, host, notification, state, attempts, failures, next_attempt_at, job_id, last_code, last_error, last_duration_ms, last_attempt_at, delivered_at, test, created";
const d = (cols: string) =>
  cols
    .split(", ")
    .map((c) => `d.${c}`)
    .join(", ");

/**
 * Webhooks, their deliveries and attempts (migration 015). The gateway manages subscriptions and
 * reads the log; the scheduler plans deliveries from the event log, hands attempts out in batches and
 * records what each attempt met, each step in one transaction.
 */
export class WebhooksRepo {
  constructor(private readonly db: Db) {}

  /** A new subscription, unless the account's plan allows no more ("limit"). */
  async createWithinPlan(w: NewWebhook, now: number): Promise<WebhookRow | "limit"> {
    return this.db.tx(async (q) => {
      const [plan] = await q.query<{ webhooks: number }>(
        "SELECT p.webhooks FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1 FOR UPDATE OF a",
        [w.accountId],
      );
      const [count] = await q.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1", [w.accountId]);
      if (!plan || (count?.n ?? 0) >= plan.webhooks) return "limit";
      const [row] = await q.query<WebhookRow>(
        `INSERT INTO webhooks (account_id, name, url, events, hosts, secret, created) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${WEBHOOK_COLUMNS}`,
        [w.accountId, w.name, w.url, [...w.events], [...w.hosts], w.secret, now],
      );
      return row as WebhookRow;
    });
  }

  async list(accountId: number, limit: number, offset: number): Promise<{ rows: WebhookRow[]; total: number }> {
    const rows = await this.db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE account_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, [accountId, limit, offset]);
    const [count] = await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1", [accountId]);
    return { rows, total: count?.n ?? 0 };
  }

  async get(accountId: number, id: number): Promise<WebhookRow | null> {
    const [row] = await this.db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return row ?? null;
  }

  /** Removes a subscription and its delivery log; false when the account has no such webhook. */
  async remove(accountId: number, id: number): Promise<boolean> {
    const rows = await this.db.query("DELETE FROM webhooks WHERE id = $1 AND account_id = $2 RETURNING id", [id, accountId]);
    return rows.length > 0;
  }

  /** Replaces the secret: every attempt leased from now on is signed with the new one. */
  async rotateSecret(accountId: number, id: number, secret: string): Promise<WebhookRow | null> {
    const [row] = await this.db.query<WebhookRow>(`UPDATE webhooks SET secret = $3 WHERE id = $1 AND account_id = $2 RETURNING ${WEBHOOK_COLUMNS}`, [id, accountId, secret]);
    return row ?? null;
  }

  /** A webhook's deliveries, newest first, with the total. */
  async deliveries(accountId: number, webhookId: number, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
    const rows = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 AND account_id = $2 ORDER BY id DESC LIMIT $3 OFFSET $4`,
      [webhookId, accountId, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND account_id = $2", [webhookId, accountId]);
    return { rows, total: count?.n ?? 0 };
  }

  /** The attempts of some deliveries, in order. */
  async attemptsOf(deliveryIds: readonly number[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.db.query<AttemptRow>(
      "SELECT delivery_id, n, job_id, sent_at, finished, code, error, duration_ms FROM webhook_attempts WHERE delivery_id = ANY ($1::bigint[]) ORDER BY delivery_id, n",
      [[...deliveryIds]],
    );
  }

  async delivery(accountId: number, webhookId: number, id: number): Promise<DeliveryRow | null> {
    const [row] = await this.db.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2 AND account_id = $3`, [
      id,
      webhookId,
      accountId,
    ]);
    return row ?? null;
  }

  /** A test send's delivery: sending at once, through the synchronous lane (no planner, no retry). */
  async createTest(hook: WebhookRow, notification: unknown, now: number): Promise<DeliveryRow> {
    const [row] = await this.db.query<DeliveryRow>(
      `INSERT INTO webhook_deliveries (webhook_id, account_id, event, notification, state, test, created)
       VALUES ($1, $2, 'test', $3, 'sending', true, $4) RETURNING ${DELIVERY_COLUMNS}`,
      [hook.id, hook.account_id, JSON.stringify(notification), now],
    );
    return row as DeliveryRow;
  }

  /**
   * A finished delivery (lost or delivered) planned again from the first step of the schedule,
   * under its own id. Refused while it is still under way, and while the address is disabled.
   */
  async resend(accountId: number, webhookId: number, id: number, now: number): Promise<DeliveryRow | "not_found" | "under_way" | "inactive"> {
    return this.db.tx(async (q) => {
      const [row] = await q.query<DeliveryRow & { active: boolean }>(
        `SELECT ${d(DELIVERY_COLUMNS)}, w.active FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.id = $1 AND d.webhook_id = $2 AND d.account_id = $3 FOR UPDATE OF d`,
        [id, webhookId, accountId],
      );
      if (!row) return "not_found";
      if (row.state !== "lost" && row.state !== "delivered") return "under_way";
      if (!row.active) return "inactive";
      const [out] = await q.query<DeliveryRow>(
        `UPDATE webhook_deliveries SET state = 'pending', failures = 0, next_attempt_at = $2, test = false WHERE id = $1 RETURNING ${DELIVERY_COLUMNS}`,
        [id, now],
      );
      return out as DeliveryRow;
    });
  }

  /**
   * Whether a webhooks pass would find anything: an event after the cursor, an attempt that is
   * due, or one whose job ended without a word. One statement, read only: an idle pass asks this
   * instead of running its three transactions (about ten statements a second on an idle cluster,
   * the scheduler's largest idle cost in bench:distribution). It may say yes when a pass then
   * finds nothing (events of accounts without webhooks); never no when there is work.
   */
  async hasWork(cursor: string, now: number): Promise<boolean> {
    const [row] = await this.db.query<{ work: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM events WHERE id > coalesce((SELECT last_id FROM series_cursors WHERE name = $1), 0))
           OR EXISTS (SELECT 1 FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.state IN ('pending', 'failing') AND d.next_attempt_at <= $2 AND w.active)
           OR EXISTS (SELECT 1 FROM webhook_deliveries d JOIN jobs j ON j.id = d.job_id WHERE d.state = 'sending' AND j.state = 'error')
           OR EXISTS (SELECT 1 FROM webhook_deliveries WHERE state = 'sending' AND sending_until IS NOT NULL AND sending_until < $2) AS work`,
      [cursor, now],
    );
    return row?.work === true;
  }

  /**
   * Where a follower of the event log stands (its row in series_cursors, made at 0 when new),
   * locked until the unit of work ends: a second planner waits, then starts from the moved cursor.
   */
  async lockCursor(cursor: string): Promise<number> {
    await this.db.query("INSERT INTO series_cursors (name, last_id) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING", [cursor]);
    const [c] = await this.db.query<{ last_id: number }>("SELECT last_id FROM series_cursors WHERE name = $1 FOR UPDATE", [cursor]);
    return Number(c?.last_id ?? 0);
  }

  /** Moves a follower's cursor past the events it handled. */
  async moveCursor(cursor: string, lastId: number): Promise<void> {
    await this.db.query("UPDATE series_cursors SET last_id = $2 WHERE name = $1", [cursor, lastId]);
  }

  /** The active subscriptions of some accounts. */
  async activeOf(accounts: readonly number[]): Promise<WebhookRow[]> {
    if (accounts.length === 0) return [];
    return this.db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE active AND account_id = ANY ($1::bigint[])`, [[...accounts]]);
  }

  /**
   * Writes the deliveries of events, in the order given (a webhook's deliveries go out in id
   * order); (webhook, event) is unique, so an event planned twice adds nothing. Returns the
   * deliveries written.
   */
  async addDeliveries(routed: readonly { readonly r: RoutedDelivery; readonly event: EventRecord }[], now: number): Promise<number> {
    if (routed.length === 0) return 0;
    // One statement for the batch.
    const rows = await this.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, account_id, event_id, event, host, notification, state, next_attempt_at, created)
       SELECT w, a, e, t, h, n::jsonb, 'pending', $7, $7 FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS u(w, a, e, t, h, n, o)
       ORDER BY o ON CONFLICT (webhook_id, event_id) DO NOTHING RETURNING id`,
      [
        routed.map((x) => x.r.webhook.id),
        routed.map((x) => x.r.webhook.account_id),
        routed.map((x) => x.event.id),
        routed.map((x) => x.r.event),
        routed.map((x) => x.event.host),
        routed.map((x) => JSON.stringify(x.r.notification)),
        now,
      ],
    );
    return rows.length;
  }

  /**
   * The attempts that are due, in batches, one per webhook: up to `perHook` of its deliveries
   * pending or failing whose time has come, oldest first, of an active webhook that has no batch
   * under way (one webhook's attempts go one batch at a time, in order). Webhooks and deliveries
   * are taken with SKIP LOCKED and stay locked until the unit of work ends, so two schedulers
   * never hand out the same attempt; markSending then marks them handed out.
   */
  async takeDueBatches(now: number, limit: number, perHook: number): Promise<DueBatch[]> {
    // The webhooks first, locked (a second scheduler skips them): a webhook's batches are handed
    // out by one transaction at a time, and the next statement sees a batch another committed.
    const busy = "SELECT webhook_id FROM webhook_deliveries WHERE state = 'sending' AND sending_until IS NOT NULL";
    const locked = await this.db.query<{ id: number }>(
      `SELECT w.id FROM webhooks w WHERE w.active AND w.id NOT IN (${busy})
         AND EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.webhook_id = w.id AND x.state IN ('pending', 'failing') AND x.next_attempt_at <= $1)
       ORDER BY w.id FOR NO KEY UPDATE OF w SKIP LOCKED`,
      [now],
    );
    if (locked.length === 0) return [];
    const due = await this.db.query<DeliveryRow>(
      `SELECT ${d(DELIVERY_COLUMNS)} FROM webhook_deliveries d
       WHERE d.state IN ('pending', 'failing') AND d.next_attempt_at <= $1 AND d.id IN (
         SELECT id FROM (
           SELECT x.id, row_number() OVER (PARTITION BY x.webhook_id ORDER BY x.next_attempt_at, x.id) AS r
           FROM webhook_deliveries x
           WHERE x.webhook_id = ANY ($4::bigint[]) AND x.state IN ('pending', 'failing') AND x.next_attempt_at <= $1 AND x.webhook_id NOT IN (${busy})
         ) ranked WHERE r <= $3)
       ORDER BY d.next_attempt_at, d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
      [now, limit, perHook, locked.map((r) => r.id)],
    );
    if (due.length === 0) return [];
    const hooks = await this.db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ANY ($1::bigint[])`, [[...new Set(due.map((x) => x.webhook_id))]]);
    return hooks.map((hook) => ({ hook, deliveries: due.filter((x) => x.webhook_id === hook.id) }));
  }

  /** Deliveries handed out in batches: sending, each until its window closes (unix seconds). */
  async markSending(sending: readonly { readonly id: number; readonly until: number }[]): Promise<void> {
    if (sending.length === 0) return;
    await this.db.query(
      "UPDATE webhook_deliveries d SET state = 'sending', job_id = NULL, next_attempt_at = NULL, sending_until = u.t FROM unnest($1::bigint[], $2::bigint[]) AS u(id, t) WHERE d.id = u.id",
      [sending.map((x) => x.id), sending.map((x) => x.until)],
    );
  }

  /** Deliveries still sending in a batch, locked until the unit of work ends, by id. */
  async lockSending(deliveryIds: readonly number[]): Promise<DeliveryRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ANY ($1::bigint[]) AND state = 'sending' AND sending_until IS NOT NULL ORDER BY id FOR UPDATE`,
      [[...new Set(deliveryIds)]],
    );
  }

  /** Records attempts of batches and moves their deliveries on, in two statements whatever their number. */
  async recordBatch(settled: readonly (SettledAttempt & { readonly outcome: BatchOutcome })[], now: number): Promise<void> {
    if (settled.length === 0) return;
    const col = <T>(f: (s: (typeof settled)[number]) => T) => settled.map(f);
    await this.db.query(
      `INSERT INTO webhook_attempts (delivery_id, n, job_id, sent_at, finished, code, error, duration_ms)
       SELECT i, n, NULL, s, $7, c, e, ms FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::int[], $5::text[], $6::int[]) AS u(i, n, s, c, e, ms)
       ON CONFLICT DO NOTHING`,
      [col((s) => s.delivery.id), col((s) => s.outcome.n), col((s) => s.outcome.sentAt), col((s) => s.update.code), col((s) => s.update.error), col((s) => s.update.durationMs), now],
    );
    await this.db.query(
      `UPDATE webhook_deliveries d SET state = u.st, attempts = u.n, failures = u.f, next_attempt_at = u.na, job_id = NULL, sending_until = NULL, last_code = u.c,
         last_error = u.e, last_duration_ms = u.ms, last_attempt_at = coalesce(u.s, $10), delivered_at = coalesce(u.da, d.delivered_at)
       FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::bigint[], $6::int[], $7::text[], $8::int[], $9::bigint[], $11::bigint[]) AS u(id, st, n, f, na, c, e, ms, s, da)
       WHERE d.id = u.id`,
      [
        col((s) => s.delivery.id),
        col((s) => s.update.state),
        col((s) => s.outcome.n),
        col((s) => s.update.failures),
        col((s) => s.update.nextAttemptAt),
        col((s) => s.update.code),
        col((s) => s.update.error),
        col((s) => s.update.durationMs),
        col((s) => s.outcome.sentAt),
        now,
        col((s) => s.update.deliveredAt),
      ],
    );
  }

  /** Deliveries of batches whose window has passed without a result (their crawler node died, or the batch was lost): their ids and attempt numbers. */
  async windowsPassed(now: number, limit: number): Promise<{ delivery: number; n: number }[]> {
    const rows = await this.db.query<{ id: number; attempts: number }>(
      "SELECT id, attempts FROM webhook_deliveries WHERE state = 'sending' AND sending_until IS NOT NULL AND sending_until < $1 ORDER BY id LIMIT $2",
      [now, limit],
    );
    return rows.map((r) => ({ delivery: Number(r.id), n: r.attempts + 1 }));
  }

  /**
   * Attempts whose job ended without a word about them: the lease lapsed on its only attempt (a
   * crawler died mid-send), so no completion ran. Each delivery with its job's error, locked until
   * the unit of work ends (another scheduler skips it).
   */
  async lockAbandoned(limit: number): Promise<{ delivery: DeliveryRow; job: { id: number; error: string; detail: string } }[]> {
    const rows = await this.db.query<DeliveryRow & { job_error: string | null; job_detail: string | null }>(
      `SELECT ${d(DELIVERY_COLUMNS)}, j.error AS job_error, j.error_detail AS job_detail
       FROM webhook_deliveries d JOIN jobs j ON j.id = d.job_id
       WHERE d.state = 'sending' AND j.state = 'error'
       ORDER BY d.id LIMIT $1 FOR UPDATE OF d SKIP LOCKED`,
      [limit],
    );
    return rows.map(({ job_error, job_detail, ...delivery }) => ({ delivery, job: { id: delivery.job_id as number, error: job_error ?? "no_answer", detail: job_detail ?? "" } }));
  }

  /** What a lease of a delivery's attempt carries: the delivery and its webhook (url and secret as they are now). */
  async forAttempt(deliveryId: number): Promise<{ delivery: DeliveryRow; hook: WebhookRow } | null> {
    // One statement: a lease is on every delivery's path.
    const [row] = await this.db.query<Record<string, unknown>>(
      `SELECT ${d(DELIVERY_COLUMNS)}, ${WEBHOOK_COLUMNS.split(", ").map((c) => `w.${c} AS w_${c}`).join(", ")}
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = $1`,
      [deliveryId],
    );
    if (!row) return null;
    const hook = Object.fromEntries(WEBHOOK_COLUMNS.split(", ").map((c) => [c, row[`w_${c}`]])) as unknown as WebhookRow;
    const delivery = Object.fromEntries(DELIVERY_COLUMNS.split(", ").map((c) => [c, row[c]])) as unknown as DeliveryRow;
    return { delivery, hook };
  }

  /** The delivery an attempt's job was for, locked, while it is still sending under that job (a test send has no job yet). */
  async sendingFor(deliveryId: number, jobId: number): Promise<DeliveryRow | null> {
    const [row] = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1 AND state = 'sending' AND (job_id = $2 OR job_id IS NULL) FOR UPDATE`,
      [deliveryId, jobId],
    );
    return row ?? null;
  }

  /**
   * Records an attempt and what follows it on the delivery. false when this job's attempt was
   * recorded already (nothing changes then).
   */
  async recordAttempt(delivery: DeliveryRow, jobId: number, sentAt: number | null, now: number, u: DeliveryUpdate): Promise<boolean> {
    const n = delivery.attempts + 1;
    // One statement (a completion is on every delivery's path): the delivery moves only when the attempt's row is new.
    const updated = await this.db.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (delivery_id, n, job_id, sent_at, finished, code, error, duration_ms) VALUES ($1, $3, $11, $12, $13, $6, $7, $8)
         ON CONFLICT DO NOTHING RETURNING n
       )
       UPDATE webhook_deliveries SET state = $2, attempts = $3, failures = $4, next_attempt_at = $5, job_id = NULL, last_code = $6, last_error = $7,
         last_duration_ms = $8, last_attempt_at = $9, delivered_at = coalesce($10, delivered_at)
       WHERE id = $1 AND EXISTS (SELECT 1 FROM attempt) RETURNING id`,
      [delivery.id, u.state, n, u.failures, u.nextAttemptAt, u.code, u.error, u.durationMs, sentAt ?? now, u.deliveredAt, jobId, sentAt, now],
    );
    return updated.length > 0;
  }

  /** A delivered delivery: the address's count of lost deliveries starts again (a successful test send also re-activates it). */
  async succeeded(webhookId: number, reactivate: boolean): Promise<void> {
    await this.db.query(
      `UPDATE webhooks SET failed_in_a_row = 0${reactivate ? ", active = true, disabled_at = NULL" : ""} WHERE id = $1`,
      [webhookId],
    );
  }

  /** A lost delivery: counted; returns the webhook as it is now (null when it is gone). */
  async lost(webhookId: number): Promise<WebhookRow | null> {
    const [row] = await this.db.query<WebhookRow>(`UPDATE webhooks SET failed_in_a_row = failed_in_a_row + 1 WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`, [webhookId]);
    return row ?? null;
  }

  /** Disables an address: active false, and the deliveries still waiting for it are lost (they can be resent). Returns how many. */
  async disable(webhookId: number, now: number): Promise<number> {
    await this.db.query("UPDATE webhooks SET active = false, disabled_at = $2 WHERE id = $1", [webhookId, now]);
    const rows = await this.db.query(
      `UPDATE webhook_deliveries SET state = 'lost', next_attempt_at = NULL, last_error = coalesce(last_error, 'address_disabled')
       WHERE webhook_id = $1 AND state IN ('pending', 'failing') RETURNING id`,
      [webhookId],
    );
    return rows.length;
  }

  /** Addresses disabled now (15 deliveries lost in a row), in the whole cluster: the scheduler's gauge. */
  async disabledCount(): Promise<number> {
    const [row] = await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks WHERE NOT active");
    return row?.n ?? 0;
  }
}
