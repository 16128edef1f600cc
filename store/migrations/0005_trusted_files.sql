-- 0005: accepted contents of protected files (issue 17.4).
-- One row per (path, content) a person accepted, or that was found when the
-- repository was first protected. sha256 is '' for "the file is absent".
-- Rows are never updated: the table is the history of who accepted what.
CREATE TABLE trusted_files (
	id         INTEGER PRIMARY KEY,
	repo_id    INTEGER NOT NULL REFERENCES repositories (id),
	path       TEXT NOT NULL,
	sha256     TEXT NOT NULL DEFAULT '',
	source     TEXT NOT NULL,
	who        TEXT NOT NULL DEFAULT '',
	reason     TEXT NOT NULL DEFAULT '',
	via        TEXT NOT NULL DEFAULT '',
	session_id TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
CREATE INDEX trusted_files_repo_path ON trusted_files (repo_id, path, sha256);
