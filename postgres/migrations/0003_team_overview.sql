-- 0003: the team overview (/team) reads the sessions that ended in its four
-- weeks from this index alone (an index-only scan), not from the table.
CREATE INDEX sessions_ended_team ON sessions (ended_at)
	INCLUDE (repo_id, state, violation_count, user_email, user_name) WHERE ended_at > 0;
