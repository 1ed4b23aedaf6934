-- search_period is read and written through the SearchPeriodSeries port now (issue 19; ClickHouse in
-- the distributed mode, where this table stays empty), like search_daily and serp_snapshots: its
-- rows go with their batch by SearchPeriodSeries.drop, not by a cascade the other store cannot have.
ALTER TABLE search_period DROP CONSTRAINT search_period_import_id_fkey;
