import { currentTraceHeaders, TRACEPARENT, TRACESTATE } from "../../runtime/index.ts";
import type { Db, Queryable } from "../engine/db.ts";

export type JobState = "queued" | "running" | "done" | "error";
/** A work kind's name (the proto's task arm: analyze, crawl, page, tls, dns, …). */
export type JobKindName = string;

export interface JobRow {
  readonly id: number;
  readonly account_id: number;
  readonly kind: JobKindName;
  readonly host: string;
  readonly state: JobState;
  readonly progress: number;
  readonly step: string | null;
  readonly error: string | null;
  readonly error_detail: string | null;
  readonly cached: boolean;
  readonly sync: boolean;
  readonly attempt: number;
  readonly max_attempts: number;
  readonly worker: string | null;
  readonly lease_until_ms: number | null;
  readonly checkpoint: Uint8Array | null;
  readonly run_id: number | null;
  readonly created: number;
  readonly updated: number;
  readonly finished: number | null;
  /**
   * The job's task in its kind's older text form (a page's URL, a delivery's "<id>@<host>", JSON):
   * rows written before `task` only. The kinds read it when `task` is null.
   */
  readonly target: string | null;
  /** The job's task, the encoded JobTask the lease carries (null: a row written before it, or a utility run's input cleared at its end). */
  readonly task: Uint8Array | null;
  /** The W3C trace context of the call that created the job (null: no request caused it). */
  readonly traceparent?: string | null;
  readonly tracestate?: string | null;
  /** Held by the gateway that created it (never on the bus): see createHeld. */
  readonly held?: boolean;
  /** A gateway-held job's result document (read by getOwned and list; other jobs' results are never carried here). */
  readonly result?: unknown;
}

/** A job to queue: its kind, its host (politeness and the bus key), and its task (the encoded JobTask; none: the kind makes it at lease). */
export interface NewJob {
  readonly accountId: number;
  readonly kind: JobKindName;
  readonly host: string;
  readonly sync: boolean;
  readonly maxAttempts: number;
  readonly task?: Uint8Array | null;
}

/** How a failed attempt is followed (the crawler's error types decide it; see crawler/work-errors.ts). */
export type RetryRule = "retryable" | "never" | "throttled" | "fatal";

export interface AttemptFailure {
  readonly error: string;
  readonly detail: string;
  readonly retry: RetryRule;
  /** throttled: how long to wait before the job is handed out again. */
  readonly delayMs: number;
}

/** What a completed job leaves: a run (analyses, crawls) or a result document (single checks). */
export interface Settled {
  readonly runId: number | null;
  readonly result?: unknown;
}

/** A failed attempt queued again: why (its step), not before when (unix seconds; null: at once), and whether the attempt is given back. */
export interface Requeue {
  readonly step: string;
  readonly notBefore: number | null;
  readonly giveBack: boolean;
}

export interface OutboxMessage {
  readonly topic: string;
  readonly key: string;
  readonly payload: Uint8Array;
}

export interface OutboxRow extends OutboxMessage {
  readonly id: number;
  /** The trace context the message carries onto the bus (its job's, or the writer's). */
  readonly traceparent?: string | null;
  readonly tracestate?: string | null;
}

/** A trace context as stored on job and outbox rows. */
interface StoredTrace {
  readonly traceparent: string | null;
  readonly tracestate: string | null;
}

/** The context of the work under way (the call that writes the row), if any. */
function currentStoredTrace(): StoredTrace {
  const h = currentTraceHeaders();
  return { traceparent: h[TRACEPARENT] ?? null, tracestate: h[TRACESTATE] ?? null };
}

/** A job's own context: its messages belong to the trace that created it, whoever publishes them. */
function traceOfJob(job: JobRow): StoredTrace {
  return { traceparent: job.traceparent ?? null, tracestate: job.tracestate ?? null };
}

export type LeaseOutcome =
  | { readonly granted: true; readonly job: JobRow }
  | { readonly granted: false; readonly reason: "unknown" | "finished" | "held" | "exhausted" };

// Any fixed number: the scheduler that holds it in a transaction is the one that plans re-checks.
const PLANNER_LOCK = 7_316_002;

