package session

import (
	"context"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/placeholder"
	"github.com/sessiongate/sessiongate/repopath"
	"slices"
	"sync"

	"github.com/sessiongate/sessiongate/internal/nearcopy"
	"github.com/sessiongate/sessiongate/internal/textfold"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// A file the session wrote is evidence of its work only when it is its
// work: not a file that still holds its template's placeholders, and not
// a near copy of an earlier session's file (the same text with ids, dates
// and session numbers changed). Checked when it is offered (file_path,
// content_hash), as the create/change gates check it (startCopy). A file
// older than the session is a reference (the handoff read) and is not
// judged here.
//
// The protocol's own text is set aside from both files before they are
// compared: an earlier handoff padded with it is still a copy.
func (e *Engine) writtenEvidence(ctx context.Context, s *Session, spec *protocolspec.Spec, phase, rel string, body []byte) error {
	if s.StartCommit == "" || e.OpenRepo == nil {
		return nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return fmt.Errorf("open repository: %w", err)
	}
	// Counted from where the session's work starts (startbound.go).
	if s, _, err = e.workStart(ctx, repo, s); err != nil {
		return err
	}
	changed, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return fmt.Errorf("list changed files: %w", err)
	}
	if !slices.Contains(changed, rel) {
		return nil
	}
	for _, p := range spec.Phases {
		if p.ID != phase {
			// Placeholders are judged for the phase that asks for the
			// file complete: a session log written at the start holds
			// its end half's placeholders until the end.
			continue
		}
		for _, c := range p.Checks {
			if c.Kind != protocolspec.CheckNoPlaceholders || !repopath.Match(c.Arg, rel) {
				continue
			}
			if found, line := placeholder.Find(string(textfold.Decode(body)), c.Placeholders); len(found) > 0 {
				return refusedf("%s:%d still holds the template placeholder %s: a file with its template's placeholders is not evidence; fill it in, then record it", rel, line, found[0])
			}
		}
	}
	of, err := repo.StartCopy(ctx, s.StartCommit, rel, e.protocolText(ctx, s)())
	if errors.Is(err, nearcopy.ErrTooLarge) {
		return refusedf("%s is not judged against the files of the start: %v: a file too large to compare is not evidence of this session's work; write this session's own", rel, err)
	}
	if err != nil {
		return fmt.Errorf("compare %s with the start: %w", rel, err)
	}
	if of != "" && of != rel {
		return refusedf("%s is a copy of %s as it was at the start (the same text, ids, dates and numbers aside): an earlier file is not evidence of this session's work; write this session's own", rel, of)
	}
	return nil
}

// protocolText returns a function that reads the session's protocol text
// once, on first call: only a file offered as written work needs it. ""
// when the store does not hold it.
func (e *Engine) protocolText(ctx context.Context, s *Session) func() string {
	return sync.OnceValue(func() string {
		if e.Store == nil || s == nil || s.ProtocolSHA == "" {
			return ""
		}
		p, err := e.Store.GetProtocol(ctx, s.ProtocolSHA)
		if err != nil {
			return ""
		}
		return string(p.Content)
	})
}
