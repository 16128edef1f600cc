-- An agent's own session id (Claude Code's session_id, Cursor's
-- conversation_id, Gemini CLI's session_id) bound to the sessiongate session
-- its lifecycle hooks act for. stop_blocks counts consecutive blocked stops;
-- turn_mark fingerprints the work tree when the agent's turn began, so a turn
-- that changed nothing is never blocked.
CREATE TABLE agent_bindings (
	agent         TEXT NOT NULL,
	agent_session TEXT NOT NULL,
	session_id    TEXT NOT NULL,
	worktree      TEXT NOT NULL,
	stop_blocks   INTEGER NOT NULL DEFAULT 0,
	turn_mark     TEXT NOT NULL DEFAULT '',
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL,
	PRIMARY KEY (agent, agent_session)
) WITHOUT ROWID;
CREATE INDEX agent_bindings_session ON agent_bindings(session_id);

-- When a shell tool started, by the agent's tool call id: the duration of an
-- observed command when the agent does not report one (Claude Code).
CREATE TABLE agent_tool_starts (
	agent      TEXT NOT NULL,
	tool_id    TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	PRIMARY KEY (agent, tool_id)
) WITHOUT ROWID;
