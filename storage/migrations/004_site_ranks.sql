-- Each site row carries its host's last two ranks, written when a run completes (and when the site
-- is added), so that the lists of sites, the hot read path, need no join over runs.
ALTER TABLE sites ADD COLUMN rank integer;
ALTER TABLE sites ADD COLUMN prev_rank integer;
ALTER TABLE sites ADD COLUMN label text;
ALTER TABLE sites ADD COLUMN last_run bigint;

UPDATE sites s SET rank = r.rank, label = r.label, last_run = r.checked_at,
  prev_rank = (SELECT p.rank FROM runs p WHERE p.host = s.host AND p.id < r.id ORDER BY p.id DESC LIMIT 1)
FROM (SELECT DISTINCT ON (host) id, host, rank, label, checked_at FROM runs ORDER BY host, id DESC) r
WHERE r.host = s.host;
