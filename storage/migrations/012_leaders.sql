-- Leadership of periodic work: one scheduler holds a named lease at a time, renewing it; when
-- it stops renewing (a crash, a partition), another takes over once until_ms has passed.
CREATE TABLE leaders (
  name     text PRIMARY KEY,
  holder   text NOT NULL,
  until_ms bigint NOT NULL
);
