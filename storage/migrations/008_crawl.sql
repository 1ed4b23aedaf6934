-- Whole-site crawls. Plans bound a crawl's pages and depth. A crawl job stores its pages as it
-- fetches them (they are its checkpoint: a resumed attempt continues from them); when it finishes,
-- its report and findings go to crawls, shared by every account like runs.
ALTER TABLE plans ADD COLUMN crawl_pages integer NOT NULL DEFAULT 500;
ALTER TABLE plans ADD COLUMN crawl_depth integer NOT NULL DEFAULT 10;

CREATE TABLE crawl_pages (
  job_id   bigint NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  url      text NOT NULL,
  seq      bigserial,
  depth    integer NOT NULL,
  status   integer NOT NULL,
  skipped  text NOT NULL DEFAULT '',
  title    text NOT NULL DEFAULT '',
  words    integer NOT NULL DEFAULT 0,
  inlinks  integer NOT NULL DEFAULT 0,
  outlinks integer NOT NULL DEFAULT 0,
  score    double precision NOT NULL DEFAULT 0,
  issues   text[] NOT NULL DEFAULT '{}',
  data     json NOT NULL,
  PRIMARY KEY (job_id, url)
);
CREATE INDEX crawl_pages_order ON crawl_pages (job_id, seq);

CREATE TABLE crawls (
  job_id     bigint PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  host       text NOT NULL,
  run_id     bigint,
  checked_at bigint NOT NULL,
  findings   jsonb NOT NULL,
  report     jsonb NOT NULL
);
CREATE INDEX crawls_host ON crawls (host, checked_at DESC);
