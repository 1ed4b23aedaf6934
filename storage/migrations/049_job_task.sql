-- A job's task as the lease carries it: the encoded JobTask (proto/svc/v1/scheduler.proto), written
-- when the job is created and cleared with the job's input where that is not kept (a network
-- utility's, at its end). Rows written before it have none (NULL) and keep their task in `target`,
-- in their kind's older text form, which the scheduler's kinds still read for them: a queued job
-- survives the upgrade.
ALTER TABLE jobs ADD COLUMN task bytea;
