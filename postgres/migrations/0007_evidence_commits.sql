-- Which commits a session has recorded, asked on every commit, reads commit
-- evidence only (store/migrations/0010_evidence_commits.sql).
CREATE INDEX evidence_commits ON evidence (session_id, ref)
	WHERE kind IN ('commit_sha', 'bypass_commit') AND origin = 'observed';
