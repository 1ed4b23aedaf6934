-- The event feed's filters by site (GET /events?host=, GET /site/{host}) walk this index; the
-- account-wide feed keeps events_account.
CREATE INDEX events_account_host ON events (account_id, host, id);
