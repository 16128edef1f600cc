-- 0002: the team index (sessiongate index / serve --index): per source, the
-- records-ref commit indexed up to, and per session the record blob last
-- imported, so re-indexing writes nothing and a restart resumes after the
-- last committed batch (each batch and its tip commit together).
CREATE TABLE index_sources (
	source     TEXT PRIMARY KEY,
	tip        TEXT NOT NULL,
	updated_at BIGINT NOT NULL
);

CREATE TABLE index_records (
	session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
	source     TEXT NOT NULL,
	blob       TEXT NOT NULL
);
