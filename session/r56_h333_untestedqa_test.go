package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestR56BoundRunThatChecksNothing (round 56, helper 333): under the
// v3.0-style protocol with no QA command, `sessiongate run --requirement
// QA_VALIDATION.run-checks-cover-changed -- python3 -c 'print(1)'` (or
// `go build ./...`, `go vet ./...`, `gofmt -l .`) says "recorded, but it
// proves nothing" and exits 1, yet the requirement counted it as met: the
// QA gate passed, the session ended COMPLETE, clean, and CI's verify
// passed with TestHello broken (/work/h333-repro/v3_lazy_qa_lines.sh).
// relevantObserved refuses such a run for the phase (untestedQA);
// requirementStatuses took it through observedFor, which refuses only
// trivial lines (`true`, `echo ok`).
func TestR56BoundRunThatChecksNothing(t *testing.T) {
	requireGit(t)
	doc, err := os.ReadFile(filepath.Join("..", "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	const req = "QA_VALIDATION.run-checks-cover-changed"
	for _, c := range []struct {
		cmd  string
		want string
	}{
		{`python3 -c 'print(1)'`, session.ReqOpen},
		{"go build ./...", session.ReqOpen},
		{"gofmt -l .", session.ReqOpen},
		{"go test ./...", session.ReqMet}, // honest
	} {
		t.Run(c.cmd, func(t *testing.T) {
			e := newEnv(t, string(doc))
			ctx := context.Background()
			id := e.start("greet")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Requirement: req, Source: session.SourceRun, Command: c.cmd, Output: []byte("ok\n")}); err != nil {
				t.Fatal(err)
			}
			sts, err := e.engine.Requirements(ctx, id, "QA_VALIDATION")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range sts {
				if s.ID == req && s.Status != c.want {
					t.Fatalf("%s bound to %s: %s (%s), want %s", c.cmd, req, s.Status, s.Reason, c.want)
				}
			}
		})
	}
}
