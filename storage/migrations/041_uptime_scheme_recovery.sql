-- url_known: the probe's URL is the home URL an analysis resolved (a run whose home page answered);
-- false while it is a guess of the scheme, when probes try http:// if https:// is not spoken there.
-- recovering_at: when the first of the consecutive successes that end a down came (the incident
-- ends there, not at the success that confirms it).
ALTER TABLE uptime_targets ADD COLUMN url_known boolean NOT NULL DEFAULT false;
ALTER TABLE uptime_targets ADD COLUMN recovering_at bigint;
UPDATE uptime_targets t SET url_known = EXISTS (SELECT 1 FROM runs r WHERE r.host = t.host);
