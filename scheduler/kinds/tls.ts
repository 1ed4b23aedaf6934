import { TlsFacts, TlsResult, TlsTask } from "../../proto/index.ts";
import { defineKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

/** A live TLS handshake: the facts are the job's result (GET /ssl/{host} reads them). */
export const tlsKind = defineKind({
  name: "tls",
  uses: [],
  cost: 1,
  hostOf: (task) => task.host,
  // The older form: none, the host is the job's.
  task: async (_ctx, _repos, job) => taskOfRow(job, "tls", () => TlsTask.fromPartial({ host: job.host })),
  settle: async (_ctx, _t, _job, result) => ({ runId: null, result: TlsFacts.toJSON(result.facts ?? TlsFacts.fromPartial({})) }),
  answer: (doc) => TlsResult.fromPartial({ facts: TlsFacts.fromJSON(doc) }),
});
