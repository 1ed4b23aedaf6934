-- Site profiles (PUT /profile/{host}): an account's site type and the check families it excludes
-- from the rank (seo-anchors §3.7). A profile belongs to the account's monitored site: removing the
-- site removes its profile. No row = the default profile `general` with no exclusions.
CREATE TABLE profiles (
  account_id bigint NOT NULL,
  host       text NOT NULL,
  profile    text NOT NULL CHECK (profile IN ('general', 'shop', 'forum', 'blog', 'corporate', 'portal')),
  exclude    text[] NOT NULL,
  updated    bigint NOT NULL,
  PRIMARY KEY (account_id, host),
  FOREIGN KEY (account_id, host) REFERENCES sites (account_id, host) ON DELETE CASCADE
);
