-- The analysis path: jobs and their outbox (work for the bus), runs (reports, shared by host),
-- tasks (per account), events (deterministic ids, for the feed and webhooks).

CREATE TABLE jobs (
  id             bigserial PRIMARY KEY,
  account_id     bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind           text NOT NULL CHECK (kind IN ('analyze', 'crawl')),
  host           text NOT NULL,
  state          text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'error')),
  progress       integer NOT NULL DEFAULT 0,
  step           text,
  error          text,
  error_detail   text,
  cached         boolean NOT NULL DEFAULT false,
  sync           boolean NOT NULL DEFAULT false,
  attempt        integer NOT NULL DEFAULT 0,
  max_attempts   integer NOT NULL,
  worker         text,
  lease_until_ms bigint,
  checkpoint     bytea,
  run_id         bigint,
  created        bigint NOT NULL,
  updated        bigint NOT NULL,
  finished       bigint
);
CREATE INDEX jobs_account ON jobs (account_id, id DESC);
CREATE INDEX jobs_active ON jobs (state, updated) WHERE state IN ('queued', 'running');

-- Written in the same transaction as the job; a relay publishes it to the bus.
CREATE TABLE outbox (
  id        bigserial PRIMARY KEY,
  topic     text NOT NULL,
  key       text NOT NULL,
  payload   bytea NOT NULL,
  created   bigint NOT NULL,
  published bigint
);
CREATE INDEX outbox_pending ON outbox (id) WHERE published IS NULL;

-- One finished analysis of a host. Shared by every account; a job completes into at most one run.
CREATE TABLE runs (
  id         bigserial PRIMARY KEY,
  host       text NOT NULL,
  job_id     bigint UNIQUE,
  checked_at bigint NOT NULL,
  rank       integer NOT NULL,
  label      text NOT NULL,
  color      text NOT NULL,
  report     jsonb NOT NULL
);
CREATE INDEX runs_host ON runs (host, id DESC);

CREATE TABLE tasks (
  id         bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  host       text NOT NULL,
  code       text NOT NULL,
  title      text NOT NULL,
  level      text NOT NULL CHECK (level IN ('bad', 'warn', 'info')),
  grp        text NOT NULL,
  impact     double precision NOT NULL,
  hint       text NOT NULL,
  detail     text NOT NULL,
  source     text NOT NULL,
  recheck    boolean NOT NULL,
  effort     integer NOT NULL DEFAULT 2,
  status     text NOT NULL CHECK (status IN ('open', 'done', 'ignored')),
  first_seen bigint NOT NULL,
  last_seen  bigint NOT NULL,
  updated    bigint NOT NULL,
  UNIQUE (account_id, host, code)
);
CREATE INDEX tasks_open ON tasks (account_id, status, impact DESC);

CREATE TABLE events (
  id         bigserial PRIMARY KEY,
  event_key  text NOT NULL UNIQUE,
  account_id bigint,
  host       text,
  type       text NOT NULL,
  level      text NOT NULL CHECK (level IN ('good', 'warn', 'bad', 'info')),
  payload    jsonb NOT NULL,
  created    bigint NOT NULL
);
CREATE INDEX events_account ON events (account_id, id);
