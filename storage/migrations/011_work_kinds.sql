-- One kind name per job: the work kind of the proto's task arm (analyze, crawl, page, tls, dns,
-- and those to come), merging kind and check_kind. Kinds are defined in code (the kind tables),
-- so the column checks only the name's form.
ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
UPDATE jobs SET kind = check_kind WHERE check_kind IN ('page', 'tls', 'dns');
ALTER TABLE jobs DROP COLUMN check_kind;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_name CHECK (kind ~ '^[a-z][a-z_]{0,31}$');

-- A throttled attempt (the target asked us to wait) is queued again for later without costing an
-- attempt: its job and its outbox message wait until not_before (unix seconds).
ALTER TABLE jobs ADD COLUMN not_before bigint;
ALTER TABLE outbox ADD COLUMN not_before bigint;
