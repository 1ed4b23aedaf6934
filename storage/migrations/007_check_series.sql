-- Per-check results of finished analyses: the CheckSeries port on Postgres (embedded mode; the
-- distributed mode keeps them in ClickHouse). One row per (run, check code), the highest attempt.
-- No foreign key to runs: a time series is written and expired on its own, like its ClickHouse twin.
CREATE TABLE check_results (
  run_id      bigint NOT NULL,
  code        text NOT NULL,
  attempt     bigint NOT NULL,
  job_id      bigint NOT NULL,
  host        text NOT NULL,
  checked_at  bigint NOT NULL,
  status      text NOT NULL,
  value       text,
  check_group text NOT NULL,
  PRIMARY KEY (run_id, code)
);
-- history(host, code) and latest(host) / count(host).
CREATE INDEX check_results_host_code ON check_results (host, code, run_id DESC);
CREATE INDEX check_results_host_run ON check_results (host, run_id DESC);
