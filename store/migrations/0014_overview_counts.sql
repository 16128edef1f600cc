-- 0013: the overview's last two counts, kept by triggers like 0003's and
-- 0009's: sessions with a violation and violations. Counting them read
-- the partial index sessions_violated_created and the violations table
-- whole on every load (and every 10 s poll), which grew with the database.
CREATE TABLE overview_counts (
	key TEXT PRIMARY KEY,
	n   INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO overview_counts (key, n) SELECT 'with_violations', count(*) FROM sessions WHERE violation_count > 0;
INSERT INTO overview_counts (key, n) SELECT 'violations', count(*) FROM violations;

CREATE TRIGGER sessions_violated_insert AFTER INSERT ON sessions WHEN new.violation_count > 0 BEGIN
	UPDATE overview_counts SET n = n + 1 WHERE key = 'with_violations';
END;
CREATE TRIGGER sessions_violated_delete AFTER DELETE ON sessions WHEN old.violation_count > 0 BEGIN
	UPDATE overview_counts SET n = n - 1 WHERE key = 'with_violations';
END;
-- Only when the session crosses between none and some.
CREATE TRIGGER sessions_violated_update AFTER UPDATE OF violation_count ON sessions
	WHEN (old.violation_count > 0) IS NOT (new.violation_count > 0) BEGIN
	UPDATE overview_counts SET n = n + (CASE WHEN new.violation_count > 0 THEN 1 ELSE -1 END) WHERE key = 'with_violations';
END;
-- Deleting a session deletes its violations through the foreign key's
-- cascade, which fires these too.
CREATE TRIGGER violations_count_insert AFTER INSERT ON violations BEGIN
	UPDATE overview_counts SET n = n + 1 WHERE key = 'violations';
END;
CREATE TRIGGER violations_count_delete AFTER DELETE ON violations BEGIN
	UPDATE overview_counts SET n = n - 1 WHERE key = 'violations';
END;
