-- Where a job came from: the API (a user's request) or the scheduler's periodic re-checks.
-- GET /jobs lists the jobs started through the API.
ALTER TABLE jobs ADD COLUMN origin text NOT NULL DEFAULT 'api' CHECK (origin IN ('api', 'schedule'));
