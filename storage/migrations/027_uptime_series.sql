-- Raw uptime probes move behind the UptimeSeries port (ClickHouse in the distributed mode): the
-- state machine no longer learns of a duplicate result from the raw insert, so each target keeps
-- the last result it applied, as slot × 2 + confirm. A result at or before it (a redelivery, or a
-- late result of an earlier slot) is stored in the series but moves no state.
ALTER TABLE uptime_targets ADD COLUMN last_ordinal bigint NOT NULL DEFAULT -1;
UPDATE uptime_targets t SET last_ordinal = coalesce((SELECT max(p.slot * 2 + CASE WHEN p.confirm THEN 1 ELSE 0 END) FROM uptime_probes p WHERE p.host = t.host), -1);
