-- 0017: a gated commit's change fingerprint (per path: modes and blob ids
-- before and after, gitrepo/changeprint.go) for commit_sha evidence; ''
-- otherwise and for commits recorded before. Records carry it, so verify
-- in CI passes a platform's rewrite of the commit (GitLab's rebase before
-- a fast-forward, a squash fast-forwarded): verify/rewrites.go. Blob ids
-- and paths, never content.
ALTER TABLE evidence ADD COLUMN change TEXT NOT NULL DEFAULT '';
