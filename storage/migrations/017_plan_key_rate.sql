-- A plan caps the sum of the hourly limits of an account's usable keys, so that keys cannot be
-- multiplied into an unbounded request rate (issue 21).
ALTER TABLE plans ADD COLUMN key_rate_per_hour integer NOT NULL DEFAULT 10000;
