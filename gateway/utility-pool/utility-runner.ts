import { Counter, Histogram, type Registry } from "prom-client";
import type { Clock, Logger } from "../../runtime/index.ts";
import { UtilityError, UTILITIES, utilityById, validateInput, type Utility } from "../../utilities/index.ts";
import { ApiError } from "../errors.ts";
import type { RandomBytes } from "../keys/api-key.ts";
import { PoolBusyError, RunAbandonedError, type UtilityPool } from "./utility-pool.ts";

// What POST /utilities/{id} runs through: the catalogue's checks (exists, enabled, available,
// valid input), then the pool for offline utilities or the network lane for the others. Nothing
// of the input or the result is kept: the log line and the metrics carry the utility's id, the
// key's id, byte counts, the duration and the outcome only.

/**
 * The seam of network utilities: a `sync`-lane work kind that runs the utility on a crawler node
 * behind the egress guard (docs/utilities.md). Absent until that kind exists; net utilities are
 * then listed with available:false and answer tool_off.
 */
export interface NetUtilityLane {
  run(utility: string, input: Record<string, unknown>, nowMs: number, caller: NetUtilityCaller): Promise<unknown>;
}

/** Whose run it is: the account its job belongs to, the key its hourly limit is charged to. */
export interface NetUtilityCaller {
  readonly accountId: number;
  readonly keyId: number | null;
}

/**
 * The size of a value as JSON, for the log line, without serialising it: a 5 MB file travels as a
 * 7 MB base64 string, and JSON.stringify copied it (and its result) once more per run only to
 * count bytes. Strings count their UTF-8 bytes and quotes (escapes are not counted).
 */
export function jsonBytes(value: unknown): number {
  if (typeof value === "string") return Buffer.byteLength(value) + 2;
  if (value === null || value === undefined) return 4;
  if (typeof value === "number" || typeof value === "boolean") return String(value).length;
  if (ArrayBuffer.isView(value)) return Math.ceil(value.byteLength / 3) * 4 + 2;
  if (Array.isArray(value)) return value.length === 0 ? 2 : value.reduce((n: number, v) => n + jsonBytes(v) + 1, 1);
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? 2 : entries.reduce((n, [k, v]) => n + Buffer.byteLength(k) + 4 + jsonBytes(v), 1);
  }
  return 0;
}

/** When a caller should ask again while a utility's own thread loads (its build measured at about 11 s on 2 cores). */
const LOADING_RETRY_S = 10;

export type UtilityOutcome = "ok" | "bad_param" | "tool_failed" | "tool_off" | "limit" | "not_ready" | "dropped" | "abandoned";

export interface UtilityRunnerOptions {
  readonly pool: UtilityPool;
  /** The pool of utilities that allocate natively (nativeMemory: the image utilities): child processes. */
  readonly nativePool?: UtilityPool;
  readonly clock: Clock;
  readonly random: RandomBytes;
  readonly logger: Logger;
  readonly metrics: Registry;
  /** Ids the administrator disabled (SVC_UTILITIES_OFF). */
  readonly off: readonly string[];
  readonly net?: NetUtilityLane;
  /** The thread of an ownThread utility (spell_check), started on its first use; absent: such utilities are unavailable. */
  readonly ownThread?: (u: Utility) => UtilityPool;
}

export class UtilityRunner {
  private readonly off: ReadonlySet<string>;
  private readonly runs: Counter<"utility" | "outcome">;
  private readonly seconds: Histogram<"utility">;
  private readonly own = new Map<string, UtilityPool>();

