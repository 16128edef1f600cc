//go:build unix

package session_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkValidateGate is Engine.ValidateGate alone, without MCP: an
// evidence gate that passes, on a real store, from GOMAXPROCS*2 goroutines
// (as server's BenchmarkMCPToolsCall calls it). The worktree is opened once,
// as the server's gitrepo.CachedOpen does. cpu-µs/call is the process's CPU
// per call. Figures: docs/benchmarks.md (MCP tools/call).
func BenchmarkValidateGate(b *testing.B) {
	e := newEnv(b, flowProtocol)
	e.engine.Now = time.Now // a moving clock: every call really touches the session
	repo := e.repo
	e.engine.OpenRepo = func(context.Context, string) (session.Repo, error) { return repo, nil }
	id := e.start("benchmark")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read")
	ctx := context.Background()
	b.SetParallelism(2)
	b.ResetTimer()
	cpu0 := processCPU()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			g, err := e.engine.ValidateGate(ctx, id, "")
			if err != nil || g.Status != session.StatusPass {
				b.Errorf("validate_gate: %+v, %v", g, err)
				return
			}
		}
	})
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/call")
}

// processCPU is the user+system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkValidateGateLongSession is ValidateGate in a session that has
// gathered 5,000 observed shell commands while working (agent hooks record
// every one), from one goroutine: what a gate check costs late in a long
// session, against BenchmarkValidateGate's fresh one.
func BenchmarkValidateGateLongSession(b *testing.B) {
	e := newEnv(b, flowProtocol)
	e.engine.Now = time.Now
	repo := e.repo
	e.engine.OpenRepo = func(context.Context, string) (session.Repo, error) { return repo, nil }
	id := e.start("benchmark")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read")
	ctx := context.Background()
	const runs = 5000
	zero := 0
	if err := e.db.Update(ctx, func(w session.Writer) error {
		for i := range runs {
			cmd := fmt.Sprintf("go test ./pkg%d", i%50)
			if err := w.AddEvidence(ctx, &session.Evidence{SessionID: id, Kind: session.EvidenceToolOutput, Origin: session.OriginObserved,
				Source: "claude", Command: cmd, Ref: cmd, SHA256: fmt.Sprintf("%064x", i), ExitCode: &zero}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	cpu0 := processCPU()
	for b.Loop() {
		g, err := e.engine.ValidateGate(ctx, id, "CONTEXT_RETRIEVAL")
		if err != nil || g.Status != session.StatusPass {
			b.Fatalf("validate_gate: %+v, %v", g, err)
		}
	}
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/call")
}
