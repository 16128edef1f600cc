-- Who made a commit no session covered (issue 28.1): a person, whose
-- commit needs no session and is recorded as their work, or a coding agent
-- (beside its BYPASS). author is git's "Name <email>" of the commit, so the
-- team overview names people; via says how the hook decided. Commit ids,
-- never contents.
CREATE TABLE commit_actors (
	repo_id    INTEGER NOT NULL REFERENCES repositories (id),
	sha        TEXT NOT NULL,
	actor      TEXT NOT NULL,
	agent      TEXT NOT NULL DEFAULT '',
	kind       TEXT NOT NULL DEFAULT 'commit',
	author     TEXT NOT NULL DEFAULT '',
	via        TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	PRIMARY KEY (repo_id, sha)
) WITHOUT ROWID;
CREATE INDEX commit_actors_created ON commit_actors (created_at);
