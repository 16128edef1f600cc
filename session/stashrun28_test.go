package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestWorkingRunStashBeforeStart28 (round 28, c4; task item 2): a fix
// stashed before `session start`, then one line while working that pops
// it, runs the tests and stashes it again. The tree recorded after the
// line held the broken code the commit then carried: the run answered QA
// though the tests read the stash. Now such a line records no tree.
func TestWorkingRunStashBeforeStart28(t *testing.T) {
	for _, c := range []struct {
		line string
		tree bool
	}{
		{"git stash pop -q; python3 -m pytest -q; git stash -q", false},
		{"git stash apply -q && python3 -m pytest -q && git checkout -- .", false},
		{"python3 -m pytest -q", true},
		{"git stash -q; python3 -m pytest -q; git stash pop -q", true},
	} {
		t.Run(c.line, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			e.engine.Now = time.Now
			gittest.Commit(t, e.root, "before", map[string]string{"greet.py": "def greet(): return 'helo'\n", "test_greet.py": "from greet import greet\ndef test_g(): assert greet() == 'hello'\n"})
			gittest.Write(t, e.root, "greet.py", "def greet(): return 'hello'\n")
			gittest.Git(t, e.root, "stash", "-q")
			time.Sleep(20 * time.Millisecond)
			id := e.start("s")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README")
			e.advance(id)
			gittest.Write(t, e.root, "README.md", "# x\n")
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "codex", Command: c.line, Output: []byte("1 passed\n")})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ev.Ref, "saw tree"); got != c.tree {
				t.Errorf("ref %q: records a tree %v, want %v", ev.Ref, got, c.tree)
			}
		})
	}
}
