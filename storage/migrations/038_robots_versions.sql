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
