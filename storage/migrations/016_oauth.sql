-- OAuth 2.1 for the tool server: registered clients, single-use authorization codes, grants
-- (one per consent; a refresh-token family) and their refresh tokens. An access token is an
-- ordinary row of api_keys (kind 'oauth') that points at its grant, so revoking a grant revokes
-- every access token issued under it. Codes and tokens are stored as SHA-256 hashes only.

CREATE TABLE oauth_clients (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  redirect_uris text[] NOT NULL,
  created       bigint NOT NULL,
  last_used     bigint
);

CREATE TABLE oauth_grants (
  id         bigserial PRIMARY KEY,
  client_id  text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  scopes     text[] NOT NULL,
  resource   text NOT NULL,
  created    bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);

CREATE TABLE oauth_codes (
  hash           text PRIMARY KEY,
  client_id      text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id     bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,
  resource       text NOT NULL,
  scopes         text[] NOT NULL,
  created        bigint NOT NULL,
  expires_at     bigint NOT NULL,
  used_at        bigint,
  -- The grant the code was exchanged for: a second use of the code revokes it (OAuth 2.1 §4.1.3).
  grant_id       bigint REFERENCES oauth_grants (id) ON DELETE SET NULL
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

CREATE TABLE oauth_refresh_tokens (
  hash       text PRIMARY KEY,
  grant_id   bigint NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  created    bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at    bigint
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);

ALTER TABLE api_keys ADD COLUMN oauth_grant_id bigint REFERENCES oauth_grants (id) ON DELETE SET NULL;
CREATE INDEX api_keys_oauth_grant ON api_keys (oauth_grant_id) WHERE oauth_grant_id IS NOT NULL;
