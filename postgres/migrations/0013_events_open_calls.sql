-- The agent hooks' reads of a turn's open tool calls (OpenCallEvents), as
-- SQLite's 0019: the call events alone, by token and detail. detail in
-- the "C" collation: the reads compare it as bytes (a call's reports are a
-- range of details), which a locale's collation does not.
CREATE INDEX events_calls ON events (session_id, token, detail COLLATE "C") WHERE token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged', 'agent:result', 'agent:unreported');
