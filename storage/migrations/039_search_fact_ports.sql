-- Backlinks, indexing and market facts are read and written through their ports now (issue 19:
-- BacklinkSeries, IndexSeries, MarketSeries; ClickHouse in the distributed mode, where these tables
-- stay empty), like search_period: their rows go with their batch by the ports' drop, not by a
-- cascade the other store cannot have.
ALTER TABLE backlinks DROP CONSTRAINT backlinks_import_id_fkey;
ALTER TABLE index_status DROP CONSTRAINT index_status_import_id_fkey;
ALTER TABLE index_issues DROP CONSTRAINT index_issues_import_id_fkey;
ALTER TABLE index_urls DROP CONSTRAINT index_urls_import_id_fkey;
ALTER TABLE market_domains DROP CONSTRAINT market_domains_import_id_fkey;
ALTER TABLE market_keywords DROP CONSTRAINT market_keywords_import_id_fkey;
-- A competitor report keeps its order (the report's), as ClickHouse keeps it by the same column.
ALTER TABLE market_domains ADD COLUMN seq integer NOT NULL DEFAULT 0;
CREATE INDEX index_issues_import ON index_issues (import_id);
CREATE INDEX market_domains_import ON market_domains (import_id);
