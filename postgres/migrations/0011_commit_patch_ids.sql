-- 0011: a recorded commit's exact patch id and that of the change from the
-- session's start commit to it, as SQLite's 0017 (session/patchid.go).
ALTER TABLE evidence ADD COLUMN patch_id TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN span_patch_id TEXT NOT NULL DEFAULT '';
