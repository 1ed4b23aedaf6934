import { describe, expect, it } from "vitest";
import { UtilityResult, UtilityTask } from "../../../proto/index.ts";
import { encodeTask, SCHEDULER_KINDS, type KindContext } from "../../../scheduler/index.ts";
import type { JobRow, Repositories } from "../../../storage/index.ts";

const kind = SCHEDULER_KINDS.utility;
const task = UtilityTask.fromPartial({ utility: "http_headers", inputJson: '{"url":"https://private.example/secret-path"}', nowMs: 1_780_000_000_123, seed: Buffer.from([1, 2, 3, 250]) });

const ctx = {} as KindContext;

/** Repositories whose jobs record the tasks the kind clears (the only repository call the utility kind makes). */
function recordingRepos(): { t: Pick<Repositories, "jobs">; cleared: number[] } {
  const cleared: number[] = [];
  const jobs = { forgetTask: async (id: number) => void cleared.push(id) };
  return { t: { jobs } as unknown as Pick<Repositories, "jobs">, cleared };
}

const jobWith = (task: Uint8Array | null, target: string | null = null) => ({ id: 41, host: "utilities.invalid", task, target }) as JobRow;
const held = encodeTask({ $case: "utility", value: task });

describe("the utility kind: the run's input lives in the job row only while it runs", () => {
  it("puts the job under no site, and leases the task its row keeps back as it was sent", async () => {
    expect(kind.hostOf!(task, "")).toBe("utilities.invalid");
    const leased = await kind.task(ctx, recordingRepos().t, jobWith(held));
    expect(UtilityTask.toJSON(leased)).toEqual({ utility: "http_headers", inputJson: '{"url":"https://private.example/secret-path"}', nowMs: 1_780_000_000_123, seed: "AQID+g==" });
    expect(Buffer.from(leased.seed)).toEqual(Buffer.from([1, 2, 3, 250]));
  });

  it("leases a row that keeps its task in the older form (JSON in target) the same, and refuses a row whose run was cleared", async () => {
    const older = JSON.stringify(UtilityTask.toJSON(task));
    expect(await kind.task(ctx, recordingRepos().t, jobWith(null, older))).toEqual(await kind.task(ctx, recordingRepos().t, jobWith(held)));
    await expect(kind.task(ctx, recordingRepos().t, jobWith(null))).rejects.toThrow("a utility job without its run");
  });

  it("clears the row's task when the run settles, and answers the caller with the run's result", async () => {
    const { t, cleared } = recordingRepos();
    const result = UtilityResult.fromPartial({ outputJson: '{"result":{"status":200}}' });
    const settled = await kind.settle(ctx, t, jobWith(held), result);
    expect(cleared).toEqual([41]);
    expect(kind.answerOnce).toBe(true);
    expect(kind.answer!(settled.result)).toEqual(result);
    const refused = UtilityResult.fromPartial({ failed: "bad_param", failedMessage: "url must be http(s)", failedField: "input.url" });
    expect(kind.answer!((await kind.settle(ctx, t, jobWith(held), refused)).result)).toEqual(refused);
  });

  it("clears the row's task on a final failure too", async () => {
    const { t, cleared } = recordingRepos();
    await kind.failed!(ctx, t, jobWith(held), { error: "unreachable", detail: "", retry: "never", delayMs: 0 });
    expect(cleared).toEqual([41]);
  });
});
