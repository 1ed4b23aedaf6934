-- Accounts, plans, keys, sites, request counters, idempotency and service switches.
-- Timestamps are Unix seconds (bigint), the API's unit; the clock is the caller's.

CREATE TABLE plans (
  id               serial PRIMARY KEY,
  name             text NOT NULL UNIQUE,
  sites            integer NOT NULL,
  checks_per_day   integer NOT NULL,
  rechecks_per_day integer NOT NULL,
  webhooks         integer NOT NULL,
  api_keys         integer NOT NULL
);

CREATE TABLE accounts (
  id       bigserial PRIMARY KEY,
  email    text NOT NULL UNIQUE,
  plan_id  integer NOT NULL REFERENCES plans (id),
  blocked  boolean NOT NULL DEFAULT false,
  is_admin boolean NOT NULL DEFAULT false,
  created  bigint NOT NULL
);

CREATE TABLE api_keys (
  id                  bigserial PRIMARY KEY,
  account_id          bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name                text NOT NULL,
  kind                text NOT NULL DEFAULT 'api' CHECK (kind IN ('api', 'oauth')),
  prefix              text NOT NULL,
  hash                text NOT NULL UNIQUE,
  scopes              text[] NOT NULL,
  allowed_ips         inet[] NOT NULL DEFAULT '{}',
  rate_limit_per_hour integer NOT NULL,
  created             bigint NOT NULL,
  expires_at          bigint,
  revoked_at          bigint
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- One fixed window per subject and clock hour. subject is 'k:<key id>' or 'a:<client address>'.
-- n counts requests admitted or reserved by gateway processes (never above the cap it was
-- reserved under); granted is what the last reservation added.
CREATE TABLE rate_counters (
  subject text NOT NULL,
  hour    bigint NOT NULL,
  n       integer NOT NULL,
  granted integer NOT NULL DEFAULT 0,
  PRIMARY KEY (subject, hour)
);

CREATE TABLE projects (
  id         bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name       text NOT NULL,
  UNIQUE (account_id, name)
);

CREATE TABLE sites (
  id         bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  host       text NOT NULL,
  added      bigint NOT NULL,
  interval_h integer NOT NULL,
  importance text NOT NULL DEFAULT 'normal' CHECK (importance IN ('critical', 'high', 'normal', 'low')),
  project_id bigint REFERENCES projects (id) ON DELETE SET NULL,
  UNIQUE (account_id, host)
);
CREATE INDEX sites_host ON sites (host);

CREATE TABLE idempotency_keys (
  account_id   bigint NOT NULL,
  key          text NOT NULL,
  fingerprint  text NOT NULL,
  state        text NOT NULL CHECK (state IN ('running', 'done')),
  locked_until bigint NOT NULL,
  status       integer,
  body         text,
  headers      jsonb,
  created      bigint NOT NULL,
  expires_at   bigint NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

-- Time-series port, embedded implementation: per key and UTC day.
CREATE TABLE usage_daily (
  key_id  bigint NOT NULL,
  day     date NOT NULL,
  calls   bigint NOT NULL DEFAULT 0,
  errors  bigint NOT NULL DEFAULT 0,
  limited bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day)
);

-- Operator switches shared by every gateway process: maintenance, closed.
CREATE TABLE service_state (
  name    text PRIMARY KEY,
  value   text NOT NULL,
  updated bigint NOT NULL
);
