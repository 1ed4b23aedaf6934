-- Search data imported from the user's own exports (issue 19; search-data-anchors §8). Every fact
-- row carries its import batch: deleting a batch deletes what it brought (ON DELETE CASCADE), and a
-- failed import leaves nothing (one transaction). Facts are sums; days are 'YYYY-MM-DD' text.
CREATE TABLE import_batches (
  id             bigserial PRIMARY KEY,
  account_id     bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  host           text NOT NULL,
  provider       text NOT NULL,
  kind           text NOT NULL,
  formats        jsonb NOT NULL,
  file_name      text NOT NULL,
  sha256         text NOT NULL,
  parser_version integer NOT NULL,
  period_start   text,
  period_end     text,
  filters        jsonb NOT NULL,
  rows           integer NOT NULL,
  truncated      boolean NOT NULL,
  warnings       jsonb NOT NULL,
  imported_at    bigint NOT NULL,
  UNIQUE (account_id, host, sha256, parser_version)
);
CREATE INDEX import_batches_site ON import_batches (account_id, host, imported_at DESC);
CREATE INDEX import_batches_provider ON import_batches (account_id, provider, imported_at DESC);

CREATE TABLE search_period (
  import_id        bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id       bigint NOT NULL,
  host             text NOT NULL,
  engine           text NOT NULL,
  dim              text NOT NULL,
  key              text NOT NULL,
  key2             text NOT NULL,
  clicks           bigint NOT NULL,
  impressions      bigint NOT NULL,
  pos_x_impr       double precision NOT NULL,
  prev_clicks      bigint,
  prev_impressions bigint,
  prev_pos_x_impr  double precision
);
CREATE INDEX search_period_site ON search_period (account_id, host, engine, dim, import_id);
CREATE INDEX search_period_import ON search_period (import_id);

CREATE TABLE search_daily (
  import_id   bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id  bigint NOT NULL,
  host        text NOT NULL,
  engine      text NOT NULL,
  day         text NOT NULL,
  query       text NOT NULL,
  page        text NOT NULL,
  country     text NOT NULL,
  device      text NOT NULL,
  clicks      bigint NOT NULL,
  impressions bigint NOT NULL,
  pos_x_impr  double precision NOT NULL
);
CREATE INDEX search_daily_site ON search_daily (account_id, host, engine, query, page, day);
CREATE INDEX search_daily_import ON search_daily (import_id);

CREATE TABLE index_status (
  import_id   bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id  bigint NOT NULL,
  host        text NOT NULL,
  engine      text NOT NULL,
  day         text NOT NULL,
  indexed     bigint,
  not_indexed bigint
);
CREATE INDEX index_status_site ON index_status (account_id, host, engine, day);
CREATE INDEX index_status_import ON index_status (import_id);

CREATE TABLE index_issues (
  import_id  bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id bigint NOT NULL,
  host       text NOT NULL,
  engine     text NOT NULL,
  reason     text NOT NULL,
  source     text NOT NULL,
  validation text NOT NULL,
  pages      bigint NOT NULL
);
CREATE INDEX index_issues_site ON index_issues (account_id, host, engine, import_id);

CREATE TABLE index_urls (
  import_id    bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id   bigint NOT NULL,
  host         text NOT NULL,
  engine       text NOT NULL,
  url          text NOT NULL,
  status       text NOT NULL,
  reason       text NOT NULL,
  http_code    integer,
  last_crawled text,
  event        text,
  event_date   text,
  target       text
);
CREATE INDEX index_urls_site ON index_urls (account_id, host, engine, url);
CREATE INDEX index_urls_import ON index_urls (import_id);

CREATE TABLE backlinks (
  import_id     bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id    bigint NOT NULL,
  host          text NOT NULL,
  provider      text NOT NULL,
  source_url    text NOT NULL,
  target_url    text NOT NULL,
  anchor        text NOT NULL,
  source_domain text NOT NULL,
  nofollow      boolean NOT NULL,
  source_rating integer,
  rating_scale  text,
  first_seen    text,
  last_seen     text,
  lost_at       text
);
CREATE INDEX backlinks_site ON backlinks (account_id, host, source_url, target_url, anchor, import_id);
CREATE INDEX backlinks_import ON backlinks (import_id);

CREATE TABLE rank_checks (
  import_id  bigint NOT NULL REFERENCES import_batches (id) ON DELETE CASCADE,
  account_id bigint NOT NULL,
  host       text NOT NULL,
  provider   text NOT NULL,
  engine     text NOT NULL,
  region     integer NOT NULL,
  device     text NOT NULL,
  keyword    text NOT NULL,
  day        text NOT NULL,
  position   integer,
  url        text,
  grp        text NOT NULL,
  volume     bigint
);
CREATE INDEX rank_checks_site ON rank_checks (account_id, host, engine, region, device, keyword, day);
CREATE INDEX rank_checks_import ON rank_checks (import_id);
