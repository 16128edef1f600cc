package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestSparseCheckoutMadeInSession: a sparse checkout is an exemption from
// "a protected file was deleted" only when a person set it up before the
// session. An agent that turns one on in the session, without `git
// sparse-checkout` (which the hooks deny): `git config
// core.sparseCheckout true`, the pattern file written by a script, `git
// read-tree -mu HEAD`, takes .claude/settings.json (its hooks) out of the
// work tree; on c4's first rule nothing stopped the session's gates
// (round 25 review). Honest twin: the same patterns set before the
// session start and pass.
func TestSparseCheckoutMadeInSession(t *testing.T) {
	requireGit(t)
	const settings = ".claude/settings.json"
	sparse := func(t *testing.T, root string) {
		gittest.Git(t, root, "config", "core.sparseCheckout", "true")
		if err := os.WriteFile(filepath.Join(root, ".git", "info", "sparse-checkout"), []byte("/*\n!/.claude/\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, root, "read-tree", "-mu", "HEAD")
		if _, err := os.Stat(filepath.Join(root, settings)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the sparse checkout left %s in the work tree (%v)", settings, err)
		}
	}
	for _, c := range []struct {
		name   string
		before bool // set up before the session started
	}{
		{"lazy: turned on in the session", false},
		{"honest: set up before the session", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			e.engine.Config.Protect = true
			ctx := context.Background()
			gittest.Commit(t, e.root, "project", map[string]string{"SESSION-PROTOCOL.md": flowProtocol,
				settings: "{\"hooks\":{\"PreToolUse\":[]}}\n", "src/code.go": "package src\n"})
			if _, err := e.engine.ProtectedChanges(ctx, e.repo); err != nil { // first use trusts the commit
				t.Fatal(err)
			}
			if c.before {
				sparse(t, e.root)
			}
			// The session's start is read against the pattern file's
			// change time: the real clock, not the env's fixed one.
			time.Sleep(20 * time.Millisecond)
			e.now = time.Now()
			time.Sleep(20 * time.Millisecond)
			res, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "x"})
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			if !c.before {
				sparse(t, e.root)
			}
			_, err = e.engine.Advance(ctx, session.AdvanceRequest{ID: res.SessionID})
			refused := errors.Is(err, session.ErrProtectedChanged)
			if c.before && refused {
				t.Fatalf("honest: advance refused as a protected change: %v", err)
			}
			if !c.before && (!refused || !strings.Contains(err.Error(), settings)) {
				t.Fatalf("lazy: advance got %v, want a protected change naming %s", err, settings)
			}
		})
	}
}
