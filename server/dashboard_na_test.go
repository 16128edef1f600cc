package server

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestDashboardShowsPendingNotApplicable (issue 25.4): a not-applicable
// mark with no condition a machine can check keeps a session from reading
// clean: the session page's verdict and the overview's running sessions
// say "N/A pending acceptance"; before the mark neither does.
func TestDashboardShowsPendingNotApplicable(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	if body := env.get("/sessions/"+dashSID(1), false).Body.String(); strings.Contains(body, "N/A pending acceptance") {
		t.Fatal("the seeded session shows a pending mark before it has one")
	}
	ctx := context.Background()
	err := env.db.Update(ctx, func(w session.Writer) error {
		for _, n := range []int{1, 5} {
			// The Plan phase has no condition: marked as a whole, pending.
			if err := w.AddEvidence(ctx, &session.Evidence{SessionID: dashSID(n), Phase: "PLAN", Step: session.StepCondition, Kind: session.EvidenceManual,
				SHA256: strings.Repeat("cd", 32), Ref: "a typo fix needs no written plan", Size: 32, CreatedAt: env.now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	body := env.get("/sessions/"+dashSID(1), false).Body.String()
	if !strings.Contains(body, "1 N/A pending acceptance") || strings.Contains(body, "Completed cleanly") {
		t.Fatalf("the session page with a pending mark reads clean or does not name it:\n%s", body[:min(len(body), 3000)])
	}
	if body := env.get("/", false).Body.String(); !strings.Contains(body, "1 N/A pending acceptance") {
		t.Fatal("the overview's running sessions do not show the pending mark")
	}
}
