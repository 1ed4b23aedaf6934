-- Follow-up evidence (issue 18): robots.txt versions and the materialised diagnosis history.
-- Issue 18 §4: robots.txt as each analysis read it, kept when it changed. A row per change of a
-- site's robots.txt (its hash differs from the latest row's): the parsed rules as canonical lines
-- ("Disallow: /blog/ (User-agent: *)", "Sitemap: …"; analyzer/diagnosis/robots-lines.ts), so that
-- the diagnosis names the rule that changed rather than a failing check.
CREATE TABLE robots_versions (
  id         bigserial PRIMARY KEY,
  host       text NOT NULL,
  seen_at    bigint NOT NULL,  -- the checked_at of the analysis that first read this version
  run_id     bigint NOT NULL,
  status     integer NOT NULL, -- robots.txt's HTTP status (404: no file, everything allowed)
  hash       text NOT NULL,    -- sha-256 of the status and lines
  lines      text[] NOT NULL
);
CREATE INDEX robots_versions_host ON robots_versions (host, seen_at DESC, id DESC);

-- Issue 18 §5: the diagnosis history materialised. One row per account, site and finished UTC day:
-- the point as the evidence stood at the end of that day, computed once (the first request after
-- the day ended) and kept while the evidence's stamp holds. The stamp changes with what can rewrite
-- past days: imports of search data (dated in the past) and the profile's excluded checks.
CREATE TABLE diagnosis_days (
  account_id  bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  host        text NOT NULL,
  day         text NOT NULL,  -- YYYY-MM-DD (UTC)
  stamp       text NOT NULL,
  health      integer,
  level       text NOT NULL,
  rank        integer,
  root_cause  text,
  computed_at bigint NOT NULL,
  PRIMARY KEY (account_id, host, day)
);
