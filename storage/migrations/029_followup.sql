-- Follow-up (issue 18): when a task was last marked done (its fix's date for GET /effects and the
-- work history), and the owner's notes of a site's work history (POST /work/{host}/notes).
ALTER TABLE tasks ADD COLUMN done_at bigint;
-- Tasks done before this migration: their last status change is when they became done.
UPDATE tasks SET done_at = updated WHERE status = 'done';
CREATE INDEX tasks_done ON tasks (account_id, host, done_at DESC) WHERE status = 'done';

CREATE TABLE work_notes (
  id         bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  host       text NOT NULL,
  at         bigint NOT NULL,
  text       text NOT NULL
);
CREATE INDEX work_notes_site ON work_notes (account_id, host, at DESC);
