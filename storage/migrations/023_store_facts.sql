-- Facts about the store fixed when it is first set up, recorded by the first process that opens
-- it and checked by every later one (issue 20): where the time series live (the account database,
-- or a ClickHouse database). A role whose configuration disagrees refuses to start.
CREATE TABLE store_facts (
  name text PRIMARY KEY,
  value text NOT NULL,
  recorded bigint NOT NULL
);
