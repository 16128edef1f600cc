package verify

import (
	"context"
	"errors"
	"fmt"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// source is where a run reads session records: the records ref when one is
// configured (refTip is its commit), and the tree at the range's tip for
// in-tree records (the only place without a ref; the fallback with one, for
// commits made before the move to the ref).
type source struct {
	repo     *gitrepo.Repo
	tip      string // the range's tip
	template string // in-tree record path template
	ref      string // records ref, "" when records are in the tree
	refTip   string
	// read holds the records preload read in one pass, by session id.
	read map[string]recordref.Result
	// rw judges commits the sessions never recorded as rewrites of ones
	// they did (rewrites.go).
	rw *rewrites
}

// preload reads the records of every session the commits name at once:
// two git processes for the range, not two per session.
func (s *source) preload(ctx context.Context, commits []gitrepo.Commit) error {
	if s.ref == "" || s.refTip == "" {
		return nil
	}
	var ids []string
	seen := map[string]bool{}
	for _, c := range commits {
		v := c.Trailers[TrailerSession]
		if len(v) == 0 {
			continue
		}
		id := v[len(v)-1]
		if !seen[id] && session.ValidateID(id) == nil {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	read, err := recordref.ReadMany(ctx, s.repo.Root(), s.refTip, ids)
	if err != nil {
		return err
	}
	s.read = read
	return nil
}

// MissingRefError is a records ref absent from this clone: CI checkouts
// fetch only the branch, so the job must fetch the ref too.
type MissingRefError struct{ Ref string }

func (e *MissingRefError) Error() string {
	return fmt.Sprintf("the records ref %s is not in this clone, so no session record can be checked: fetch it first with\n"+
		"  git fetch origin %s:%s\n"+
		"(in CI, a step after the checkout; docs/team.md shows it for GitHub Actions and GitLab CI). "+
		"If it is missing on the remote too, nobody has pushed records yet: a push from a clone with sessiongate's pre-push hook sends them", e.Ref, e.Ref, e.Ref)
}

// FetchCommand is the command that brings the ref into a CI clone.
func (e *MissingRefError) FetchCommand() string {
	return "git fetch origin " + e.Ref + ":" + e.Ref
}

func anyTrailer(commits []gitrepo.Commit) bool {
	for _, c := range commits {
		if len(c.Trailers[TrailerSession]) > 0 {
			return true
		}
	}
	return false
}

// load reads and checks the record of session id.
func (s source) load(ctx context.Context, id string) *recordCheck {
	if s.ref == "" {
		return loadTreeRecord(ctx, s.repo, s.tip, s.template, id)
	}
	if s.refTip == "" {
		return &recordCheck{path: s.ref, problems: []string{(&MissingRefError{Ref: s.ref}).Error()}}
	}
	var b []byte
	var p string
	var err error
	if r, ok := s.read[id]; ok {
		b, p, err = r.Body, r.Path, r.Err
	} else {
		b, p, err = recordref.Read(ctx, s.repo.Root(), s.refTip, id)
	}
	name := s.ref + ":" + p
	rc := &recordCheck{path: name}
	switch {
	case errors.Is(err, recordref.ErrNoRecord):
		if legacy := loadTreeRecord(ctx, s.repo, s.tip, s.template, id); legacy.ids != nil {
			return legacy
		}
		rc.problems = append(rc.problems, fmt.Sprintf("no session record for %s on %s (at %.12s) nor in the tree: the clone that ran the session has not pushed its records (its next git push does), or this clone's copy of %s is older than the push: fetch it again", id, s.ref, s.refTip, s.ref))
		return rc
	case errors.Is(err, recordref.ErrTooLarge):
		rc.problems = append(rc.problems, fmt.Sprintf("record %s skipped: %v", name, err))
		return rc
	case err != nil:
		rc.problems = append(rc.problems, fmt.Sprintf("record %s skipped: %v", name, err))
		return rc
	}
	rc = checkRecord(rc, b, id, s.identity(ctx))
	if rc.ids != nil {
		checkPins(ctx, s.repo.Root(), s.refTip, id, rc)
		checkHistory(ctx, s.repo.Root(), s.refTip, id, rc)
	}
	return rc
}

// identity is how a ref record is told to be this repository's: by the
// name in its snapshots' event_source (what every record carries), or,
// when that name differs (the remote was renamed, or this is a fork under
// another name), by its start commit being in this history: commit ids
// survive renames; a record from another project names a commit this
// history does not hold.
func (s source) identity(ctx context.Context) *identity {
	return &identity{
		eventSource: session.EventSource(s.repo.Name()),
		nameFrom:    s.repo.NameSource(),
		inHistory: func(sha string) bool {
			if !isHex(sha) || s.tip == "" {
				return false
			}
			ok, err := s.repo.IsAncestor(ctx, sha, s.tip)
			return err == nil && ok
		},
	}
}
