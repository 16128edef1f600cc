package session

import (
	"context"
	"testing"
	"time"
)

// TestPushBudget: a violation's push (records_push) gets 15 s from the CLI
// and the git hooks, and inside an agent hook no more than what the hook's
// own time limit left (WithTranscriptWait, set by agenthook's decide), so
// the hook never answers with its fail mode for a slow remote.
func TestPushBudget(t *testing.T) {
	for _, c := range []struct {
		name string
		ctx  context.Context
		want time.Duration
	}{
		{"CLI or git hook", context.Background(), recordsPushTimeout},
		{"agent hook, 900 ms left", WithTranscriptWait(context.Background(), 900*time.Millisecond), 900 * time.Millisecond},
		{"agent hook, nothing left", WithTranscriptWait(context.Background(), -time.Second), 0},
		{"a long wait is still bounded", WithTranscriptWait(context.Background(), time.Minute), recordsPushTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pushBudget(c.ctx); got != c.want {
				t.Errorf("pushBudget = %v, want %v", got, c.want)
			}
		})
	}
}
