-- The calls still open, counted as the call events are written, as SQLite's
-- 0020: per session, judged token and call id, the judgments minus the
-- reports ("<agent> <id>") and missing-settlements ("<agent> <id>
-- missing") of the agent whose judged token that is. OpenCallEvents reads
-- the rows with n > 0 instead of walking every judged call of the session
-- and probing its reports (BenchmarkOpenCallEvents). A row at 0 is
-- deleted; one below 0 (a report of a call never judged) is kept.
CREATE TABLE open_calls (
	session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	token      TEXT NOT NULL,
	id         TEXT NOT NULL,
	n          BIGINT NOT NULL,
	PRIMARY KEY (session_id, token, id)
);

CREATE FUNCTION open_calls_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	tok  text;
	cid  text;
	d    bigint;
	rest text;
BEGIN
	IF NEW.token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged') THEN
		IF position(' ' in NEW.detail) <= 1 THEN
			RETURN NULL;
		END IF;
		tok := NEW.token;
		cid := split_part(NEW.detail, ' ', 1);
		d := 1;
	ELSIF NEW.token = 'agent:result' OR NEW.token = 'agent:unreported' AND right(NEW.detail, 8) = ' missing' THEN
		IF position(' ' in NEW.detail) = 0 OR split_part(NEW.detail, ' ', 1) NOT IN ('claude', 'codex', 'gemini', 'cursor', 'copilot') THEN
			RETURN NULL;
		END IF;
		rest := substr(NEW.detail, position(' ' in NEW.detail) + 1);
		IF NEW.token = 'agent:unreported' THEN
			IF length(rest) <= 8 THEN
				RETURN NULL;
			END IF;
			rest := left(rest, length(rest) - 8);
		END IF;
		IF rest = '' OR position(' ' in rest) > 0 THEN
			RETURN NULL;
		END IF;
		tok := 'agent:' || split_part(NEW.detail, ' ', 1) || ':judged';
		cid := rest;
		d := -1;
	ELSE
		RETURN NULL;
	END IF;
	INSERT INTO open_calls AS o (session_id, token, id, n) VALUES (NEW.session_id, tok, cid, d)
		ON CONFLICT (session_id, token, id) DO UPDATE SET n = o.n + d;
	DELETE FROM open_calls WHERE session_id = NEW.session_id AND token = tok AND id = cid AND n = 0;
	RETURN NULL;
END $$;

CREATE TRIGGER open_calls_count AFTER INSERT ON events FOR EACH ROW
	WHEN (NEW.token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged', 'agent:result', 'agent:unreported'))
	EXECUTE FUNCTION open_calls_count();

-- The sessions already stored: the same counts from their events.
INSERT INTO open_calls (session_id, token, id, n)
SELECT session_id, tok, cid, sum(d) FROM (
	SELECT session_id, token AS tok, split_part(detail, ' ', 1) AS cid, 1 AS d FROM events
	WHERE token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged')
		AND position(' ' in detail) > 1
	UNION ALL
	SELECT session_id, 'agent:' || split_part(detail, ' ', 1) || ':judged',
		CASE WHEN token = 'agent:result' THEN substr(detail, position(' ' in detail) + 1)
			ELSE left(substr(detail, position(' ' in detail) + 1), length(detail) - position(' ' in detail) - 8) END, -1 FROM events
	WHERE (token = 'agent:result' OR token = 'agent:unreported' AND right(detail, 8) = ' missing' AND length(detail) > position(' ' in detail) + 8)
		AND position(' ' in detail) > 0 AND split_part(detail, ' ', 1) IN ('claude', 'codex', 'gemini', 'cursor', 'copilot')
) x WHERE cid <> '' AND position(' ' in cid) = 0
GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
