import type { Clock, Config } from "../../runtime/index.ts";
import { UtilityTask } from "../../proto/index.ts";
import type { Repositories } from "../../storage/index.ts";
import { UtilityError, utilityById } from "../../utilities/index.ts";
import { ApiError } from "../errors.ts";
import type { RandomBytes } from "../keys/api-key.ts";
import type { SchedulerPort } from "../scheduler-port.ts";
import type { NetUtilityCaller, NetUtilityLane } from "./utility-runner.ts";

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
    private readonly deps: { readonly scheduler: SchedulerPort; readonly store: Pick<Repositories, "auth">; readonly config: Config; readonly clock: Clock; readonly random: RandomBytes },
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
    const task = UtilityTask.fromPartial({ utility, inputJson: JSON.stringify(input), nowMs, seed: this.deps.random(32) });
    const answer = await this.deps.scheduler.runSync(caller.accountId, { $case: "utility", value: task }, { waitMs: this.deps.config.syncWaitMs });
    if (answer.state === "error") throw new UtilityError("tool_failed", `the run failed on the crawler: ${answer.error}`);
    if (answer.state === "running") {
      throw new ApiError("not_ready", "the network utility is still running; send the request again", { retryAfter: 3, details: { job: answer.jobId } });
    }
    const out = answer.result;
    if (out.failed === "bad_param") throw new UtilityError("bad_param", out.failedMessage || "bad input", out.failedField || undefined);
    if (out.failed) throw new UtilityError("tool_failed", out.failedMessage || "the run failed");
    if (!out.outputJson) throw new UtilityError("tool_failed", "the run's result was already taken");
    return JSON.parse(out.outputJson);
  }
}
