-- 0001: the initial schema.
-- Times are INTEGER unix nanoseconds, 0 for the zero time. Indexes are
-- ascending; SQLite scans them backwards for ORDER BY created_at DESC, id DESC.

CREATE TABLE repositories (
	id   INTEGER PRIMARY KEY,
	root TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL DEFAULT ''
);

CREATE TABLE protocols (
	sha256     TEXT PRIMARY KEY,
	name       TEXT NOT NULL DEFAULT '',
	content    BLOB NOT NULL,
	spec_json  BLOB,
	created_at INTEGER NOT NULL
);

-- protocol_sha256 is not a foreign key: a session pins the hash it started
-- with even if the protocol bytes were never stored.
-- violation_count is maintained by AddViolation so "has violations" is a
-- column test, not a join, at 100k sessions.
CREATE TABLE sessions (
	id               TEXT PRIMARY KEY,
	repo_id          INTEGER NOT NULL REFERENCES repositories (id),
	worktree         TEXT NOT NULL,
	branch           TEXT NOT NULL DEFAULT '',
	start_commit     TEXT NOT NULL DEFAULT '',
	end_commit       TEXT NOT NULL DEFAULT '',
	protocol_sha256  TEXT NOT NULL DEFAULT '',
	objective        TEXT NOT NULL DEFAULT '',
	state            TEXT NOT NULL,
	phase            TEXT NOT NULL DEFAULT '',
	created_at       INTEGER NOT NULL,
	last_activity    INTEGER NOT NULL DEFAULT 0,
	expires_at       INTEGER NOT NULL DEFAULT 0,
	ended_at         INTEGER NOT NULL DEFAULT 0,
	terminated       INTEGER NOT NULL DEFAULT 0 CHECK (terminated IN (0, 1)),
	terminate_reason TEXT NOT NULL DEFAULT '',
	summary          TEXT NOT NULL DEFAULT '',
	next_notes       TEXT NOT NULL DEFAULT '',
	violation_count  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_created ON sessions (created_at, id);
CREATE INDEX sessions_state_created ON sessions (state, created_at, id);
CREATE INDEX sessions_repo_created ON sessions (repo_id, created_at, id);
CREATE INDEX sessions_worktree_state ON sessions (repo_id, worktree, state, created_at);
CREATE INDEX sessions_branch_created ON sessions (branch, created_at, id);
CREATE INDEX sessions_repo_ended ON sessions (repo_id, ended_at, id) WHERE ended_at > 0;
CREATE INDEX sessions_violated_created ON sessions (created_at, id) WHERE violation_count > 0;

CREATE TABLE phase_results (
	session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	phase_id    TEXT NOT NULL,
	status      TEXT NOT NULL DEFAULT '',
	level       TEXT NOT NULL DEFAULT '',
	message     TEXT NOT NULL DEFAULT '',
	decision    TEXT NOT NULL DEFAULT '',
	checks_json TEXT,
	started_at  INTEGER NOT NULL DEFAULT 0,
	ended_at    INTEGER NOT NULL DEFAULT 0,
	duration_ns INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (session_id, phase_id)
);

-- body is NULL unless the configuration opts in to raw bodies.
CREATE TABLE evidence (
	id         INTEGER PRIMARY KEY,
	session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	phase      TEXT NOT NULL DEFAULT '',
	step       TEXT NOT NULL DEFAULT '',
	kind       TEXT NOT NULL,
	sha256     TEXT NOT NULL DEFAULT '',
	ref        TEXT NOT NULL DEFAULT '',
	size       INTEGER NOT NULL DEFAULT 0,
	body       BLOB,
	created_at INTEGER NOT NULL
);
CREATE INDEX evidence_session ON evidence (session_id, id);

-- Clustered on (session_id, seq): per-session reads and max(seq) are one
-- b-tree range.
CREATE TABLE events (
	session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	token      TEXT NOT NULL,
	detail     TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

-- session_id and repo_id are NULL for a violation outside any session
-- (e.g. a hook bypass with no session running).
CREATE TABLE violations (
	id           INTEGER PRIMARY KEY,
	session_id   TEXT REFERENCES sessions (id) ON DELETE CASCADE,
	repo_id      INTEGER REFERENCES repositories (id),
	phase        TEXT NOT NULL DEFAULT '',
	requirement  TEXT NOT NULL DEFAULT '',
	severity     TEXT NOT NULL,
	code         TEXT NOT NULL DEFAULT '',
	message      TEXT NOT NULL DEFAULT '',
	state_window TEXT NOT NULL DEFAULT '',
	decay_runs   INTEGER NOT NULL DEFAULT 0,
	created_at   INTEGER NOT NULL
);
CREATE INDEX violations_created ON violations (created_at);
CREATE INDEX violations_severity_created ON violations (severity, created_at);
CREATE INDEX violations_session ON violations (session_id, created_at);
CREATE INDEX violations_repo_created ON violations (repo_id, created_at);

CREATE TABLE snapshots (
	session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,
	snapshot_id TEXT NOT NULL,
	payload     BLOB NOT NULL,
	created_at  INTEGER NOT NULL,
	PRIMARY KEY (session_id, seq)
);