const JOB_COLUMNS = "id, account_id, kind, host, state, progress, step, error, error_detail, cached, sync, attempt, max_attempts, worker, lease_until_ms, checkpoint, run_id, created, updated, finished, target, task, traceparent, tracestate, held";
/** JOB_COLUMNS and, for a gateway-held job only, its result document. */
const SHOWN_COLUMNS = `${JOB_COLUMNS}, CASE WHEN held THEN result END AS result`;
/** Ends a lapsed hold: the job's holder stopped (crashed, restarted) before finishing it. */
const END_LAPSED_HOLDS = `UPDATE jobs SET state = 'error', error = kind || '_interrupted', updated = $2, finished = $2, worker = NULL, lease_until_ms = NULL,
  error_detail = 'the gateway running this job stopped before it finished; nothing of it was stored: send the request again'
  WHERE held AND state = 'running' AND lease_until_ms < $1`;

/** What END_LAPSED_HOLDS ends, as a read row shows it. */
function lapsedHold(row: JobRow, nowMs: number): boolean {
  return row.held === true && row.state === "running" && row.lease_until_ms !== null && Number(row.lease_until_ms) < nowMs;
}

/**
 * Jobs are the source of truth for work. A job and the outbox row that publishes it are written
 * in one transaction; workers hold leases that expire; attempts are capped.
 */
/** Work as `svc admin status` shows it (snake_case: printed as it is). */
export interface OperatorView {
  /** Nodes holding running work (a node idle now is not listed: nodes keep no registry), and how many jobs each. */
  readonly nodes: { node: string; jobs: number }[];
  readonly running: { job: number; kind: string; host: string; node: string | null; attempt: number; progress: number; step: string | null; lease_left_s: number | null }[];
  readonly queued: number;
  readonly recent_failovers: { job: number; kind: string; host: string; state: string; attempt: number; step: string | null; updated: number }[];
}

/** Why republishStale took a job back: its lease lapsed, its queued message was lost, or its attempts are spent (it ended in error). */
export type StaleWhy = "lease_lapsed" | "message_lost" | "exhausted";

export class JobsRepo {
  constructor(private readonly db: Db) {}

  /**
   * What an operator asks first (`svc admin status`): the work running now (its node, its lease,
   * its progress), the nodes holding it, how much waits, and the latest jobs that needed more than
   * one attempt (the failovers: a lapsed or handed-back lease, a failed attempt).
   */
  async operatorView(nowMs: number, recent = 10): Promise<OperatorView> {
    const running = await this.db.query<{ id: number; kind: string; host: string; worker: string | null; attempt: number; progress: number; step: string | null; lease_until_ms: number | null }>(
      "SELECT id, kind, host, worker, attempt, progress, step, lease_until_ms FROM jobs WHERE state = 'running' AND NOT held ORDER BY id",
    );
    const [queued] = await this.db.query<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE state = 'queued'");
    const failovers = await this.db.query<{ id: number; kind: string; host: string; state: string; attempt: number; step: string | null; updated: number }>(
      "SELECT id, kind, host, state, attempt, step, updated FROM jobs WHERE attempt > 1 ORDER BY updated DESC, id DESC LIMIT $1",
      [recent],
    );
    const nodes = new Map<string, number>();
    for (const j of running) if (j.worker) nodes.set(j.worker, (nodes.get(j.worker) ?? 0) + 1);
    return {
      nodes: [...nodes].map(([node, jobs]) => ({ node, jobs })),
      running: running.map((j) => ({ job: j.id, kind: j.kind, host: j.host, node: j.worker, attempt: j.attempt, progress: j.progress, step: j.step, lease_left_s: j.lease_until_ms === null ? null : Math.round((j.lease_until_ms - nowMs) / 1000) })),
      queued: queued?.n ?? 0,
      recent_failovers: failovers.map((j) => ({ job: j.id, kind: j.kind, host: j.host, state: j.state, attempt: j.attempt, step: j.step, updated: j.updated })),
    };
  }

  /** A queued job and its outbox message (built from the new job's id), in one transaction. */
  async createQueued(
    job: NewJob,
    now: number,
    message: (job: JobRow) => OutboxMessage,
  ): Promise<JobRow> {
    return this.db.tx((q) => this.insertQueued(q, job, now, message));
  }

