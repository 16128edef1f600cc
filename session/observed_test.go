package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestRecordObserved stores observed evidence apart from claimed evidence,
// attributes it to the phase whose gate command names it, and keeps the
// output as a hash only.
func TestRecordObserved(t *testing.T) {
	e := newEnv(t, gateProtocol(`<!-- gate: command "go test ./..." -->`))
	id := e.start("observe")
	ctx := context.Background()
	ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{
		ID: id, Source: "run", Command: "go test -count=1 ./...", ExitCode: 1, Duration: 1500 * time.Millisecond,
		Output: []byte("FAIL\tpkg\npassword=hunter2\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Phase != "CHECK" {
		t.Errorf("attributed to %q, want CHECK", ev.Phase)
	}
	e.evidence(id, "CHECK", session.EvidenceToolOutput, "all tests passed")
	evs, err := e.db.ListEvidence(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 {
		t.Fatalf("%d evidence rows, want 2", len(evs))
	}
	obs, claimed := evs[0], evs[1]
	if !obs.Observed() || obs.Succeeded() || obs.ExitCode == nil || *obs.ExitCode != 1 || obs.Duration != 1500*time.Millisecond ||
		obs.Command != "go test -count=1 ./..." || obs.Source != "run" || obs.Body != nil {
		t.Errorf("observed row %+v", obs)
	}
	if claimed.Observed() || claimed.Origin != session.OriginClaimed || claimed.ExitCode != nil {
		t.Errorf("claimed row %+v", claimed)
	}
	if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "run", Command: "  "}); err == nil {
		t.Error("empty command accepted")
	}
}

func TestMatchPhase(t *testing.T) {
	e := newEnv(t, "# P\n\n## Session Start\n\n### Phase 1: Lint (BLOCKING)\n\n<!-- gate: command \"npx markdownlint-cli2 {changed:*.md}\" -->\n\n### Phase 2: Test (BLOCKING)\n\n1. You MUST run `go test ./...` before you continue.\n\n## Session End\n\n### Phase 1: Done (OPTIONAL)\n")
	for cmd, want := range map[string]string{
		"npx markdownlint-cli2 README.md": "LINT",
		"CI=1 go test -race ./session":    "TEST",
		"go vet ./...":                    "",
		"ls":                              "",
	} {
		if got := session.MatchPhase(e.spec, cmd); got != want {
			t.Errorf("MatchPhase(%q) = %q, want %q", cmd, got, want)
		}
	}
}
