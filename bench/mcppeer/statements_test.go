//go:build unix

package mcppeer_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/server/mcpserver"
)

// statementBudget is how many SQL statements one warm validate_gate call on
// an unchanged repository may run: the session read (with the accepted
// contents' and the evidence's stamps: the contents and the gate's
// evidence come from the engine's caches while their stamps are
// unchanged, session/trustedcache.go and session/evidencecache.go), and
// the record of the call: the same answer as this engine's last full
// record of it, with nothing recorded since, is one statement that counts
// the repeat and moves the idle expiry (session/gaterepeat.go); a changed
// answer is the full write (BEGIN, the touch, the events, the phase
// result, COMMIT) and the next call reads the evidence again. Each
// statement through modernc.org/sqlite costs 20-50 µs of CPU on this
// project's machine, a fifth of the peer's whole call, so a statement
// added to every gate call moves the figure in docs/benchmarks.md ("MCP
// validate_gate over stdio"); counted, it fails here without timing. It
// was 10 before the evidence and events reads were folded and the
// accepted contents cached (2026-11-28), 7 before repeats were counted,
// 3 before the evidence was kept under its stamp, 2 before repeats were
// held back in memory (2026-11-29): the change stamp, plus one write of the
// held-back repeats per repeat window (a second) the calls span.
const statementBudget = 1

// TestValidateGateStatements counts the SQL statements of warm
// validate_gate calls over stdio through the store's own counter.
func TestValidateGateStatements(t *testing.T) {
	f := newFixture(t)
	// Past gitrepo's racy window, as a session's index is when the agent
	// calls (younger answers are not kept, which is not what is counted).
	time.Sleep(2500 * time.Millisecond)
	sg := stdioClient(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpserver.RunStdio(ctx, f.srv, in, out)
	})
	call := toolCall(sg, "validate_gate", "passed", map[string]any{"session_id": f.id})
	for range 3 {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	const n = 5
	before := f.db.Statements()
	start := time.Now()
	for range n {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	got := f.db.Statements() - before
	// The repeats' writes: one per window started (session/gaterepeat.go),
	// however slow a loaded machine makes the calls.
	writes := 1 + int64(time.Since(start)/time.Second)
	t.Logf("%d SQL statements in %d warm validate_gate calls (%.1f per call)", got, n, float64(got)/n)
	if got > statementBudget*n+writes {
		t.Errorf("%d warm validate_gate calls ran %d SQL statements (budget %d per call and %d for held-back repeats)", n, got, statementBudget, writes)
	}
}
