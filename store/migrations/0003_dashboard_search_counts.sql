-- 0003: objective search and per-state counts for the dashboard.

-- A trigram index of session objectives, so "text search in objective" is an
-- index lookup instead of a LIKE scan of every session (60 ms at 100k). It
-- is an external-content table: the text lives only in sessions.objective.
CREATE VIRTUAL TABLE sessions_fts USING fts5 (objective, content = 'sessions', content_rowid = 'rowid', tokenize = 'trigram');
INSERT INTO sessions_fts (sessions_fts) VALUES ('rebuild');

CREATE TRIGGER sessions_fts_insert AFTER INSERT ON sessions BEGIN
	INSERT INTO sessions_fts (rowid, objective) VALUES (new.rowid, new.objective);
END;
CREATE TRIGGER sessions_fts_delete AFTER DELETE ON sessions BEGIN
	INSERT INTO sessions_fts (sessions_fts, rowid, objective) VALUES ('delete', old.rowid, old.objective);
END;
-- UpdateSession writes every column; reindex only when the text changed.
CREATE TRIGGER sessions_fts_update AFTER UPDATE OF objective ON sessions WHEN old.objective IS NOT new.objective BEGIN
	INSERT INTO sessions_fts (sessions_fts, rowid, objective) VALUES ('delete', old.rowid, old.objective);
	INSERT INTO sessions_fts (rowid, objective) VALUES (new.rowid, new.objective);
END;

-- Sessions per state, kept by triggers: the overview's counts and the
-- unfiltered total of /sessions without counting 100k index entries.
CREATE TABLE session_state_counts (
	state TEXT PRIMARY KEY,
	n     INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO session_state_counts (state, n) SELECT state, count(*) FROM sessions GROUP BY state;

CREATE TRIGGER sessions_count_insert AFTER INSERT ON sessions BEGIN
	INSERT INTO session_state_counts (state, n) VALUES (new.state, 1)
		ON CONFLICT (state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sessions_count_delete AFTER DELETE ON sessions BEGIN
	UPDATE session_state_counts SET n = n - 1 WHERE state = old.state;
END;
CREATE TRIGGER sessions_count_update AFTER UPDATE OF state ON sessions WHEN old.state IS NOT new.state BEGIN
	UPDATE session_state_counts SET n = n - 1 WHERE state = old.state;
	INSERT INTO session_state_counts (state, n) VALUES (new.state, 1)
		ON CONFLICT (state) DO UPDATE SET n = n + 1;
END;
