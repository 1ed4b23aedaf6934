-- A site's uptime keyword (an extension of POST /sites): a probe whose answer does not contain it
-- fails with cause keyword. Per account and site; a host several accounts monitor is probed once,
-- for the keyword of the account that set one first.
ALTER TABLE sites ADD COLUMN uptime_keyword text;
ALTER TABLE uptime_targets ADD COLUMN keyword text NOT NULL DEFAULT '';
