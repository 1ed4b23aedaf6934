-- The watchdog: each monitored host's watched pages with the snapshot of their SEO-critical
-- elements, and every change an analysis found in them.

CREATE TABLE watched_pages (
  host       text NOT NULL,
  url        text NOT NULL,
  position   integer NOT NULL,           -- 0 the home page, then by internal link rank
  snapshot   jsonb,                      -- null until an analysis fetched the page
  checked_at bigint,
  changed_at bigint,                     -- the last analysis that found a change
  PRIMARY KEY (host, url)
);

CREATE TABLE watchdog_changes (
  id      bigserial PRIMARY KEY,
  host    text NOT NULL,
  url     text NOT NULL,
  field   text NOT NULL,                 -- status, title, description, robots, canonical, h1, content
  before  text NOT NULL,
  after   text NOT NULL,
  level   text NOT NULL,
  at      bigint NOT NULL,
  run_id  bigint NOT NULL,
  UNIQUE (run_id, url, field)            -- a repeated completion of the same run records once
);
CREATE INDEX watchdog_changes_host ON watchdog_changes (host, at DESC, id DESC);
