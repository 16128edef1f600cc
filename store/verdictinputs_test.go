package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// TestSessionVerdictInputsPage: a page of 10,000 ids (`session list
// --limit 10000`, beyond SQLite's bound values were each id one) reads
// each session's rows once, in their order, an id given twice too.
func TestSessionVerdictInputsPage(t *testing.T) {
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
	page := append([]string{}, ids...)
	for i := len(page); i < 10_000; i++ {
		page = append(page, fmt.Sprintf("00000000-0000-4000-9000-%012d", i))
	}
	big, err := db.SessionVerdictInputs(ctx, append(page, ids[3])) // ids[3] twice
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if !reflect.DeepEqual(big[id], whole[id]) {
			t.Errorf("session %s in a page of 10,000: %+v, in a page of %d: %+v", id, big[id], len(ids), whole[id])
		}
	}
	if got := whole[ids[2]]; len(got.Phases) != 3 || got.Phases[0].PhaseID != "B" || len(got.Violations) != 2 || len(got.Marks) != 2 {
		t.Errorf("session 2: %+v, want phases B, A, C, 2 violations, 2 marks", got)
	}
}
