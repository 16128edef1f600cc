-- 0005: the overview's chart (sessions ended, and ended compliant, per UTC
-- day) from the same deltas as 0004's counts: keys "ended:<day>" and
-- "compliant:<day>", day = ended_at / 86400000000000; compliant means
-- COMPLETE without a violation.
INSERT INTO dashboard_counts (key, n)
	SELECT 'ended:' || (ended_at / 86400000000000), count(*) FROM sessions WHERE ended_at > 0 GROUP BY 1;
INSERT INTO dashboard_counts (key, n)
	SELECT 'compliant:' || (ended_at / 86400000000000), count(*) FROM sessions
	WHERE ended_at > 0 AND state = 'COMPLETE' AND violation_count = 0 GROUP BY 1;

CREATE OR REPLACE FUNCTION dashboard_sessions_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		INSERT INTO dashboard_count_deltas (key, d) VALUES ('state:' || OLD.state, -1);
		IF OLD.violation_count > 0 THEN
			INSERT INTO dashboard_count_deltas (key, d) VALUES ('with_violations', -1);
		END IF;
		IF OLD.ended_at > 0 THEN
			INSERT INTO dashboard_count_deltas (key, d) VALUES ('ended:' || (OLD.ended_at / 86400000000000), -1);
			IF OLD.state = 'COMPLETE' AND OLD.violation_count = 0 THEN
				INSERT INTO dashboard_count_deltas (key, d) VALUES ('compliant:' || (OLD.ended_at / 86400000000000), -1);
			END IF;
		END IF;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO dashboard_count_deltas (key, d) VALUES ('state:' || NEW.state, 1);
		IF NEW.violation_count > 0 THEN
			INSERT INTO dashboard_count_deltas (key, d) VALUES ('with_violations', 1);
		END IF;
		IF NEW.ended_at > 0 THEN
			INSERT INTO dashboard_count_deltas (key, d) VALUES ('ended:' || (NEW.ended_at / 86400000000000), 1);
			IF NEW.state = 'COMPLETE' AND NEW.violation_count = 0 THEN
				INSERT INTO dashboard_count_deltas (key, d) VALUES ('compliant:' || (NEW.ended_at / 86400000000000), 1);
			END IF;
		END IF;
	END IF;
	RETURN NULL;
END $$;
DROP TRIGGER sessions_dashboard_counts_update ON sessions;
CREATE TRIGGER sessions_dashboard_counts_update AFTER UPDATE OF state, violation_count, ended_at ON sessions
	FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.ended_at IS DISTINCT FROM NEW.ended_at
		OR (OLD.violation_count > 0) IS DISTINCT FROM (NEW.violation_count > 0))
	EXECUTE FUNCTION dashboard_sessions_delta();
