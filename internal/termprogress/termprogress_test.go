package termprogress

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

func TestTerminalLines(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status session.GateStatus
		tail   string
		want   []string
		absent []string
	}{
		{"pass", session.StatusPass, "", []string{"sessiongate: QA: running `go test ./...`", "`go test ./...` PASS after 1.5s"}, []string{"  | "}},
		{"fail with output", session.StatusFail, "ok a\nFAIL b\n", []string{"`go test ./...` FAIL after 1.5s", "  | ok a\n", "  | FAIL b\n"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			p := &Terminal{W: &b, Tick: time.Hour} // no tick: the lines alone
			p.CommandStarted("QA", "go test ./...")
			p.CommandDone("QA", "go test ./...", tc.status, 1500*time.Millisecond, tc.tail)
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(out, a) {
					t.Errorf("output has %q:\n%s", a, out)
				}
			}
		})
	}
}

// TestForQuietOffTerminal: a pipe or a file gets no progress.
func TestForQuietOffTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if p := For(f); p != nil {
		t.Error("progress for a regular file")
	}
	if p := For(&bytes.Buffer{}); p != nil {
		t.Error("progress for a buffer")
	}
}
