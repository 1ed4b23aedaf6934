import type { Clock, Config } from "../../runtime/index.ts";
import type { Store } from "../../storage/index.ts";
import { UtilityError, utilityById } from "../../utilities/index.ts";
import { ApiError } from "../errors.ts";
import type { RandomBytes } from "../keys/api-key.ts";
import type { SchedulerPort } from "../scheduler-port.ts";
import type { NetUtilityCaller, NetUtilityLane } from "./utility-runner.ts";

/** A network-utility run as the scheduler's utility kind reads its job's target (scheduler/kinds/utility.ts). */
interface UtilityTarget {
  readonly utility: string;
  readonly input: Record<string, unknown>;
  readonly now_ms: number;
  readonly seed: string;
}

/** What the job row holds after the run, until this lane takes it (the crawler's UtilityResult). */
interface UtilityJobResult {
  readonly output_json?: string;
  readonly failed?: string;
  readonly message?: string;
  readonly field?: string;
}

/**
 * What a run costs against the key's hourly limit of network utilities (catalogue §9.3): 1, plus 1
 * for every 10 targets after the first in a bulk run (its longest list field).
 */
export function netRunCost(input: Record<string, unknown>): number {
  const targets = Math.max(1, ...Object.values(input).map((v) => (Array.isArray(v) ? v.length : 1)));
  return 1 + Math.floor((targets - 1) / 10);
}

/**
 * The network utilities' lane: a `utility` job in the scheduler's synchronous lane, run by a
 * crawler node behind its egress guard. The job row carries the input only while the run lasts
 * (the kind clears it when it settles) and the output only until this lane takes it (cleared as
 * it is read), so neither outlives the request.
 */
export class SchedulerNetLane implements NetUtilityLane {
  constructor(
    private readonly deps: { readonly scheduler: SchedulerPort; readonly store: Store; readonly config: Config; readonly clock: Clock; readonly random: RandomBytes },
  ) {}

  /** The hourly limit of network utilities, charged before the run (a refused input costs nothing: it is validated first). */
  private async charge(keyId: number | null, cost: number): Promise<void> {
    if (keyId === null) return;
    const perHour = this.deps.config.utilities.netPerHour;
    const nowS = Math.floor(this.deps.clock.nowMs() / 1000);
    const hour = Math.floor(nowS / 3600);
    const n = await this.deps.store.auth.charge(`h:netutil:${keyId}`, hour, cost, perHour);
    if (n === null) {
      throw new ApiError("limit", `this key may run ${perHour} network utilities an hour`, {
        retryAfter: (hour + 1) * 3600 - nowS,
        details: { policy: "net_utilities_per_hour", limit: perHour },
      });
    }
  }

  async run(utility: string, input: Record<string, unknown>, nowMs: number, caller: NetUtilityCaller): Promise<unknown> {
    if (!utilityById(utility)?.net) throw new UtilityError("tool_failed", `${utility} is not a network utility`);
    await this.charge(caller.keyId, netRunCost(input));
    const target: UtilityTarget = { utility, input, now_ms: nowMs, seed: Buffer.from(this.deps.random(32)).toString("base64") };
    const res = await this.deps.scheduler.runSingle(caller.accountId, "utility", JSON.stringify(target), this.deps.config.syncWaitMs);
    const job = await this.deps.store.jobs.getOwned(caller.accountId, res.jobId);
    if (job?.state === "error") throw new UtilityError("tool_failed", `the run failed on the crawler: ${job.error ?? "failed"}`);
    if (!res.done || job?.state !== "done") {
      throw new ApiError("not_ready", "the network utility is still running; send the request again", { retryAfter: 3, details: { job: res.jobId } });
    }
    const out = (await this.deps.store.jobs.takeResult(caller.accountId, res.jobId)) as UtilityJobResult | null;
    if (!out) throw new UtilityError("tool_failed", "the run's result was already taken");
    if (out.failed === "bad_param") throw new UtilityError("bad_param", out.message ?? "bad input", out.field || undefined);
    if (out.failed) throw new UtilityError("tool_failed", out.message ?? "the run failed");
    return JSON.parse(out.output_json ?? "null");
  }
}
