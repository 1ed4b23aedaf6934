-- Webhooks (docs/webhooks.md): an account's receiving addresses, one delivery per event and
-- subscription (planned from the event log, in the transaction that moves the planner's cursor in
-- series_cursors), and one row per attempt. A delivery in flight is a `webhook` job (one job per
-- attempt: its lease is what makes an attempt run once).

CREATE TABLE webhooks (
  id              bigserial PRIMARY KEY,
  account_id      bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name            text NOT NULL,
  url             text NOT NULL,
  events          text[] NOT NULL,
  hosts           text[] NOT NULL DEFAULT '{}',
  -- The signing key: needed in clear to sign, never listed, sent to a crawler only inside a task.
  secret          text NOT NULL,
  active          boolean NOT NULL DEFAULT true,
  -- Deliveries lost in a row (not attempts); 15 disable the address.
  failed_in_a_row integer NOT NULL DEFAULT 0,
  created         bigint NOT NULL,
  disabled_at     bigint
);
CREATE INDEX webhooks_account ON webhooks (account_id, id);

CREATE TABLE webhook_deliveries (
  id               bigserial PRIMARY KEY,
  webhook_id       bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  account_id       bigint NOT NULL,
  -- The event delivered; null for a test send.
  event_id         bigint,
  -- The webhook event type (X-Svc-Event): events, uptime, …, or test.
  event            text NOT NULL,
  host             text,
  -- The notification; the body adds event, delivery and sent_at.
  notification     jsonb NOT NULL,
  state            text NOT NULL CHECK (state IN ('pending', 'sending', 'failing', 'delivered', 'lost')),
  -- Every attempt made, and the failed ones since the first send or the last resend (the schedule's).
  attempts         integer NOT NULL DEFAULT 0,
  failures         integer NOT NULL DEFAULT 0,
  next_attempt_at  bigint,
  -- The job of the attempt in flight (state sending).
  job_id           bigint,
  last_code        integer,
  last_error       text,
  last_duration_ms integer,
  last_attempt_at  bigint,
  delivered_at     bigint,
  test             boolean NOT NULL DEFAULT false,
  created          bigint NOT NULL,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state IN ('pending', 'failing');
CREATE INDEX webhook_deliveries_sending ON webhook_deliveries (job_id) WHERE state = 'sending';
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);

-- One row per attempt, written in the transaction of its job's completion (job_id is unique: a
-- completion repeated writes nothing new).
CREATE TABLE webhook_attempts (
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  n           integer NOT NULL,
  job_id      bigint NOT NULL UNIQUE,
  sent_at     bigint,
  finished    bigint NOT NULL,
  code        integer,
  error       text,
  duration_ms integer,
  PRIMARY KEY (delivery_id, n)
);
