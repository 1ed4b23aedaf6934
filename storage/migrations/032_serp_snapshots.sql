-- SERP snapshots imported from a rank tracker (issue 19; Topvisor snapshots_2/history): the
-- domains ranking per tracked query and day, for share of voice over time (/competitors/{host}/history).
-- Rows belong to their import batch like every search fact; in the distributed mode they live in
-- ClickHouse instead (storage/clickhouse/clickhouse-serp-series.ts) and this table stays empty.
CREATE TABLE serp_snapshots (
  import_id  bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id bigint NOT NULL,
  host       text NOT NULL,
  engine     text NOT NULL,
  region     integer NOT NULL,
  device     text NOT NULL,
  keyword    text NOT NULL,
  day        text NOT NULL,
  rank       integer NOT NULL,
  domain     text NOT NULL,
  url        text NOT NULL
);
CREATE INDEX serp_snapshots_site ON serp_snapshots (account_id, host, day);
CREATE INDEX serp_snapshots_import ON serp_snapshots (import_id);
