-- An import writes its facts in bounded transactions (issue 19): its batch row is written first,
-- incomplete, and marked complete by the final commit. Readers name complete batches only, so the
-- facts of an import in flight stay invisible; an import that fails removes its batch and facts,
-- and the gateway's sweeper removes those of a process that died (docs/search-data.md).
ALTER TABLE import_batches ADD COLUMN complete boolean NOT NULL DEFAULT true;
CREATE INDEX import_batches_incomplete ON import_batches (imported_at) WHERE NOT complete;
