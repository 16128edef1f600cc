package session_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// groupCounting is the SQLite store with its UpdateGrouped calls counted.
type groupCounting struct {
	*store.DB
	grouped int
}

func (g *groupCounting) UpdateGrouped(ctx context.Context, fn func(w session.Writer) error) error {
	g.grouped++
	return g.DB.UpdateGrouped(ctx, fn)
}

// plainStore hides every optional interface of the store: Update only.
type plainStore struct{ session.Store }

// TestValidateGateGroupsItsWrite: a gate call's write goes through the
// store's group commit when it has one (the figure in docs/benchmarks.md
// counts on it), and through Update when it has not; either way the call
// records its events and its phase result.
func TestValidateGateGroupsItsWrite(t *testing.T) {
	for _, c := range []struct {
		name    string
		grouped bool
	}{{"group commit", true}, {"plain Update", false}} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			id := e.start("group")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read")
			gc := &groupCounting{DB: e.db}
			e.engine.Store = gc
			if !c.grouped {
				e.engine.Store = plainStore{e.db}
			}
			ctx := context.Background()
			for i := range 2 {
				if i > 0 {
					// An event in between: the second call is recorded in
					// full, not counted as a repeat (gaterepeat.go).
					e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read again")
				}
				g, err := e.engine.ValidateGate(ctx, id, "CONTEXT_RETRIEVAL")
				if err != nil || g.Status != session.StatusPass {
					t.Fatalf("validate_gate: %+v, %v", g, err)
				}
			}
			if want := map[bool]int{true: 2, false: 0}[c.grouped]; gc.grouped != want {
				t.Errorf("%d grouped writes, want %d", gc.grouped, want)
			}
			evs, err := e.db.ListEvents(ctx, id, 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			var gates int
			for _, ev := range evs {
				if strings.HasPrefix(ev.Token, "gate:CONTEXT_RETRIEVAL:") {
					gates++
				}
			}
			if gates != 2 || !slices.ContainsFunc(evs, func(ev session.Event) bool { return ev.Token == "tool:validate_gate" }) {
				t.Errorf("events after two gate calls: %d gate events, want 2 and tool:validate_gate (%+v)", gates, evs)
			}
		})
	}
}
