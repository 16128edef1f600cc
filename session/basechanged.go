package session

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protect"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// MergeBaser is the optional part of a Repo that finds the merge base of
// two commits (gitrepo.Repo).
type MergeBaser interface {
	MergeBase(ctx context.Context, a, b string) (string, error)
}

// baseChangedNotice says, at a session's start, when the default branch
// as last fetched holds another protocol than the one the session starts
// under because the base changed it since this branch forked. verify in CI
// judges a session begun after a change reached the base by the base's
// protocol (verify/recheck.go), so the session would fail there; an honest
// agent on a stale branch learns it now, when merging is cheap, not after
// the work. "" when the remote-tracking ref is missing, holds the same
// protocol, or the branch changed the protocol itself (a person's change
// under review).
func (e *Engine) baseChangedNotice(ctx context.Context, repo Repo, spec *protocolspec.Spec, head string, remoteTips map[string]string) string {
	mb, ok := repo.(MergeBaser)
	if !ok || spec == nil || head == "" {
		return ""
	}
	def := e.Config.DefaultBranch
	if def == "" {
		d, err := repo.DefaultBranch(ctx)
		if err != nil || d == "" {
			return ""
		}
		def = d
	}
	ref := "refs/remotes/origin/" + def
	tip := remoteTips[ref]
	if tip == "" || tip == head {
		return ""
	}
	own := defaultProtocolPaths
	if e.Config.ProtocolPath != "" {
		own = []string{e.Config.ProtocolPath}
	}
	for _, p := range own {
		p = strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./")
		if path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || protect.Hash(repo.Root(), p) != spec.SHA256 {
			continue
		}
		there, err := repo.ReadAt(ctx, tip, p)
		if err != nil || sha256Hex(there) == spec.SHA256 {
			return ""
		}
		fork, err := mb.MergeBase(ctx, head, tip)
		if err != nil || fork == "" {
			return ""
		}
		if b, err := repo.ReadAt(ctx, fork, p); err != nil || sha256Hex(b) != spec.SHA256 {
			return "" // the branch changed the protocol itself
		}
		return fmt.Sprintf("%s (%s, as last fetched) changed %s since this branch forked at %s: verify in CI judges a session begun after the change by the protocol as changed, and fails this one; merge or rebase onto %s before the work, then start a new session",
			strings.TrimPrefix(ref, "refs/remotes/"), shorten.SHA(tip), p, shorten.SHA(fork), strings.TrimPrefix(ref, "refs/remotes/"))
	}
	return ""
}
