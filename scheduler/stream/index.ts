import type { StreamKind } from "../../proto/index.ts";
import { probeStreamKind } from "./probe.ts";
import type { SchedulerStreamKind } from "./stream-kind.ts";
import { webhookStreamKind } from "./webhook.ts";

export type { SchedulerStreamKind } from "./stream-kind.ts";
export { probeMessages } from "./probe.ts";
export { ResultsConsumer } from "./results-consumer.ts";
export { webhookBatches } from "./webhook.ts";

/** Every stream-lane kind the scheduler settles, by name. */
export const SCHEDULER_STREAM_KINDS: { readonly [K in StreamKind]: SchedulerStreamKind<K> } = {
  probe: probeStreamKind,
  webhook: webhookStreamKind,
};
