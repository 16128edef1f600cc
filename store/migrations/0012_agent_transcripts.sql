-- The transcript an agent CLI named in its hook payloads (Claude Code's and
-- Codex's transcript_path, Copilot's transcriptPath, Gemini CLI's
-- transcript_path), bound to the sessiongate session its hooks act for, and
-- how far it has been read: state is JSON {start, offset, prefix_sha256,
-- pending calls (references only), counts}. broken says why it is no longer
-- read (it shrank, or bytes already read changed).
CREATE TABLE agent_transcripts (
	session_id    TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	path          TEXT NOT NULL,
	agent         TEXT NOT NULL,
	agent_session TEXT NOT NULL,
	state         TEXT NOT NULL,
	broken        TEXT NOT NULL DEFAULT '',
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL,
	PRIMARY KEY (session_id, path)
) WITHOUT ROWID;