  private async insertQueued(
    q: Queryable,
    job: NewJob,
    now: number,
    message: (job: JobRow) => OutboxMessage,
  ): Promise<JobRow> {
    const trace = currentStoredTrace();
    const [row] = await q.query<JobRow>(
      `INSERT INTO jobs (account_id, kind, host, state, sync, max_attempts, created, updated, task, traceparent, tracestate)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $6, $7, $8, $9) RETURNING ${JOB_COLUMNS}`,
      [job.accountId, job.kind, job.host, job.sync, job.maxAttempts, now, job.task ? Buffer.from(job.task) : null, trace.traceparent, trace.tracestate],
    );
    await this.enqueue(q, message(row as JobRow), now, null, trace);
    if (job.sync) return row as JobRow;
    // A site's work runs in order (one bus key per registrable domain): a job posted while another
    // of the same site is queued or running waits for it, and its step says so.
    const [ahead] = await q.query<{ id: number; kind: string }>(
      "SELECT id, kind FROM jobs WHERE host = $1 AND NOT sync AND state IN ('queued', 'running') AND id < $2 ORDER BY id DESC LIMIT 1",
      [job.host, (row as JobRow).id],
    );
    if (!ahead) return row as JobRow;
    const [waiting] = await q.query<JobRow>(`UPDATE jobs SET step = $2 WHERE id = $1 RETURNING ${JOB_COLUMNS}`, [
      (row as JobRow).id,
      `waiting for ${ahead.kind} job ${ahead.id} of this site (a site's work runs in order)`,
    ]);
    return waiting as JobRow;
  }

  /** A job answered from a fresh report: done at once, nothing to run. */
  async createCached(accountId: number, kind: JobKindName, host: string, runId: number, now: number): Promise<JobRow> {
    const [row] = await this.db.query<JobRow>(
      `INSERT INTO jobs (account_id, kind, host, state, progress, cached, max_attempts, run_id, created, updated, finished)
       VALUES ($1, $2, $3, 'done', 100, true, 0, $4, $5, $5, $5) RETURNING ${JOB_COLUMNS}`,
      [accountId, kind, host, runId, now],
    );
    return row as JobRow;
  }

  /**
   * A gateway-held job (a large upload to POST /imports/{host}): running at once, held by the
   * process `holder` that took the request until leaseUntilMs, which it renews with heartbeat and
   * ends with complete or fail. It never enters the bus: what it works on is only in that process,
   * so the job is never handed to anyone else (republishStale skips held jobs); a lapsed hold ends
   * in error `<kind>_interrupted` when the job is next read (getOwned, list) or expireHolds runs.
   */
  async createHeld(job: { accountId: number; kind: JobKindName; host: string; step: string }, holder: string, now: number, leaseUntilMs: number): Promise<JobRow> {
    const trace = currentStoredTrace();
    const [row] = await this.db.query<JobRow>(
      `INSERT INTO jobs (account_id, kind, host, state, step, attempt, max_attempts, worker, lease_until_ms, created, updated, traceparent, tracestate, held)
       VALUES ($1, $2, $3, 'running', $4, 1, 1, $5, $6, $7, $7, $8, $9, true) RETURNING ${SHOWN_COLUMNS}`,
      [job.accountId, job.kind, job.host, job.step, holder, leaseUntilMs, now, trace.traceparent, trace.tracestate],
    );
    return row as JobRow;
  }

  /**
   * Gateway-held jobs whose holder stopped holding them (it crashed or restarted mid-work) end in
   * error: what they worked on was lost with the process, and they wrote in one transaction, so
   * they left nothing. Returns how many.
   */
  async expireHolds(nowMs: number): Promise<number> {
    const rows = await this.db.query(`${END_LAPSED_HOLDS} RETURNING 1`, [nowMs, Math.floor(nowMs / 1000)]);
    return rows.length;
  }

