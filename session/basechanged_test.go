package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestStartNoticesBaseProtocolChange: a session started on a branch
// forked before a protocol change on the default branch (as last fetched)
// is told at its start that verify will judge it by the changed protocol
// (verify/recheck.go fails a session begun after the change reached the
// base). No notice when the branch is up to date, when it changed the
// protocol itself (a person's change under review), or without a fetched
// default branch.
func TestStartNoticesBaseProtocolChange(t *testing.T) {
	t.Parallel()
	oldP := gateProtocol(`<!-- gate: evidence manual -->`)
	newP := oldP + "\nKeep commits small.\n"
	for _, tc := range []struct {
		name   string
		spec   string
		set    func(t *testing.T, e *env)
		notice bool
	}{
		{"stale branch: main changed the protocol since the fork", oldP, func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat")
			gittest.Git(t, e.root, "switch", "-q", "main")
			gittest.Commit(t, e.root, "docs: protocol", map[string]string{"SESSION-PROTOCOL.md": newP})
			gittest.Git(t, e.root, "update-ref", "refs/remotes/origin/main", "main")
			gittest.Git(t, e.root, "switch", "-q", "feat")
		}, true},
		{"up to date: origin/main is the fork point", oldP, func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "update-ref", "refs/remotes/origin/main", "main")
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat")
			gittest.Commit(t, e.root, "feat: work", map[string]string{"a.txt": "a\n"})
		}, false},
		{"the branch changed the protocol itself", newP, func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "update-ref", "refs/remotes/origin/main", "main")
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat")
			gittest.Commit(t, e.root, "docs: protocol", map[string]string{"SESSION-PROTOCOL.md": newP})
		}, false},
		{"no fetched default branch", oldP, func(t *testing.T, e *env) {
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat")
			gittest.Git(t, e.root, "switch", "-q", "main")
			gittest.Commit(t, e.root, "docs: protocol", map[string]string{"SESSION-PROTOCOL.md": newP})
			gittest.Git(t, e.root, "switch", "-q", "feat")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tc.spec)
			gittest.Git(t, e.root, "branch", "-M", "main")
			gittest.Commit(t, e.root, "docs: protocol", map[string]string{"SESSION-PROTOCOL.md": oldP})
			tc.set(t, e)
			res, err := e.engine.Start(context.Background(), session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: tc.name})
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(res.Notices, "\n")
			if tc.notice != strings.Contains(got, "origin/main") || tc.notice != strings.Contains(got, "changed SESSION-PROTOCOL.md since this branch forked") {
				t.Fatalf("notices = %q, want a notice: %v", got, tc.notice)
			}
		})
	}
}
