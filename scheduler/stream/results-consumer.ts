import { StreamResult, TOPICS, type StreamKind } from "../../proto/index.ts";
import type { Bus, BusMessage } from "../../runtime/index.ts";
import type { Store } from "../../storage/index.ts";
import type { KindContext } from "../kinds/index.ts";
import type { SchedulerStreamKind } from "./stream-kind.ts";

/**
 * The one writer of stream results: every scheduler consumes the results topic in one consumer
 * group, so each result reaches one of them; it is settled by its kind. A handler that throws gets
 * the message again (the writes are keyed, so a repeat is harmless).
 */
export class ResultsConsumer {
  constructor(
    private readonly kinds: { readonly [K in StreamKind]?: SchedulerStreamKind<K> },
    private readonly ctx: KindContext,
    private readonly store: Store,
  ) {}

  async start(bus: Bus): Promise<void> {
    await bus.subscribe(TOPICS.results, "scheduler", (m) => this.handle(m));
  }

  private async handle(message: BusMessage): Promise<void> {
    let decoded: StreamResult;
    try {
      decoded = StreamResult.decode(message.payload);
    } catch (err) {
      this.ctx.logger.warn({ err }, "a stream result that is no StreamResult: dropped");
      return;
    }
    const result = decoded.result;
    if (!result) return;
    // The one place that dispatches on the result's arm.
    const kind = this.kinds[result.$case] as SchedulerStreamKind<StreamKind> | undefined;
    if (!kind) {
      this.ctx.logger.warn({ kind: result.$case }, "a stream result of a kind this scheduler does not know: dropped");
      return;
    }
    await kind.settle(this.ctx, this.store, result.value, decoded.node);
  }
}
