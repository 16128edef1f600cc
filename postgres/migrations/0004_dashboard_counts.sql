-- 0004: the overview's counts (sessions per state, sessions with a
-- violation, violations) without counting a million rows on each load.
-- Triggers only append delta rows: a counter row that every import
-- transaction updated would be a lock hot spot serializing (and
-- deadlocking) several index workers. The store folds the deltas into
-- dashboard_counts as it reads them, one folder at a time.
CREATE TABLE dashboard_counts (
	key TEXT PRIMARY KEY,
	n   BIGINT NOT NULL
);
CREATE TABLE dashboard_count_deltas (
	id  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	key TEXT NOT NULL,
	d   INTEGER NOT NULL
);
INSERT INTO dashboard_counts (key, n) SELECT 'state:' || state, count(*) FROM sessions GROUP BY state;
INSERT INTO dashboard_counts (key, n) SELECT 'with_violations', count(*) FROM sessions WHERE violation_count > 0;
INSERT INTO dashboard_counts (key, n) SELECT 'violations', count(*) FROM violations;

CREATE FUNCTION dashboard_sessions_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		INSERT INTO dashboard_count_deltas (key, d) VALUES ('state:' || OLD.state, -1);
		IF OLD.violation_count > 0 THEN
			INSERT INTO dashboard_count_deltas (key, d) VALUES ('with_violations', -1);
		END IF;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO dashboard_count_deltas (key, d) VALUES ('state:' || NEW.state, 1);
		IF NEW.violation_count > 0 THEN
			INSERT INTO dashboard_count_deltas (key, d) VALUES ('with_violations', 1);
		END IF;
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER sessions_dashboard_counts AFTER INSERT OR DELETE ON sessions
	FOR EACH ROW EXECUTE FUNCTION dashboard_sessions_delta();
CREATE TRIGGER sessions_dashboard_counts_update AFTER UPDATE OF state, violation_count ON sessions
	FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR (OLD.violation_count > 0) IS DISTINCT FROM (NEW.violation_count > 0))
	EXECUTE FUNCTION dashboard_sessions_delta();

CREATE FUNCTION dashboard_violations_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO dashboard_count_deltas (key, d) VALUES ('violations', CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END);
	RETURN NULL;
END $$;
CREATE TRIGGER violations_dashboard_counts AFTER INSERT OR DELETE ON violations
	FOR EACH ROW EXECUTE FUNCTION dashboard_violations_delta();
