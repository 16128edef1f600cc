-- The agent hooks' reads of a turn's open tool calls (OpenCallEvents), as
-- SQLite's 0019: the call events alone, by token and detail. detail in
-- the "C" collation: the reads compare it as bytes (a call's reports are a
-- range of details), which a locale's collation does not.
--
-- Not CONCURRENTLY: the migrator runs every pending migration and the
-- version bump in one transaction, where PostgreSQL refuses it, so this
-- build holds writes to events until it ends. A team with a large events
-- table builds the same index beforehand with CREATE INDEX CONCURRENTLY
-- (docs/team.md); it is then kept as it is. One a failed concurrent build
-- left invalid is built again here.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_index WHERE indexrelid = to_regclass('events_calls') AND NOT indisvalid) THEN
		DROP INDEX events_calls;
	END IF;
END $$;
CREATE INDEX IF NOT EXISTS events_calls ON events (session_id, token, detail COLLATE "C") WHERE token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged', 'agent:result', 'agent:unreported');
