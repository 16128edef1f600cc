-- 0016: when a running `session end` began (nanoseconds; 0: none). Evidence
-- is refused while it is set and recent, so none lands while the end's
-- gates run (they would judge without it) and none is dated after
-- ended_at; the end clears it when it commits, is blocked or fails.
ALTER TABLE sessions ADD COLUMN ending_at INTEGER NOT NULL DEFAULT 0;
