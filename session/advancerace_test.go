package session_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
)

// raceKey tags each concurrent advance's context, so the barrier below
// knows which advances have reached their gates.
type raceKey struct{}

// TestAdvanceRaceAllOverlap is TestOrderConcurrentShells' concurrent case
// made certain: that test's four processes may run one after another on a
// loaded machine (the later ones then hear "not ahead"), so here every
// advance is held where its gates open the worktree until all have read
// the session. Without timing: a barrier on who has arrived. One wins;
// each other is told the session moved and to retry; the start gates'
// pass events are written once.
func TestAdvanceRaceAllOverlap(t *testing.T) {
	requireGit(t)
	const n = 4
	e := newEnv(t, flowProtocol)
	id := e.start("race")
	ctx := context.Background()
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read")
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "ISSUE_CONTEXT", Kind: session.EvidenceManual, Evidence: "no issue", Step: session.StepCondition}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	arrived := map[int]bool{}
	all := make(chan struct{})
	arrive := func(i int) {
		mu.Lock()
		defer mu.Unlock()
		if !arrived[i] {
			arrived[i] = true
			if len(arrived) == n {
				close(all)
			}
		}
	}
	var opened sync.Map
	e.engine.OpenRepo = func(ctx context.Context, wt string) (session.Repo, error) {
		if i, ok := ctx.Value(raceKey{}).(int); ok {
			opened.Store(i, true)
			arrive(i)
			<-all
		}
		return gitrepo.Open(ctx, wt)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.engine.Advance(context.WithValue(ctx, raceKey{}, i), session.AdvanceRequest{ID: id, Target: "WORKING"})
			arrive(i) // one that never opened the worktree must not hold the others
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		if _, ok := opened.Load(i); !ok {
			t.Errorf("advance %d never opened the worktree: the barrier did not hold it (the test proves nothing)", i)
		}
		switch {
		case err == nil:
			won++
		case strings.Contains(err.Error(), "moved while its gates ran") && strings.Contains(err.Error(), "retry"):
		default:
			t.Errorf("advance %d neither won nor was told to retry: %v", i, err)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d overlapping advances won, want 1", won, n)
	}
	s, err := e.db.GetSession(ctx, id)
	if err != nil || s.State != session.StateWorking {
		t.Fatalf("after the race: %+v %v, want WORKING", s, err)
	}
	count := map[string]int{}
	for _, tok := range e.tokens(id) {
		count[tok]++
	}
	for _, tok := range []string{"gate:CONTEXT_RETRIEVAL:pass", "tool:advance_phase"} {
		if count[tok] != 1 {
			t.Errorf("%s written %d times after %d overlapping advances, want once", tok, count[tok], n)
		}
	}
}
