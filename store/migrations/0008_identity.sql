-- 0008: identity across clones (issue 13.3). A repository carries its
-- normalized origin URL; a session records who ran it and on which host.
-- Rows recorded before keep '' (unknown).
ALTER TABLE repositories ADD COLUMN origin TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN user_name TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN user_email TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN host TEXT NOT NULL DEFAULT '';
CREATE INDEX repositories_origin ON repositories (origin);
CREATE INDEX sessions_user_email_created ON sessions (user_email, created_at, id);
CREATE INDEX sessions_user_name_created ON sessions (user_name, created_at, id);
CREATE INDEX sessions_host_created ON sessions (host, created_at, id);
