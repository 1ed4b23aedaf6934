-- SERP snapshots imported from a rank tracker (issue 19; Topvisor snapshots_2/history): the
-- domains ranking per tracked query and day, for share of voice over time (/competitors/{host}/history).
-- Read and written only through the SerpSeries port (storage/serp-series.ts), whose other store is
-- ClickHouse: so, as there, no foreign key to import_batches. Rows are written in the import's
-- transaction, reads name the live batches, and deleting a batch deletes its rows (SerpSeries.drop).
-- In the distributed mode this table stays empty.
CREATE TABLE serp_snapshots (
  import_id  bigint NOT NULL,
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

-- search_daily is read and written through the SearchDailySeries port now (ClickHouse in the
-- distributed mode), like serp_snapshots: its rows go with their batch by SearchDailySeries.drop,
-- not by a cascade the other store cannot have.
ALTER TABLE search_daily DROP CONSTRAINT search_daily_import_id_fkey;
-- rank_checks likewise (the RankSeries port).
ALTER TABLE rank_checks DROP CONSTRAINT rank_checks_import_id_fkey;

-- Backlinks: the newest row of each (source, target, anchor) of a site is marked at import (older
-- rows superseded) and at a batch's deletion (the newest left unsuperseded), so /backlinks reads
-- through partial indexes instead of deduplicating every row of the site per request.
ALTER TABLE backlinks ADD COLUMN superseded boolean NOT NULL DEFAULT false;
UPDATE backlinks b SET superseded = true WHERE EXISTS (
  SELECT 1 FROM backlinks n WHERE n.account_id = b.account_id AND n.host = b.host AND n.source_url = b.source_url
    AND n.target_url = b.target_url AND n.anchor = b.anchor AND n.import_id > b.import_id
);
CREATE INDEX backlinks_live ON backlinks (account_id, host, source_rating DESC NULLS LAST, first_seen DESC NULLS LAST) WHERE NOT superseded AND lost_at IS NULL;
CREATE INDEX backlinks_lost ON backlinks (account_id, host, lost_at DESC) WHERE NOT superseded AND lost_at IS NOT NULL;
-- The live and lost totals per site, counted at import and deletion rather than per request.
CREATE TABLE backlink_totals (
  account_id bigint NOT NULL,
  host       text NOT NULL,
  live       bigint NOT NULL,
  lost       bigint NOT NULL,
  PRIMARY KEY (account_id, host)
);
INSERT INTO backlink_totals (account_id, host, live, lost)
  SELECT account_id, host, count(*) FILTER (WHERE lost_at IS NULL), count(*) FILTER (WHERE lost_at IS NOT NULL)
  FROM backlinks WHERE NOT superseded GROUP BY account_id, host;
