-- 0002: indexes for the dashboard's filters and aggregates.

-- The worktree filter of /sessions without a repository (0001's
-- sessions_worktree_state leads with repo_id).
CREATE INDEX sessions_worktree_created ON sessions (worktree, created_at, id);

-- Compliance per day: a covering range over ended sessions, so the overview
-- never reads the sessions table itself.
CREATE INDEX sessions_ended_compliance ON sessions (ended_at, state, violation_count) WHERE ended_at > 0;

-- Violation filters by code and by phase, newest first.
CREATE INDEX violations_code_created ON violations (code, created_at);
CREATE INDEX violations_phase_created ON violations (phase, created_at);

-- The protocol view counts the sessions that pinned each stored version.
CREATE INDEX sessions_protocol ON sessions (protocol_sha256);
