package session_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkConversationLog: what the conversation log adds to every agent
// hook (Touch: read, update, write and rename one small file) and to a
// person act (OpenIn over 50 conversations), each beside its floor: the
// same file written and renamed with nothing read, and the same 50 files
// read with nothing decoded. docs/benchmarks.md, "The conversation log".
func BenchmarkConversationLog(b *testing.B) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	b.Run("touch", func(b *testing.B) {
		log := session.ConversationLog{Dir: b.TempDir()}
		for i := 0; i < b.N; i++ {
			if err := log.Touch("/w", "claude", "f107036e-7728-4025-b0c8-eea5e46cff46", now.Add(time.Duration(i)), session.HookOther); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("touch-peer", func(b *testing.B) {
		dir := b.TempDir()
		body := []byte(`{"agent":"claude","id":"f107036e-7728-4025-b0c8-eea5e46cff46","worktree":"/w","first_hook":"2026-11-28T12:00:00Z","last_hook":"2026-11-28T12:00:00.000000001Z","sessions":["b3e056a5-fc08-48f0-8485-60cc9b94e42b"]}`)
		dst := filepath.Join(dir, "c.json")
		for i := 0; i < b.N; i++ {
			tmp := filepath.Join(dir, ".tmp")
			if err := os.WriteFile(tmp, body, 0o600); err != nil {
				b.Fatal(err)
			}
			if err := os.Rename(tmp, dst); err != nil {
				b.Fatal(err)
			}
		}
	})
	many := func(b *testing.B) session.ConversationLog {
		log := session.ConversationLog{Dir: b.TempDir()}
		for i := 0; i < 50; i++ {
			if err := log.Touch("/w", "claude", fmt.Sprintf("conv-%d", i), now, map[bool]session.Hook{true: session.HookEnd, false: session.HookOther}[i%2 == 0]); err != nil {
				b.Fatal(err)
			}
		}
		return log
	}
	b.Run("open-in-50", func(b *testing.B) {
		log := many(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if open, err := log.OpenIn("/w", now.Add(time.Minute)); err != nil || len(open) != 25 {
				b.Fatalf("%d open (%v), want 25", len(open), err)
			}
		}
	})
	b.Run("open-in-50-peer", func(b *testing.B) {
		log := many(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			ents, err := os.ReadDir(log.Dir)
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range ents {
				if _, err := os.ReadFile(filepath.Join(log.Dir, e.Name())); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
