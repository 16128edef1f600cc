-- Reconciliation and post-commit ask on every commit which commits a session
-- has recorded. A session with agent hooks gathers evidence for every shell
-- command, so through evidence_session that lookup read all of it, and each
-- commit cost more as the session went on. This index holds commit evidence
-- only; the queries name the same kinds and origin as literals.
CREATE INDEX evidence_commits ON evidence (session_id, ref)
	WHERE kind IN ('commit_sha', 'bypass_commit') AND origin = 'observed';
