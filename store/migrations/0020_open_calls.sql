-- 0020: the calls still open, counted as the call events are written. Every
-- prompt and Stop (OpenCallEvents) and every Copilot post asked which
-- judged calls have fewer reports than judgments; with events_calls alone
-- that was a grouped walk of every judged call of the session and two index
-- searches per call: 0.5 s at 100,000 events on a loaded machine, growing
-- with the session (BenchmarkOpenCallEvents). open_calls keeps, per
-- session, judged token and call id, the judgments minus the reports
-- ("<agent> <id>") and missing-settlements ("<agent> <id> missing") of the
-- agent whose judged token that is: what the walk computed, kept by the
-- triggers below, so the read is the rows with n > 0 (the open calls).
-- A row at 0 is deleted; one below 0 (a report of a call never judged,
-- rare) is kept, as the count it is: the read is one search of the primary
-- key by (session, token), and a closed call has no row.
CREATE TABLE open_calls (
	session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	token      TEXT NOT NULL,
	id         TEXT NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (session_id, token, id)
) WITHOUT ROWID;

CREATE TRIGGER open_calls_judged AFTER INSERT ON events
WHEN NEW.token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged')
	AND instr(NEW.detail, ' ') > 1
BEGIN
	INSERT INTO open_calls (session_id, token, id, n) VALUES (NEW.session_id, NEW.token, substr(NEW.detail, 1, instr(NEW.detail, ' ') - 1), 1)
		ON CONFLICT (session_id, token, id) DO UPDATE SET n = n + 1;
	DELETE FROM open_calls WHERE session_id = NEW.session_id AND token = NEW.token AND id = substr(NEW.detail, 1, instr(NEW.detail, ' ') - 1) AND n = 0;
END;

-- A report "<agent> <id>" or a missing-settlement "<agent> <id> missing" of
-- one of the five agents: the call id is the rest, without a space.
CREATE TRIGGER open_calls_closed AFTER INSERT ON events
WHEN (NEW.token = 'agent:result' OR NEW.token = 'agent:unreported' AND substr(NEW.detail, -8) = ' missing')
	AND substr(NEW.detail, 1, instr(NEW.detail, ' ') - 1) IN ('claude', 'codex', 'gemini', 'cursor', 'copilot')
	AND length(NEW.detail) > instr(NEW.detail, ' ') + CASE NEW.token WHEN 'agent:result' THEN 0 ELSE 8 END
	AND instr(substr(NEW.detail, instr(NEW.detail, ' ') + 1, length(NEW.detail) - instr(NEW.detail, ' ') - CASE NEW.token WHEN 'agent:result' THEN 0 ELSE 8 END), ' ') = 0
BEGIN
	INSERT INTO open_calls (session_id, token, id, n) VALUES (NEW.session_id,
		'agent:' || substr(NEW.detail, 1, instr(NEW.detail, ' ') - 1) || ':judged',
		substr(NEW.detail, instr(NEW.detail, ' ') + 1, length(NEW.detail) - instr(NEW.detail, ' ') - CASE NEW.token WHEN 'agent:result' THEN 0 ELSE 8 END), -1)
		ON CONFLICT (session_id, token, id) DO UPDATE SET n = n - 1;
	DELETE FROM open_calls WHERE session_id = NEW.session_id
		AND token = 'agent:' || substr(NEW.detail, 1, instr(NEW.detail, ' ') - 1) || ':judged'
		AND id = substr(NEW.detail, instr(NEW.detail, ' ') + 1, length(NEW.detail) - instr(NEW.detail, ' ') - CASE NEW.token WHEN 'agent:result' THEN 0 ELSE 8 END)
		AND n = 0;
END;

-- The sessions already stored: the same counts from their events.
INSERT INTO open_calls (session_id, token, id, n)
SELECT session_id, token, id, sum(d) FROM (
	SELECT session_id, token, substr(detail, 1, instr(detail, ' ') - 1) AS id, 1 AS d FROM events
	WHERE token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged')
		AND instr(detail, ' ') > 1
	UNION ALL
	SELECT session_id, 'agent:' || substr(detail, 1, instr(detail, ' ') - 1) || ':judged',
		substr(detail, instr(detail, ' ') + 1, length(detail) - instr(detail, ' ') - CASE token WHEN 'agent:result' THEN 0 ELSE 8 END), -1 FROM events
	WHERE (token = 'agent:result' OR token = 'agent:unreported' AND substr(detail, -8) = ' missing')
		AND substr(detail, 1, instr(detail, ' ') - 1) IN ('claude', 'codex', 'gemini', 'cursor', 'copilot')
		AND length(detail) > instr(detail, ' ') + CASE token WHEN 'agent:result' THEN 0 ELSE 8 END
		AND instr(substr(detail, instr(detail, ' ') + 1, length(detail) - instr(detail, ' ') - CASE token WHEN 'agent:result' THEN 0 ELSE 8 END), ' ') = 0
) GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
