-- Webhook attempts on the stream lane (docs/webhooks.md): due attempts go out in batches per
-- webhook, with no job row each. A delivery sending in a batch has a window (sending_until, unix
-- seconds): its result is recorded if it comes within it, and a delivery still sending after it is
-- recorded as failed (no_answer) by the planner. Attempts of a batch have no job.

ALTER TABLE webhook_deliveries ADD COLUMN sending_until bigint;
CREATE INDEX webhook_deliveries_window ON webhook_deliveries (sending_until) WHERE state = 'sending' AND sending_until IS NOT NULL;
ALTER TABLE webhook_attempts ALTER COLUMN job_id DROP NOT NULL;
