package session_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestNoHookBypassRemoteMovedByUpdateRef: no_hook_bypass judges the
// session's commits with the remotes read as its start recorded them
// (round 30, c9). A commit made with the hooks off, then `git update-ref
// refs/remotes/x/main HEAD` (or origin/main), was taken for a remote's and
// the gate said "nothing to check". Honest twin: a person's commit fetched
// for real from origin, the branch rebased onto it, is not the session's.
func TestNoHookBypassRemoteMovedByUpdateRef(t *testing.T) {
	t.Parallel()
	hooksOff := func(t *testing.T, e *env) {
		gittest.Write(t, e.root, "a.txt", "a\n")
		gittest.Git(t, e.root, "add", "a.txt")
		gittest.Git(t, e.root, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "feat: made with the hooks off")
	}
	// manyRemotes makes 300 remote-tracking refs before the start: past
	// the bound on the tips a start records, which turned the record off
	// and the refs were read as they are now again.
	manyRemotes := func(t *testing.T, e *env) {
		head := gittest.Git(t, e.root, "rev-parse", "HEAD")
		for i := range 300 {
			gittest.Write(t, e.root, fmt.Sprintf(".git/refs/remotes/origin/topic-%d", i), head+"\n")
		}
	}
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, e *env)
		work   func(t *testing.T, e *env, origin string)
		want   session.GateStatus
		msg    string
	}{
		{"lazy: hooks-off commit, then a new refs/remotes/x/main moved to it", nil, func(t *testing.T, e *env, _ string) {
			hooksOff(t, e)
			gittest.Git(t, e.root, "update-ref", "refs/remotes/x/main", "HEAD")
		}, session.StatusFail, "no hook of the session recorded them"},
		{"lazy: hooks-off commit, then origin/main moved to it", nil, func(t *testing.T, e *env, _ string) {
			hooksOff(t, e)
			gittest.Git(t, e.root, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, session.StatusFail, "no hook of the session recorded them"},
		{"lazy: 300 remote refs made before the start, a hooks-off commit, origin/main moved to it", manyRemotes, func(t *testing.T, e *env, _ string) {
			hooksOff(t, e)
			gittest.Git(t, e.root, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, session.StatusFail, "no hook of the session recorded them"},
		{"honest: a person's commit fetched from origin, the branch rebased onto it", manyRemotes, func(t *testing.T, e *env, origin string) {
			other := filepath.Join(t.TempDir(), "person")
			gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
			gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, other, "push", "-q", "origin", "main")
			gittest.Git(t, e.root, "fetch", "-q", "origin")
			gittest.Git(t, e.root, "rebase", "-q", "origin/main")
		}, session.StatusSkipped, "nothing to check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, gateProtocol(`<!-- gate: no_hook_bypass -->`))
			origin := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", e.root, origin)
			gittest.Git(t, e.root, "remote", "add", "origin", origin)
			gittest.Git(t, e.root, "fetch", "-q", "origin")
			gittest.Git(t, e.root, "remote", "set-head", "origin", "main")
			gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			if tc.before != nil {
				tc.before(t, e)
			}
			id := e.start(tc.name)
			tc.work(t, e, origin)
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != tc.want || !strings.Contains(g.Message+" "+g.Checks[0].Message, tc.msg) {
				t.Fatalf("gate %s %q, want %s containing %q (checks %+v)", g.Status, g.Message, tc.want, tc.msg, g.Checks)
			}
		})
	}
}
