-- How far each derived time series has followed its source table (e.g. runs → check results):
-- the series are written after the source's transaction commits, idempotently, from this cursor.
CREATE TABLE series_cursors (
  name    text PRIMARY KEY,
  last_id bigint NOT NULL DEFAULT 0
);
