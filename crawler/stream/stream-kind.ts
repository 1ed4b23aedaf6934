import type { StreamKind, StreamResultOf, StreamTaskOf } from "../../proto/index.ts";
import type { CrawlerNode } from "../node.ts";

/**
 * A stream-lane kind as a crawler node does it: a batch planned for one domain and slot, run
 * under the node's one egress, answered with one result (no job row, no lease: a lost batch is
 * planned again at its next slot, and results are keyed so that a duplicate is harmless).
 */
export interface CrawlerStreamKind<K extends StreamKind> {
  readonly name: K;
  run(task: StreamTaskOf<K>, ctx: { readonly node: CrawlerNode; readonly plannedMs: number }): Promise<StreamResultOf<K>>;
}
