-- 0009: /team from counts per UTC day, repository and person kept by a
-- trigger, not from every session that ended in its four weeks (77,000 of
-- a 1,000,000-session year; a day has as many rows as pairs of repository
-- and person who ended a session then). As in 0004, the trigger only
-- appends delta rows (no counter row is a lock every import updates); the
-- store folds them into team_days as it reads (teamDaysFold).
-- day = ended_at / 86400000000000; person is the team's person key
-- (user_email, else user_name); compliant: COMPLETE without a violation.
CREATE TABLE team_days (
	day        BIGINT NOT NULL,
	repo_id    BIGINT NOT NULL,
	person     TEXT NOT NULL,
	ended      BIGINT NOT NULL,
	compliant  BIGINT NOT NULL,
	violations BIGINT NOT NULL,
	PRIMARY KEY (day, repo_id, person)
);
CREATE TABLE team_day_deltas (
	id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	day        BIGINT NOT NULL,
	repo_id    BIGINT NOT NULL,
	person     TEXT NOT NULL,
	ended      INTEGER NOT NULL,
	compliant  INTEGER NOT NULL,
	violations INTEGER NOT NULL
);
CREATE INDEX team_day_deltas_day ON team_day_deltas (day);
ALTER TABLE team_day_deltas SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
INSERT INTO team_days (day, repo_id, person, ended, compliant, violations)
	SELECT ended_at / 86400000000000, repo_id, CASE WHEN user_email <> '' THEN user_email ELSE user_name END,
		count(*), count(*) FILTER (WHERE state = 'COMPLETE' AND violation_count = 0), sum(violation_count)
	FROM sessions WHERE ended_at > 0 GROUP BY 1, 2, 3;

CREATE FUNCTION team_days_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD.ended_at > 0 THEN
		INSERT INTO team_day_deltas (day, repo_id, person, ended, compliant, violations)
		VALUES (OLD.ended_at / 86400000000000, OLD.repo_id, CASE WHEN OLD.user_email <> '' THEN OLD.user_email ELSE OLD.user_name END,
			-1, CASE WHEN OLD.state = 'COMPLETE' AND OLD.violation_count = 0 THEN -1 ELSE 0 END, -OLD.violation_count);
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.ended_at > 0 THEN
		INSERT INTO team_day_deltas (day, repo_id, person, ended, compliant, violations)
		VALUES (NEW.ended_at / 86400000000000, NEW.repo_id, CASE WHEN NEW.user_email <> '' THEN NEW.user_email ELSE NEW.user_name END,
			1, CASE WHEN NEW.state = 'COMPLETE' AND NEW.violation_count = 0 THEN 1 ELSE 0 END, NEW.violation_count);
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER sessions_team_days AFTER INSERT OR DELETE ON sessions
	FOR EACH ROW EXECUTE FUNCTION team_days_delta();
CREATE TRIGGER sessions_team_days_update AFTER UPDATE OF state, violation_count, ended_at, repo_id, user_email, user_name ON sessions
	FOR EACH ROW WHEN ((OLD.ended_at > 0 OR NEW.ended_at > 0) AND (OLD.state IS DISTINCT FROM NEW.state
		OR OLD.ended_at IS DISTINCT FROM NEW.ended_at OR OLD.violation_count IS DISTINCT FROM NEW.violation_count
		OR OLD.repo_id IS DISTINCT FROM NEW.repo_id OR OLD.user_email IS DISTINCT FROM NEW.user_email
		OR OLD.user_name IS DISTINCT FROM NEW.user_name))
	EXECUTE FUNCTION team_days_delta();
