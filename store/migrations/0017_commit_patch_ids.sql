-- 0017: a recorded commit's exact patch id (git patch-id --verbatim) and
-- that of the change from the session's start commit to it, for
-- commit_sha evidence ('' otherwise, and for commits recorded before).
-- Records carry them, so verify in CI passes a platform's rewrite of the
-- commit (GitLab's rebase before a fast-forward, a squash) whose change
-- equals a recorded one: session/patchid.go. Hashes of a diff, never it.
ALTER TABLE evidence ADD COLUMN patch_id TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN span_patch_id TEXT NOT NULL DEFAULT '';
