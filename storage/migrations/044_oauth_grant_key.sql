-- An OAuth grant is never stronger than the API key that consented to it (issue 32, Q1): the
-- code and the grant remember that key, every access token of the grant takes the key's allowed
-- addresses, an hourly limit no higher and an expiry no later, and revoking the key (or its
-- expiry) ends the grant. Grants made before this rule did not record their key and may hold
-- more than it: they end here, and their clients sign in again.
ALTER TABLE oauth_codes ADD COLUMN key_id bigint REFERENCES api_keys (id) ON DELETE CASCADE;
ALTER TABLE oauth_grants ADD COLUMN key_id bigint REFERENCES api_keys (id) ON DELETE CASCADE;
CREATE INDEX oauth_grants_key ON oauth_grants (key_id) WHERE revoked_at IS NULL;

UPDATE oauth_grants SET revoked_at = extract(epoch FROM now())::bigint WHERE key_id IS NULL AND revoked_at IS NULL;
UPDATE api_keys SET revoked_at = extract(epoch FROM now())::bigint WHERE kind = 'oauth' AND revoked_at IS NULL;
