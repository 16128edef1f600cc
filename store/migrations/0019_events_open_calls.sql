-- 0019: the agent hooks' reads of a turn's open tool calls (a new prompt
-- settles them, a normal Stop names the unreported ones: session
-- SettleUnreported, ToolResultsMissing) read every judged call and report
-- of the session through the primary key, on every prompt and stop. This
-- index holds the call events alone (judged calls, reports, settlements),
-- by token and detail ("<id> <tool> <digest>", "<agent> <id> [why]"), so a
-- call's reports are one search and only the calls still open are read
-- (store OpenCallEvents). Its condition is written as the queries' literal,
-- as SQLite needs for a partial index.
CREATE INDEX events_calls ON events (session_id, token, detail) WHERE token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged', 'agent:result', 'agent:unreported');
