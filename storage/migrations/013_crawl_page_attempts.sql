-- The caller that holds a crawl's lease passes it to the page store (the store no longer reads
-- jobs): each page keeps the attempt that wrote it, and of two attempts' copies the later
-- attempt's wins whichever arrives last, as in ClickHouse.
ALTER TABLE crawl_pages ADD COLUMN attempt integer NOT NULL DEFAULT 0;
