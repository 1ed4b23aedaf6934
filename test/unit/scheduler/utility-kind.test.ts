import { describe, expect, it } from "vitest";
import { UtilityResult, UtilityTask } from "../../../proto/index.ts";
import { SCHEDULER_KINDS, type KindContext } from "../../../scheduler/index.ts";
import type { JobRow, Queryable } from "../../../storage/index.ts";

const kind = SCHEDULER_KINDS.utility;
const task = UtilityTask.fromPartial({ utility: "http_headers", inputJson: '{"url":"https://private.example/secret-path"}', nowMs: 1_780_000_000_123, seed: Buffer.from([1, 2, 3, 250]) });

/** A context whose store records the targets the kind clears (the only store call the utility kind makes). */
function recordingContext(): { ctx: KindContext; cleared: number[] } {
  const cleared: number[] = [];
  const store = { jobs: { forgetTarget: async (_q: Queryable, id: number) => void cleared.push(id) } };
  return { ctx: { store } as unknown as KindContext, cleared };
}

const jobWith = (target: string | null) => ({ id: 41, host: "utilities.invalid", target }) as JobRow;
const q = {} as Queryable;

describe("the utility kind: the run's input lives in the job row only while it runs", () => {
  it("places the task on the row under no site, and leases it back as it was sent", async () => {
    const place = kind.place!(task, "");
    expect(place.host).toBe("utilities.invalid");
    const leased = await kind.task(recordingContext().ctx, jobWith(place.target));
    expect(UtilityTask.toJSON(leased)).toEqual({ utility: "http_headers", inputJson: '{"url":"https://private.example/secret-path"}', nowMs: 1_780_000_000_123, seed: "AQID+g==" });
    expect(Buffer.from(leased.seed)).toEqual(Buffer.from([1, 2, 3, 250]));
  });

  it("clears the row's target when the run settles, and answers the caller with the run's result", async () => {
    const { ctx, cleared } = recordingContext();
    const result = UtilityResult.fromPartial({ outputJson: '{"result":{"status":200}}' });
    const settled = await kind.settle(ctx, q, jobWith("held"), result);
    expect(cleared).toEqual([41]);
    expect(kind.answerOnce).toBe(true);
    expect(kind.answer!(settled.result)).toEqual(result);
    const refused = UtilityResult.fromPartial({ failed: "bad_param", failedMessage: "url must be http(s)", failedField: "input.url" });
    expect(kind.answer!((await kind.settle(ctx, q, jobWith("held"), refused)).result)).toEqual(refused);
  });

  it("clears the row's target on a final failure too", async () => {
    const { ctx, cleared } = recordingContext();
    await kind.failed!(ctx, q, jobWith("held"), { error: "unreachable", detail: "", retry: "never", delayMs: 0 });
    expect(cleared).toEqual([41]);
  });
});
