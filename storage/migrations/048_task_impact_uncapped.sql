-- A task's gain with every rank cap lifted (issue 33, real-sites.md R7). Under a cap (no HTTPS on a
-- loopback site, say) nearly every task's impact is 0, and /plan could not tell a broken link from
-- a missing security.txt; it orders tasks of equal impact by this. Tasks written before it have
-- none (NULL): their impact stands in.
ALTER TABLE tasks ADD COLUMN impact_uncapped double precision;
