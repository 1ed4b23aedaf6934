-- Market data imported from a market source's reports (issue 19; search-data-anchors §5, §8):
-- competitor domains and the keywords domains rank for, per regional base. Rows belong to their
-- import batch like every search fact.
CREATE TABLE market_domains (
  import_id       bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id      bigint NOT NULL,
  host            text NOT NULL,
  provider        text NOT NULL,
  base            text NOT NULL,
  domain          text NOT NULL,
  common_keywords bigint,
  similarity_pct  double precision,
  visibility      double precision,
  top10           bigint,
  pages_in_index  bigint
);
CREATE INDEX market_domains_site ON market_domains (account_id, host, provider, base, import_id);

CREATE TABLE market_keywords (
  import_id  bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id bigint NOT NULL,
  host       text NOT NULL,
  provider   text NOT NULL,
  base       text NOT NULL,
  domain     text NOT NULL,
  keyword    text NOT NULL,
  position   integer NOT NULL,
  url        text NOT NULL,
  volume     bigint
);
CREATE INDEX market_keywords_site ON market_keywords (account_id, host, provider, base, domain, keyword, import_id);
CREATE INDEX market_keywords_import ON market_keywords (import_id);
