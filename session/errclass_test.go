package session_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// Each engine failure says whose it is: the caller's, the protocol's
// refusal, or sessiongate's own (logged for the operator by the callers).
func TestClassify(t *testing.T) {
	e := newEnv(t, flowProtocol)
	ctx := context.Background()
	ended := e.start("ended one") // a newer session in the worktree supersedes an older one
	if _, err := e.engine.Terminate(ctx, ended, "done with it"); err != nil {
		t.Fatal(err)
	}
	id := e.start("classify")
	cases := []struct {
		name string
		err  func() error
		want session.ErrorClass
	}{
		{"unknown phase", func() error {
			_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "NOPE", Kind: session.EvidenceManual, Evidence: "x"})
			return err
		}, session.ClassInvalid},
		{"empty evidence", func() error {
			_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceManual, Evidence: " "})
			return err
		}, session.ClassInvalid},
		{"malformed id", func() error { _, err := e.engine.ValidateGate(ctx, "../x", ""); return err }, session.ClassInvalid},
		{"no objective", func() error {
			_, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec})
			return err
		}, session.ClassInvalid},
		{"terminated session", func() error { _, err := e.engine.ValidateGate(ctx, ended, ""); return err }, session.ClassRefused},
		{"end while starting", func() error {
			_, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "s"})
			return err
		}, session.ClassRefused},
		{"database closed", func() error {
			e.db.Close()
			_, err := e.engine.ValidateGate(ctx, id, "")
			return err
		}, session.ClassInternal},
	}
	for _, c := range cases {
		err := c.err()
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		if got := session.Classify(err); got != c.want {
			t.Errorf("%s: %v classified %s, want %s", c.name, err, got, c.want)
		}
	}
}
