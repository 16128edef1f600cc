-- 0011: a gated commit's change fingerprint, as SQLite's 0017
-- (gitrepo/changeprint.go, verify/rewrites.go).
ALTER TABLE evidence ADD COLUMN change TEXT NOT NULL DEFAULT '';
