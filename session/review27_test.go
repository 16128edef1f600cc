package session_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestObservedRunShellShadowsReview27 (round 27, review c10): a lazy
// agent's one shell call that makes `pytest` something else before it
// runs: an alias (expand_aliases on, defined a line before), a function,
// an `alias` through `eval`. None of them may count as a test run of the
// suite; the plain run does. (A helper `t() { pytest -q; }; t` was already
// not counted before this review: the exit is the whole line's.)
func TestObservedRunShellShadowsReview27(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, cmd string
		counts    bool
	}{
		{"lazy: alias pytest to echo, expand_aliases on", "shopt -s expand_aliases\nalias pytest='echo 1 passed'\npytest -q", false},
		{"lazy: a function named pytest", "pytest() { echo '1 passed'; }\npytest -q", false},
		{"lazy: the alias through eval", "shopt -s expand_aliases; eval \"alias pytest='echo 1 passed'\"\npytest -q", false},
		{"lazy: a function named python3", "python3() { echo '1 passed'; }\npython3 -m pytest -q", false},
		{"honest: the plain run", "python3 -m pytest -q", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, earlyProtocol)
			id := e.start("shadows")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: pytest")
			e.advance(id) // WORKING
			e.advance(id) // QA_VALIDATION
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: c.cmd, Output: []byte("1 passed in 0.01s\n")})
			if err != nil {
				t.Fatal(err)
			}
			counted := ev.ExitCode != nil && *ev.ExitCode == 0
			if counted != c.counts {
				t.Fatalf("counted %v (%s), want %v", counted, ev.Ref, c.counts)
			}
		})
	}
}
