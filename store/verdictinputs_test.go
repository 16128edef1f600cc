package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// TestSessionVerdictInputsInBatches: a page longer than one statement's
// ids (`session list --limit 10000`) reads the same rows cut into
// statements as in one, each session's in its order.
func TestSessionVerdictInputsInBatches(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var ids []string
	err := db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		for i := range 7 {
			s := &session.Session{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), RepoID: repo.ID, Worktree: "/r", State: session.StateComplete}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			ids = append(ids, s.ID)
			for _, p := range []string{"B", "A", "C"}[:i%3+1] {
				if err := w.PutPhaseResult(ctx, session.PhaseResult{SessionID: s.ID, PhaseID: p, Status: session.PhasePassed, Level: protocolspec.GateBlocking}); err != nil {
					return err
				}
			}
			for j := range i % 3 {
				if err := w.AddViolation(ctx, &session.Violation{SessionID: s.ID, Severity: session.SeverityLow, Code: fmt.Sprintf("C%d", j), Window: session.WindowSession}); err != nil {
					return err
				}
				if err := w.AddEvidence(ctx, &session.Evidence{SessionID: s.ID, Phase: "A", Step: session.StepNotApplicable, Kind: session.EvidenceManual, Ref: fmt.Sprint(j)}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := db.SessionVerdictInputs(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { verdictBatch = n }(verdictBatch)
	verdictBatch = 2
	cut, err := db.SessionVerdictInputs(ctx, append(ids, ids[3])) // an id twice reads its rows once
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cut, whole) {
		t.Errorf("in statements of 2 ids:\n%+v\nin one:\n%+v", cut, whole)
	}
	if got := whole[ids[2]]; len(got.Phases) != 3 || got.Phases[0].PhaseID != "B" || len(got.Violations) != 2 || len(got.Marks) != 2 {
		t.Errorf("session 2: %+v, want phases B, A, C, 2 violations, 2 marks", got)
	}
}