  constructor(private readonly options: UtilityRunnerOptions) {
    this.off = new Set(options.off);
    this.runs = new Counter({ name: "svc_utility_runs_total", help: "Utility runs by utility and outcome", labelNames: ["utility", "outcome"], registers: [options.metrics] });
    this.seconds = new Histogram({
      name: "svc_utility_run_seconds",
      help: "Duration of successful utility runs",
      labelNames: ["utility"],
      buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10, 30],
      registers: [options.metrics],
    });
  }

  enabled(u: Utility): boolean {
    return !this.off.has(u.id);
  }

  /** Whether this server can run it: network utilities need the crawler nodes' lane, some a browser. */
  available(u: Utility): boolean {
    if (u.ownThread) return this.own.get(u.id)?.ready ?? false;
    return (!u.net || this.options.net !== undefined) && (u.available?.() ?? true);
  }

  /** An ownThread utility's thread, created (and started) on first use. */
  private ownPool(u: Utility): UtilityPool | null {
    let pool = this.own.get(u.id);
    if (!pool && this.options.ownThread) {
      pool = this.options.ownThread(u);
      this.own.set(u.id, pool);
    }
    pool?.start();
    return pool ?? null;
  }

  /** Stops the own threads (the shared pools are closed by their owner). */
  async close(): Promise<void> {
    await Promise.all([...this.own.values()].map((p) => p.close()));
  }

  /** The catalogue as this server offers it. */
  list(): readonly Utility[] {
    return UTILITIES;
  }

  /** Runs a utility for a caller; `signal` aborts when the client has gone (the run is dropped or cut). */
  async run(id: string, input: unknown, keyId: number | null, accountId = 0, signal?: AbortSignal): Promise<unknown> {
    const u = utilityById(id);
    if (!u) throw new ApiError("not_found", `no utility has the id ${id}; GET /utilities lists them`);
    const started = this.options.clock.nowMs();
    const inBytes = jsonBytes(input);
    const log = (outcome: UtilityOutcome, outBytes: number) => {
      this.runs.inc({ utility: u.id, outcome });
      const ms = this.options.clock.nowMs() - started;
      if (outcome === "ok") this.seconds.observe({ utility: u.id }, ms / 1000);
      this.options.logger.info({ utility: u.id, key_id: keyId, in_bytes: inBytes, out_bytes: outBytes, ms, outcome }, "utility run");
    };
    if (!this.enabled(u)) {
      log("tool_off", 0);
      throw new ApiError("tool_off", `the utility ${u.id} is disabled by the administrator`);
    }
    if (u.ownThread && !this.available(u)) {
      // The first use starts the thread that builds the utility's state. Loading is a passing state,
      // not the administrator's switch: 409 not_ready (retryable, with Retry-After), never tool_off.
      const pool = this.ownPool(u);
      if (!pool) {
        log("tool_off", 0);
        throw new ApiError("tool_off", `the utility ${u.id} is not available on this server`);
      }
      log("not_ready", 0);
      throw new ApiError("not_ready", `the utility ${u.id} is loading (its dictionaries take up to a minute); try again in ${LOADING_RETRY_S} s`, { retryAfter: LOADING_RETRY_S });
    }
    if (!this.available(u)) {
      log("tool_off", 0);
      throw new ApiError("tool_off", `the utility ${u.id} is not available on this server`);
    }
    try {
      const valid = validateInput(u, input);
      const nowMs = this.options.clock.nowMs();
      const pool = u.ownThread ? (this.own.get(u.id) as UtilityPool) : u.nativeMemory ? (this.options.nativePool ?? this.options.pool) : this.options.pool;
      const output = u.net
        ? await (this.options.net as NetUtilityLane).run(u.id, valid, nowMs, { accountId, keyId })
        : await pool.run({
            utility: u.id,
            input: valid,
            nowMs,
            seed: new Uint8Array(this.options.random(32)),
            caller: `account:${accountId}`,
            ...(u.cpuMs ? { cpuMs: u.cpuMs } : {}),
            ...(signal ? { signal } : {}),
          });
      log("ok", jsonBytes(output));
      return output;
    } catch (err) {
      if (err instanceof UtilityError) {
        log(err.code, 0);
        throw new ApiError(err.code, err.message, err.field ? { param: err.field } : {});
      }
      if (err instanceof PoolBusyError) {
        log("limit", 0);
        throw new ApiError("limit", err.message, { retryAfter: err.retryAfterS, details: { policy: "utility_runs" } });
      }
      if (err instanceof RunAbandonedError) {
        // Nobody reads this answer; it is logged as what happened: dropped unrun, or cut while running.
        log(err.started ? "abandoned" : "dropped", 0);
        throw new ApiError("tool_failed", err.message);
      }
      if (err instanceof ApiError && (err.code === "limit" || err.code === "not_ready")) log(err.code, 0);
      throw err;
    }
  }
}
