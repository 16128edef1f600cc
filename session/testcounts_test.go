package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestObservedRunCounts: a test run's reference keeps the pass counts its
// output reported; a line that runs no tests (echo) keeps none, so
// `echo 42 passed` backs no handoff count.
func TestObservedRunCounts(t *testing.T) {
	cases := []struct {
		name, cmd, out, want string
	}{
		{"pytest", "python3 -m pytest -q", "2 passed in 0.01s\n", "output counts 2 passed"},
		{"echo prints a count", "echo 42 passed", "42 passed\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, earlyProtocol)
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: pytest")
			e.advance(id) // WORKING
			e.advance(id) // QA_VALIDATION
			ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: c.cmd, Output: []byte(c.out)})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ev.Ref, "output counts"); got != (c.want != "") || !strings.Contains(ev.Ref, c.want) {
				t.Fatalf("ref %q, want %q", ev.Ref, c.want)
			}
		})
	}
}
