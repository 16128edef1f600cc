package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// changedFilesAtEnd blocks the end while a binding phase behind the
// position passed a changed_since_start check on a change the end does
// not hold. The lazy-agent pass on the 2025-12-18 protocol (round 18)
// edited .agents/HANDOFF.md, passed DOCUMENTATION_UPDATE, then ran `git
// checkout -- .agents/HANDOFF.md` before committing: the session ended
// COMPLETE, clean, verify passing, and no handoff was ever written. The
// check is run again on the work tree (the revert above), and a file it
// names literally must differ at HEAD from the session's start once the
// session has committed (a change committed, then reverted by a later
// commit). A session with no commit is judged on its work tree only: a
// protocol that does not ask to commit may leave the change there. A
// passed no_placeholders is run again too: its file's claim of the
// session's work is judged on the files the end holds (helper 361).
func (e *Engine) changedFilesAtEnd(ctx context.Context, s *Session, ps []position, cur int) (*GateResult, *protocolspec.Phase, error) {
	var repo Repo
	for i := 0; i < cur && i < len(ps); i++ {
		p := ps[i].phase
		if p == nil || !p.Mandatory() {
			continue
		}
		for _, c := range p.Checks {
			// no_placeholders also reads the file as a claim of the
			// session's work (namesTheWork): helper 361 committed the work,
			// passed QA and HANDOFF ("scripts/greet.sh takes an optional
			// name"), then undid greet.sh in the work tree and committed
			// that with the handoff as `chore:`; the branch held only the
			// handoff and the end said COMPLETE, clean, verify passing.
			// Run again here, the claim is judged on what the end holds.
			if c.Kind != protocolspec.CheckChangedSinceStart && c.Kind != protocolspec.CheckNoPlaceholders {
				continue
			}
			if repo == nil {
				r, err := e.OpenRepo(ctx, s.Worktree)
				if err != nil {
					return nil, nil, err
				}
				repo = r
			}
			var continued *Session
			var continuedIDs []string
			if judgesWorkCheck(c) {
				var err error
				if continued, continuedIDs, err = e.continuedFrom(ctx, repo, s); err != nil {
					return nil, nil, err
				}
			}
			cr, _ := runCheck(ctx, gateEnv{goCache: e.toolchainCache(), repo: repo, sess: s, phase: p, cfg: e.Config, commitRecords: e.commitRecordsOf(s.ID), continued: continued, continuedIDs: continuedIDs, protocol: e.protocolText(ctx, s), atStart: e.startHiddenOf(s.ID), tipsAtStart: e.tipsAtStartOf(s.ID), parkedAtStart: e.parkedAtStartOf(s.ID), remotesAtStart: e.remotesAtStartOf(s.ID)}, c)
			if c.Kind == protocolspec.CheckChangedSinceStart && cr.Status == StatusPass && !strings.ContainsAny(c.Arg, "*?[") && s.StartCommit != "" {
				same, err := sameAtHead(ctx, repo, s.StartCommit, c.Arg)
				if err != nil {
					return nil, nil, fmt.Errorf("compare %s at HEAD with the session's start: %w", c.Arg, err)
				}
				if same {
					cr.Status = StatusFail
					cr.Message = fmt.Sprintf("%s is committed at HEAD as it was when the session started (%s): the change the gate saw is not in git; commit it", c.Arg, shortSHA(s.StartCommit))
				}
			}
			if cr.Status != StatusFail {
				continue
			}
			g := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusFail, Checks: []CheckResult{cr},
				Message: fmt.Sprintf("%s passed, but the change it saw is not there at the end: %s", p.ID, cr.Message)}
			return &g, p, nil
		}
	}
	return nil, nil, nil
}

// sameAtHead reports whether the session has committed (HEAD is not the
// start) and path's content at HEAD is the start's (both absent counts).
func sameAtHead(ctx context.Context, repo Repo, start, path string) (bool, error) {
	head, _, err := repo.Head(ctx)
	if err != nil || head == "" || head == start {
		return false, err
	}
	at, err := repo.SHA256sAt(ctx, head, []string{path})
	if err != nil {
		return false, err
	}
	was, err := repo.SHA256sAt(ctx, start, []string{path})
	if err != nil {
		return false, err
	}
	return at[path] == was[path], nil
}
