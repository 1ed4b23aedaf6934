-- Gateway-held jobs (issue 19): work a gateway runs itself, because what it works on exists only in
-- that process (an uploaded file being imported). Such a job never enters the bus and no crawler
-- leases it: the scheduler's stale-job sweep skips it, and once its holder's lease lapses the jobs
-- repository ends it in error (`<kind>_interrupted`) when it is read or listed. Its result document
-- is shown with the job. Import jobs written before this migration are such jobs.
ALTER TABLE jobs ADD COLUMN held boolean NOT NULL DEFAULT false;
UPDATE jobs SET held = true WHERE kind = 'import';
