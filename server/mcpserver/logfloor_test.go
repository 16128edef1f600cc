package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// The SDK's log reaches the operator from Warn up, without the error a
// signal's cancellation logs; any other error stays.
func TestLogFloor(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(logFloor{slog.NewTextHandler(&buf, nil), slog.LevelWarn})
	log.Info("connected")
	log.Error("server run cancelled", "error", context.Canceled)
	log.Error("session ended", "error", fmt.Errorf("read stdin: %w", context.Canceled))
	log.Error("write failed", "error", errors.New("broken pipe"))
	log.With("server", "sessiongate").Warn("slow client")
	out := buf.String()
	for _, gone := range []string{"connected", "cancelled", "session ended"} {
		if strings.Contains(out, gone) {
			t.Errorf("%q was logged:\n%s", gone, out)
		}
	}
	for _, kept := range []string{"broken pipe", `msg="slow client" server=sessiongate`} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q missing:\n%s", kept, out)
		}
	}
}
