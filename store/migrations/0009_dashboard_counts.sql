-- 0009: counts the dashboard shows, kept by triggers so its pages cost the
-- same at 1,000 and 1,000,000 sessions.

-- Ended and compliant sessions per UTC day: the overview's chart reads at
-- most a month of rows instead of grouping every session that ended in it.
-- day is ended_at / 86400000000000 (ended_at is in nanoseconds); a session
-- is compliant when it COMPLETEd without violations.
CREATE TABLE session_day_counts (
	day       INTEGER PRIMARY KEY,
	ended     INTEGER NOT NULL,
	compliant INTEGER NOT NULL
);
INSERT INTO session_day_counts (day, ended, compliant)
	SELECT ended_at / 86400000000000, count(*), sum(state = 'COMPLETE' AND violation_count = 0)
	FROM sessions WHERE ended_at > 0 GROUP BY 1;

CREATE TRIGGER sessions_day_insert AFTER INSERT ON sessions WHEN new.ended_at > 0 BEGIN
	INSERT INTO session_day_counts (day, ended, compliant)
		VALUES (new.ended_at / 86400000000000, 1, new.state = 'COMPLETE' AND new.violation_count = 0)
		ON CONFLICT (day) DO UPDATE SET ended = ended + 1, compliant = compliant + excluded.compliant;
END;
CREATE TRIGGER sessions_day_delete AFTER DELETE ON sessions WHEN old.ended_at > 0 BEGIN
	UPDATE session_day_counts SET ended = ended - 1, compliant = compliant - (old.state = 'COMPLETE' AND old.violation_count = 0)
		WHERE day = old.ended_at / 86400000000000;
END;
-- UpdateSession writes every column; count again only when what counts changed.
CREATE TRIGGER sessions_day_update AFTER UPDATE OF ended_at, state, violation_count ON sessions
	WHEN old.ended_at IS NOT new.ended_at OR old.state IS NOT new.state OR old.violation_count IS NOT new.violation_count BEGIN
	UPDATE session_day_counts SET ended = ended - 1, compliant = compliant - (old.state = 'COMPLETE' AND old.violation_count = 0)
		WHERE old.ended_at > 0 AND day = old.ended_at / 86400000000000;
	INSERT INTO session_day_counts (day, ended, compliant)
		SELECT new.ended_at / 86400000000000, 1, new.state = 'COMPLETE' AND new.violation_count = 0 WHERE new.ended_at > 0
		ON CONFLICT (day) DO UPDATE SET ended = ended + 1, compliant = compliant + excluded.compliant;
END;

-- Sessions per protocol version, for /protocol (a count per version grew
-- with sessions).
CREATE TABLE protocol_session_counts (
	sha256 TEXT PRIMARY KEY,
	n      INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO protocol_session_counts (sha256, n) SELECT protocol_sha256, count(*) FROM sessions GROUP BY 1;

CREATE TRIGGER sessions_protocol_insert AFTER INSERT ON sessions BEGIN
	INSERT INTO protocol_session_counts (sha256, n) VALUES (new.protocol_sha256, 1)
		ON CONFLICT (sha256) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sessions_protocol_delete AFTER DELETE ON sessions BEGIN
	UPDATE protocol_session_counts SET n = n - 1 WHERE sha256 = old.protocol_sha256;
END;
CREATE TRIGGER sessions_protocol_update AFTER UPDATE OF protocol_sha256 ON sessions
	WHEN old.protocol_sha256 IS NOT new.protocol_sha256 BEGIN
	UPDATE protocol_session_counts SET n = n - 1 WHERE sha256 = old.protocol_sha256;
	INSERT INTO protocol_session_counts (sha256, n) VALUES (new.protocol_sha256, 1)
		ON CONFLICT (sha256) DO UPDATE SET n = n + 1;
END;