  async get(id: number): Promise<JobRow | null> {
    const rows = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * One of the account's jobs. With nowMs, a gateway-held job whose hold lapsed is ended first
   * (`<kind>_interrupted`), and a gateway-held job carries its result document.
   */
  async getOwned(accountId: number, id: number, nowMs?: number): Promise<JobRow | null> {
    const read = async () => (await this.db.query<JobRow>(`SELECT ${SHOWN_COLUMNS} FROM jobs WHERE id = $1 AND account_id = $2`, [id, accountId]))[0] ?? null;
    // Read first: a poll (the most frequent request of a client waiting on a job) is one statement,
    // and only a row that shows a lapsed hold is ended (the UPDATE's own condition decides, as ever).
    const row = await read();
    if (nowMs === undefined || row === null || !lapsedHold(row, nowMs)) return row;
    await this.db.query(`${END_LAPSED_HOLDS} AND id = $3 AND account_id = $4`, [nowMs, Math.floor(nowMs / 1000), id, accountId]);
    return read();
  }

  /**
   * Jobs of the listed kinds (the caller's: analyses and crawls) and gateway-held jobs started
   * through the API (not periodic re-checks), newest first; the account's lapsed holds are ended
   * first (as getOwned does).
   */
  async list(accountId: number, kinds: readonly JobKindName[], limit: number, offset: number, nowMs: number): Promise<{ rows: JobRow[]; total: number }> {
    await this.db.query(`${END_LAPSED_HOLDS} AND account_id = $3`, [nowMs, Math.floor(nowMs / 1000), accountId]);
    const listed = "account_id = $1 AND (kind = ANY ($2::text[]) OR held) AND origin = 'api'";
    const rows = await this.db.query<JobRow>(`SELECT ${SHOWN_COLUMNS} FROM jobs WHERE ${listed} ORDER BY id DESC LIMIT $3 OFFSET $4`, [accountId, kinds, limit, offset]);
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM jobs WHERE ${listed}`, [accountId, kinds]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  /**
   * Grants a worker the job: queued, or running under a lease that expired. Each grant is an
   * attempt; past max_attempts the job ends in error.
   */
  async lease(jobId: number, worker: string, nowMs: number, leaseMs: number): Promise<LeaseOutcome> {
    return this.db.tx(async (q) => {
      const [job] = await q.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 FOR UPDATE`, [jobId]);
      if (!job) return { granted: false, reason: "unknown" };
      if (job.state === "done" || job.state === "error") return { granted: false, reason: "finished" };
      if (job.state === "running" && job.worker !== worker && (job.lease_until_ms ?? 0) > nowMs) return { granted: false, reason: "held" };
      const now = Math.floor(nowMs / 1000);
      if (job.attempt >= job.max_attempts && !(job.state === "running" && job.worker === worker)) {
        await q.query(
          "UPDATE jobs SET state = 'error', error = 'attempts_exhausted', error_detail = $2, updated = $3, finished = $3, worker = NULL WHERE id = $1",
          [jobId, `gave up after ${job.attempt} attempts`, now],
        );
        return { granted: false, reason: "exhausted" };
      }
      const [row] = await q.query<JobRow>(
        `UPDATE jobs SET state = 'running', worker = $2, lease_until_ms = $3, updated = $4,
           attempt = CASE WHEN state = 'running' AND worker = $2 THEN attempt ELSE attempt + 1 END
         WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [jobId, worker, nowMs + leaseMs, now],
      );
      return { granted: true, job: row as JobRow };
    });
  }

  /**
   * A batch of a crawl's pages arrives: the lease is checked and renewed, and progress recorded, in
   * one statement (one round trip a batch, not a check before the write and a renewal after it).
   * Answers the attempt the worker holds (what the page store needs), or null when it holds none:
   * then nothing is written, and the worker is told to stop.
   */
  async renewHolding(jobId: number, worker: string, nowMs: number, leaseMs: number, progress: number, step: string): Promise<{ jobId: number; attempt: number; created: number } | null> {
    const [row] = await this.db.query<{ attempt: number; created: number }>(
      `UPDATE jobs SET lease_until_ms = $3, progress = GREATEST(progress, $4), step = $5, updated = $6
       WHERE id = $1 AND worker = $2 AND state = 'running' RETURNING attempt, created`,
      [jobId, worker, nowMs + leaseMs, Math.max(0, Math.min(99, progress)), step, Math.floor(nowMs / 1000)],
    );
    return row ? { jobId, attempt: row.attempt, created: row.created } : null;
  }

  /** Extends a held lease and records progress; false when the worker no longer holds it. */
  async heartbeat(jobId: number, worker: string, nowMs: number, leaseMs: number, progress: number, step: string, checkpoint?: Uint8Array): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE jobs SET lease_until_ms = $3, progress = GREATEST(progress, $4), step = $5, updated = $6,
         checkpoint = COALESCE($7, checkpoint)
       WHERE id = $1 AND worker = $2 AND state = 'running' RETURNING 1`,
      [jobId, worker, nowMs + leaseMs, Math.max(0, Math.min(99, progress)), step, Math.floor(nowMs / 1000), checkpoint ?? null],
    );
    return rows.length > 0;
  }

