package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

// GitLab's "rebase, then fast-forward" and a squash fast-forwarded land
// commits no session recorded, and CI's clone no longer holds the
// originals, so verify failed honest work. What git loses the record
// keeps: each gated commit's change fingerprint (gitrepo.ChangePrint: per
// path, modes and blob ids before and after), in the commit_sha evidence
// the snapshots hold, which the snapshot ids and the commits'
// Session-Snapshot trailers bind. verify/rewrites.go passes a rewrite
// whose fingerprint equals a recorded one. It is a function of the commit
// the record already names: it adds no trust the commit id did not have.

// changePrinter is what recording a fingerprint needs of a repository
// (gitrepo has it; a repository without it records none, and verify keeps
// failing the commit's rewrites).
type changePrinter interface {
	ChangePrint(ctx context.Context, commit string) (string, error)
}

// setChange fills ev's fingerprint for commit c: one git process. A
// failure records none (the commit is recorded all the same).
func (e *Engine) setChange(ctx context.Context, s *Session, repo Repo, ev *Evidence, c string) {
	cp, ok := repo.(changePrinter)
	if !ok || ev == nil || ev.Kind != EvidenceCommitSHA {
		return
	}
	p, err := cp.ChangePrint(ctx, c)
	if err != nil {
		e.Logger.Warn("record the commit's change fingerprint", "session", s.ID, "commit", shortSHA(c), "err", err)
		return
	}
	ev.Change = p
}

// parentLine is the first line of a fingerprint (gitrepo.ChangePrint)
// alone: a commit's place in its session's run (the record sorts its
// evidence by hash), for a commit whose change may vouch for nothing.
func parentLine(parent string) string {
	if parent == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(parent))
	return "parent " + hex.EncodeToString(sum[:])
}
