-- Monitoring: the event feed's public fields, uptime probes (the embedded mode's time series;
-- ClickHouse holds them in the distributed mode), each monitored host's probing state, incidents.

-- An event's type is the spec's webhook event type (events, uptime, watchdog, page, crawl, rank,
-- security, digest); kind says what happened within it (task.new, rank.changed, site.down, …);
-- text says it to a person.
ALTER TABLE events ADD COLUMN kind text NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN text text NOT NULL DEFAULT '';
UPDATE events SET kind = 'task.' || coalesce(payload->>'change', payload->>'status', 'changed'), type = 'events' WHERE type = 'task';
UPDATE events SET kind = 'rank.changed' WHERE type = 'rank';
UPDATE events SET kind = CASE WHEN payload->>'kind' = 'crawl' THEN 'crawl.' ELSE 'analysis.' END || coalesce(payload->>'state', 'done'),
                  type = CASE WHEN payload->>'kind' = 'crawl' THEN 'crawl' ELSE 'events' END
  WHERE type = 'job';
CREATE INDEX events_account_type ON events (account_id, type, id);

-- The probing interval of a plan (minutes); a host monitored by several accounts is probed at the
-- shortest interval among them.
ALTER TABLE plans ADD COLUMN uptime_min integer NOT NULL DEFAULT 5;

-- One row per monitored host: where its next slot is and what its probes say.
CREATE TABLE uptime_targets (
  host        text PRIMARY KEY,
  url         text NOT NULL,
  interval_s  integer NOT NULL,
  next_slot   bigint NOT NULL,           -- unix seconds of the next slot to plan
  state       text NOT NULL DEFAULT 'unknown' CHECK (state IN ('unknown', 'up', 'suspect', 'down', 'degraded')),
  since       bigint,                    -- when the state began (up, down, degraded)
  suspect_at  bigint,                    -- the first failed probe of a suspicion
  first_probe bigint,                    -- the first probe's time: uptime is observed from then
  fails       integer NOT NULL DEFAULT 0,
  successes   integer NOT NULL DEFAULT 0,
  slow        integer NOT NULL DEFAULT 0,
  last_check  bigint,
  last_status integer,
  last_cause  text,
  confirming  bigint                     -- the slot a confirmation probe was planned for
);
CREATE INDEX uptime_targets_due ON uptime_targets (next_slot);

-- Raw probes of the embedded mode, keyed by (host, slot, confirm): a duplicate result is harmless.
CREATE TABLE uptime_probes (
  host      text NOT NULL,
  slot      bigint NOT NULL,
  confirm   boolean NOT NULL DEFAULT false,
  at        bigint NOT NULL,             -- when it ran (unix seconds)
  ok        boolean NOT NULL,
  status    integer NOT NULL,
  cause     text NOT NULL DEFAULT '',
  dns_ms    real NOT NULL DEFAULT 0,
  connect_ms real NOT NULL DEFAULT 0,
  tls_ms    real NOT NULL DEFAULT 0,
  ttfb_ms   real NOT NULL DEFAULT 0,
  total_ms  real NOT NULL DEFAULT 0,
  late_ms   real NOT NULL DEFAULT 0,
  node      text NOT NULL DEFAULT '',
  held      boolean NOT NULL DEFAULT false, -- a failure of a node that suspected itself: not counted
  PRIMARY KEY (host, slot, confirm)
);
CREATE INDEX uptime_probes_at ON uptime_probes (host, at);

CREATE TABLE incidents (
  id          bigserial PRIMARY KEY,
  host        text NOT NULL,
  kind        text NOT NULL,             -- down, degraded, certificate, noindex, robots
  title       text NOT NULL,
  cause       text NOT NULL DEFAULT '',
  status      text NOT NULL CHECK (status IN ('open', 'closed')),
  first_seen  bigint NOT NULL,
  resolved_at bigint
);
CREATE UNIQUE INDEX incidents_open ON incidents (host, kind) WHERE status = 'open';
CREATE INDEX incidents_host ON incidents (host, first_seen DESC);
