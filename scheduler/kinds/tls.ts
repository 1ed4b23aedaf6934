import { TlsFacts, TlsTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/** A live TLS handshake: the facts are the job's result (GET /ssl/{host} reads them). */
export const tlsKind: SchedulerKind<"tls"> = {
  name: "tls",
  lanes: ["sync"],
  cost: 1,
  hostOf: (target) => target,
  task: async (_ctx, job) => TlsTask.fromPartial({ host: job.target ?? job.host }),
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: TlsFacts.toJSON(result.facts ?? TlsFacts.fromPartial({})) }),
};