  /**
   * The running job `worker` holds, locked until the caller's unit of work ends (its settlement:
   * markDone, requeue or markFailed follow in the same unit); null when the worker no longer holds
   * it (its lease passed on, or the job ended), and then nothing may be written for it.
   */
  async lockHeld(jobId: number, worker: string): Promise<JobRow | null> {
    const [job] = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 FOR UPDATE`, [jobId]);
    return job && job.state === "running" && job.worker === worker ? job : null;
  }

  /** A job settled: done, with what its row keeps (its run, or its result document). */
  async markDone(jobId: number, settled: Settled, now: number): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET state = 'done', progress = 100, step = 'done', run_id = $2, result = $4, updated = $3, finished = $3, worker = NULL, lease_until_ms = NULL
       WHERE id = $1`,
      [jobId, settled.runId, now, settled.result === undefined ? null : JSON.stringify(settled.result)],
    );
  }

  /**
   * A failed attempt queued again (its outbox message is the caller's to write in the same unit):
   * the step says why; notBefore holds it back (null: leaves it as it was); giveBack does not count
   * the attempt (a throttled one).
   */
  async requeue(jobId: number, again: Requeue, now: number): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET state = 'queued', worker = NULL, lease_until_ms = NULL, step = $2, updated = $3, not_before = coalesce($4, not_before),
         attempt = CASE WHEN $5 THEN greatest(attempt - 1, 0) ELSE attempt END
       WHERE id = $1`,
      [jobId, again.step, now, again.notBefore, again.giveBack],
    );
  }

  /** A job ended in error with its reason. */
  async markFailed(jobId: number, error: string, detail: string, now: number): Promise<void> {
    await this.db.query(
      "UPDATE jobs SET state = 'error', error = $2, error_detail = $3, updated = $4, finished = $4, worker = NULL, lease_until_ms = NULL WHERE id = $1",
      [jobId, error, detail, now],
    );
  }

  /**
   * Takes a single check's result and clears it from the row: a network utility's output is handed
   * to its caller once and kept nowhere (docs/utilities.md, "not stored").
   */
  async takeResult(accountId: number, jobId: number): Promise<unknown> {
    const [row] = await this.db.query<{ result: unknown }>(
      `WITH old AS (SELECT id, result FROM jobs WHERE id = $1 AND account_id = $2 FOR UPDATE)
       UPDATE jobs SET result = NULL FROM old WHERE jobs.id = old.id RETURNING old.result`,
      [jobId, accountId],
    );
    return row?.result ?? null;
  }

  /** Clears a job's task, in either form (a network utility's input, once its run is over). */
  async forgetTask(jobId: number): Promise<void> {
    await this.db.query("UPDATE jobs SET target = NULL, task = NULL WHERE id = $1", [jobId]);
  }

  /** The facts a single check found (null until done). */
  async result(accountId: number, jobId: number): Promise<unknown> {
    const [row] = await this.db.query<{ result: unknown }>("SELECT result FROM jobs WHERE id = $1 AND account_id = $2", [jobId, accountId]);
    return row?.result ?? null;
  }

  /**
   * A scheduler starting: every running job's lease lasts at least leaseMs from now. While no
   * scheduler answered, no worker could renew its lease; a restart must not turn into failovers of
   * every job under way. Returns how many leases were extended.
   */
  async extendRunningLeases(nowMs: number, leaseMs: number): Promise<number> {
    const rows = await this.db.query("UPDATE jobs SET lease_until_ms = $1 WHERE state = 'running' AND lease_until_ms < $1 RETURNING 1", [nowMs + leaseMs]);
    return rows.length;
  }

  /**
   * Work that nobody holds any more: running jobs whose lease expired, and queued jobs untouched
   * for staleSeconds (their message was lost, e.g. with an in-process bus across a restart).
   * Each is published again (or ends in error when its attempts are spent); `seen` hears of each,
   * with why, once the transaction committed.
   */
  async republishStale(nowMs: number, staleSeconds: number, message: (job: JobRow) => OutboxMessage, seen?: (job: JobRow, why: StaleWhy) => void): Promise<number> {
    const now = Math.floor(nowMs / 1000);
    const found: [JobRow, StaleWhy][] = [];
    const n = await this.db.tx(async (q) => {
      found.length = 0;
      const stale = await q.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs
         WHERE ((state = 'running' AND lease_until_ms < $1) OR (state = 'queued' AND updated <= $2 AND coalesce(not_before, 0) <= $3)) AND NOT held
         ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED`,
        [nowMs, now - staleSeconds, now],
      );
      for (const job of stale) {
        if (job.attempt >= job.max_attempts) {
          await q.query(
            "UPDATE jobs SET state = 'error', error = 'attempts_exhausted', error_detail = $2, updated = $3, finished = $3, worker = NULL WHERE id = $1",
            [job.id, `no worker finished it in ${job.attempt} attempts`, now],
          );
          found.push([job, "exhausted"]);
          continue;
        }
        await q.query("UPDATE jobs SET state = 'queued', worker = NULL, lease_until_ms = NULL, updated = $2 WHERE id = $1", [job.id, now]);
        await this.enqueue(q, message(job), now, null, traceOfJob(job));
        found.push([job, job.state === "running" ? "lease_lapsed" : "message_lost"]);
      }
      return stale.length;
    });
    for (const [job, why] of found) seen?.(job, why);
    return n;
  }

  /**
   * Periodic re-checks: one queued job for every monitored host whose last run is older than the
   * shortest interval of the accounts monitoring it (or that has none) and that has no job in
   * flight. Only the scheduler holding the planner's advisory lock plans; others return null.
   */
  async planDue(now: number, maxAttempts: number, limit: number, message: (job: JobRow) => OutboxMessage): Promise<JobRow[] | null> {
    return this.db.tx(async (q) => {
      const [lock] = await q.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS ok", [PLANNER_LOCK]);
      if (!lock?.ok) return null;
      const due = await q.query<{ host: string; account_id: number }>(
        `SELECT s.host, (array_agg(s.account_id ORDER BY s.interval_h, s.account_id))[1] AS account_id
         FROM sites s
         WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.host = s.host AND j.state IN ('queued', 'running'))
         GROUP BY s.host
         HAVING coalesce((SELECT max(r.checked_at) FROM runs r WHERE r.host = s.host), 0) <= $1 - min(s.interval_h) * 3600
         ORDER BY s.host LIMIT $2`,
        [now, limit],
      );
      const jobs: JobRow[] = [];
      for (const d of due) {
        const [row] = await q.query<JobRow>(
          `INSERT INTO jobs (account_id, kind, host, state, step, max_attempts, created, updated, origin)
           VALUES ($1, 'analyze', $2, 'queued', 'scheduled', $3, $4, $4, 'schedule') RETURNING ${JOB_COLUMNS}`,
          [d.account_id, d.host, maxAttempts, now],
        );
        await this.enqueue(q, message(row as JobRow), now, null, currentStoredTrace());
        jobs.push(row as JobRow);
      }
      return jobs;
    });
  }

  /** Jobs waiting for a crawler and running (leased), in the whole cluster. */
  async liveCounts(): Promise<{ queued: number; running: number }> {
    const rows = await this.db.query<{ state: string; n: number }>("SELECT state, count(*)::int AS n FROM jobs WHERE state IN ('queued', 'running') GROUP BY state");
    return { queued: rows.find((r) => r.state === "queued")?.n ?? 0, running: rows.find((r) => r.state === "running")?.n ?? 0 };
  }

  /** Outbox messages not yet on the bus, and the creation time of the oldest (null when none waits). */
  async outboxBacklog(): Promise<{ waiting: number; oldest: number | null }> {
    const [row] = await this.db.query<{ n: number; first: number | null }>("SELECT count(*)::int AS n, min(created) AS first FROM outbox WHERE published IS NULL");
    return { waiting: row?.n ?? 0, oldest: row?.first ?? null };
  }

  /** Drops published outbox rows older than the given time. */
  async purgeOutbox(before: number): Promise<void> {
    await this.db.query("DELETE FROM outbox WHERE published IS NOT NULL AND published < $1", [before]);
  }

  private async enqueue(q: Queryable, m: OutboxMessage, now: number, notBefore: number | null, trace: StoredTrace): Promise<void> {
    await insertOutbox(q, m, now, notBefore, trace);
  }
}

/**
 * Writes a bus message to the outbox inside the caller's transaction; the relay publishes it (after
 * not_before, when given). It carries the trace context of its job when it publishes one (a job's
 * messages belong to the trace that created it, whoever writes them), else of the work under way.
 */
export async function enqueueOutbox(q: Queryable, m: OutboxMessage, now: number, notBefore: number | null = null, of?: JobRow): Promise<void> {
  await insertOutbox(q, m, now, notBefore, of ? traceOfJob(of) : currentStoredTrace());
}

async function insertOutbox(q: Queryable, m: OutboxMessage, now: number, notBefore: number | null, trace: StoredTrace): Promise<void> {
  await q.query("INSERT INTO outbox (topic, key, payload, created, not_before, traceparent, tracestate) VALUES ($1, $2, $3, $4, $5, $6, $7)", [
    m.topic,
    m.key,
    Buffer.from(m.payload),
    now,
    notBefore,
    trace.traceparent,
    trace.tracestate,
  ]);
}
