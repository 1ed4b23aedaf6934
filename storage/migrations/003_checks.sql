-- Single checks in the synchronous lane (a page, a certificate, DNS): what to check, and the facts
-- found, kept with the job that ran them.
ALTER TABLE jobs ADD COLUMN check_kind text NOT NULL DEFAULT 'site' CHECK (check_kind IN ('site', 'page', 'tls', 'dns'));
ALTER TABLE jobs ADD COLUMN target text;
ALTER TABLE jobs ADD COLUMN result jsonb;
