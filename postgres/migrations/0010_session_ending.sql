-- 0010: when a running `session end` began (nanoseconds; 0: none), as
-- SQLite's 0016: evidence is refused while it is set and recent.
ALTER TABLE sessions ADD COLUMN ending_at BIGINT NOT NULL DEFAULT 0;
