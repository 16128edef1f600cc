package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestFirstUseTrustsCommitted: trust on first use takes the protocol as
// committed, never as the work tree has it: an agent that replaces (or
// stages, or deletes) the committed protocol before the first session gets
// a refused start, not its version trusted, until a person accepts it. A protocol HEAD does not have (init before the first commit) is
// trusted as found.
func TestFirstUseTrustsCommitted(t *testing.T) {
	const weak = "# P\n\n## Session Start\n\n### Phase 1: Nothing (OPTIONAL)\n\nThe agent MAY look.\n"
	cases := []struct {
		name    string
		commit  bool         // the protocol is committed before the change
		change  func(e *env) // what happens before the first start
		refused string       // "" when the start goes through
	}{
		{"committed, unchanged", true, func(*env) {}, ""},
		{"committed, replaced in the work tree", true, func(e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
		}, "SESSION-PROTOCOL.md changed"},
		{"committed, replacement staged and hidden", true, func(e *env) {
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", weak)
			gittest.Git(t, e.root, "add", "SESSION-PROTOCOL.md")
			gittest.Write(t, e.root, "SESSION-PROTOCOL.md", flowProtocol)
		}, "SESSION-PROTOCOL.md (staged) changed"},
		{"committed, deleted", true, func(e *env) {
			if err := os.Remove(filepath.Join(e.root, "SESSION-PROTOCOL.md")); err != nil {
				t.Fatal(err)
			}
		}, "SESSION-PROTOCOL.md was deleted"},
		{"never committed", false, func(*env) {}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			e.engine.Config.Protect = true
			ctx := context.Background()
			if c.commit {
				gittest.Commit(t, e.root, "protocol", map[string]string{"SESSION-PROTOCOL.md": flowProtocol})
			} else {
				gittest.Write(t, e.root, "SESSION-PROTOCOL.md", flowProtocol)
			}
			c.change(e)
			_, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "x"})
			if c.refused == "" {
				if err != nil {
					t.Fatalf("start refused: %v", err)
				}
				return
			}
			if !errors.Is(err, session.ErrProtectedChanged) || !strings.Contains(err.Error(), c.refused) {
				t.Fatalf("start: got %v, want a refusal naming %q", err, c.refused)
			}
			// A person accepts what is there now; nothing is left to refuse.
			if _, err := e.engine.AcceptProtected(ctx, session.AcceptRequest{Repo: e.repo, Who: "A Person", Reason: "reviewed", Via: "terminal"}); err != nil {
				t.Fatal(err)
			}
			if left, err := e.engine.ProtectedChanges(ctx, e.repo); err != nil || len(left) != 0 {
				t.Fatalf("after accept: %v %v", left, err)
			}
		})
	}
}
