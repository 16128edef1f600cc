package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkToolCallEventReads: what the agent hooks ask the session's
// events on each call (PostToolUse: ToolInputRewritten and
// ReportAfterPrompt; UserPromptSubmit: SettleUnreported; Stop:
// ToolResultsMissing), on a long session: 2,000 judged and reported
// tool calls among 6,000 other events. Each call finds nothing to
// record, as on an honest session, so one op is the reads alone.
func BenchmarkToolCallEventReads(b *testing.B) {
	e := newEnv(b, lintProtocol)
	id := e.start("bench")
	ctx := context.Background()
	judged := strings.Repeat("a", 64)
	err := e.db.Update(ctx, func(w session.Writer) error {
		var evs []*session.Event
		for i := range 2000 {
			tid := fmt.Sprintf("toolu_%04d", i)
			evs = append(evs,
				&session.Event{SessionID: id, Token: session.TokenAgentCall, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: "tool:record_evidence", Detail: "observed shell command " + tid},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "claude " + tid})
		}
		for i := range 2000 {
			evs = append(evs, &session.Event{SessionID: id, Token: "gate:WORKING:PASS", Detail: fmt.Sprintf("check %d", i)})
		}
		return w.AppendEvents(ctx, evs...)
	})
	if err != nil {
		b.Fatal(err)
	}
	// One sub-benchmark per read, so a profile and a comparison name the
	// hook that pays it.
	b.Run("PostToolUse/ToolInputRewritten", func(b *testing.B) {
		for b.Loop() {
			if why, err := e.engine.ToolInputRewritten(ctx, id, "claude", "toolu_1999", "Bash", "ls", judged, judged); err != nil || why != "" {
				b.Fatalf("ToolInputRewritten: %q, %v", why, err)
			}
		}
	})
	b.Run("PostToolUse/ReportAfterPrompt", func(b *testing.B) {
		for b.Loop() {
			if v, err := e.engine.ReportAfterPrompt(ctx, id, "claude", "toolu_1999"); err != nil || v != nil {
				b.Fatalf("ReportAfterPrompt: %v, %v", v, err)
			}
		}
	})
	b.Run("UserPromptSubmit/SettleUnreported", func(b *testing.B) {
		for b.Loop() {
			if err := e.engine.SettleUnreported(ctx, id, "claude", "interrupted"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Stop/ToolResultsMissing", func(b *testing.B) {
		for b.Loop() {
			if v, err := e.engine.ToolResultsMissing(ctx, id, "claude"); err != nil || v != nil {
				b.Fatalf("ToolResultsMissing: %v, %v", v, err)
			}
		}
	})
}
