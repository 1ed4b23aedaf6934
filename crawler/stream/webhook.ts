import { WebhookBatchResult, WebhookOutcome } from "../../proto/index.ts";
import { EgressBlockedError } from "../fetch/egress.ts";
import { classifyFetchError } from "../fetch/fetch-errors.ts";
import { checkWebhookAddress, sendSigned } from "../kinds/webhook.ts";
import { NonRetryableWorkError } from "../work-errors.ts";
import type { CrawlerStreamKind } from "./stream-kind.ts";

/** The outcome of an attempt whose window was over before its turn came: not sent. */
export const NOT_SENT = "not_sent";

/** Why an address could not be sent to at all, in the words an attempt's error uses. */
function refusalOf(err: unknown): string {
  if (err instanceof EgressBlockedError) return err.reason;
  if (err instanceof NonRetryableWorkError) return err.reason;
  return classifyFetchError(err, false).code;
}

/**
 * A batch of one webhook's attempts (docs/webhooks.md): the address checked once for the batch
 * (the egress pins every connection it opens to a validated address, so a connection kept alive
 * was checked when it was opened), then each attempt signed with its own timestamp and POSTed in
 * order, one after another, over the node's keep-alive pool. An attempt whose latest start has
 * passed is not sent. Every attempt has an outcome in the one result.
 */
export const webhookStreamKind: CrawlerStreamKind<"webhook"> = {
  name: "webhook",
  async run(task, { node }) {
    const outcomes: WebhookOutcome[] = [];
    const refused = (error: string, from = 0) => {
      for (const a of task.attempts.slice(from)) outcomes.push(WebhookOutcome.fromPartial({ delivery: a.delivery, n: a.n, error }));
    };
    let url: URL;
    try {
      url = await checkWebhookAddress(node, task.url, task.attempts[0]?.delivery ?? 0);
    } catch (err) {
      refused(refusalOf(err));
      return WebhookBatchResult.fromPartial({ webhook: task.webhook, outcomes });
    }
    for (const [i, a] of task.attempts.entries()) {
      if (node.clock.nowMs() > a.notAfterMs) {
        outcomes.push(WebhookOutcome.fromPartial({ delivery: a.delivery, n: a.n, error: NOT_SENT }));
        continue;
      }
      try {
        const sent = await sendSigned(node, url, { ...a, secret: task.secret });
        outcomes.push(WebhookOutcome.fromPartial({ delivery: a.delivery, n: a.n, ...sent }));
      } catch (err) {
        // Refused when a connection was opened (the name moved to a private address): so is the rest.
        refused(refusalOf(err), i);
        break;
      }
    }
    return WebhookBatchResult.fromPartial({ webhook: task.webhook, outcomes });
  },
};
