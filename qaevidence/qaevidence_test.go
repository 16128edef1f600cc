package qaevidence

import (
	"strings"
	"testing"
	"time"
)

// TestFirstUnanswered: once a test-suite run failed, only a later passing
// run that covers at least what it covered answers it; narrow runs to
// debug stay free.
func TestFirstUnanswered(t *testing.T) {
	at := time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC)
	run := func(line string, exit int) Run {
		return Run{Command: line, Exit: exit, Status: "exit status unknown", At: at}
	}
	for _, tt := range []struct {
		name       string
		runs       []Run
		unanswered string // the failing command left unanswered, "" for none
		lastPass   string // the later pass of the same runner it names
	}{
		{"fail, then -run one test", []Run{run("go test ./...", 1), run("go test -run TestAdd ./pkg", 0)}, "go test ./...", "go test -run TestAdd ./pkg"},
		{"fail, then one package", []Run{run("go test ./...", 1), run("go test ./pkg", 0)}, "go test ./...", "go test ./pkg"},
		{"fail, then -skip", []Run{run("go test ./...", 1), run("go test -skip TestSlow ./...", 0)}, "go test ./...", "go test -skip TestSlow ./..."},
		{"pytest fail, then -k", []Run{run("pytest -q", 1), run("pytest -q -k add", 0)}, "pytest -q", "pytest -q -k add"},
		{"status unknown, then -run one test", []Run{run("go test ./... | tail -3", -1), run("go test -run TestAdd ./pkg", 0)}, "go test ./... | tail -3", "go test -run TestAdd ./pkg"},
		{"two failures, the second answered", []Run{run("go test ./...", 1), run("go test ./pkg", 1), run("go test ./pkg", 0)}, "go test ./...", "go test ./pkg"},
		{"a failure and nothing after it", []Run{run("go test ./...", 1)}, "go test ./...", ""},
		// Honest flows.
		{"fail, fix, full run passes", []Run{run("go test ./...", 1), run("go test ./...", 0)}, "", ""},
		{"status unknown, then the full run passes", []Run{run("go test ./... | tail -3", -1), run("go test ./...", 0)}, "", ""},
		{"narrow debug run fails, full run passes", []Run{run("go test -run TestAdd ./pkg", 1), run("go test ./...", 0)}, "", ""},
		{"pytest fails, uv run pytest passes", []Run{run("pytest", 1), run("uv run pytest -q", 0)}, "", ""},
		{"one file fails, the suite passes", []Run{run("pytest tests/test_one.py", 1), run("python3 -m pytest", 0)}, "", ""},
		{"no runs", nil, "", ""},
	} {
		u := FirstUnanswered(tt.runs)
		switch {
		case tt.unanswered == "" && u != nil:
			t.Errorf("%s: %q unanswered, want every failure answered", tt.name, u.Run.Command)
		case tt.unanswered != "" && u == nil:
			t.Errorf("%s: every failure answered, want %q unanswered", tt.name, tt.unanswered)
		case u != nil && (u.Run.Command != tt.unanswered || u.LastPass != tt.lastPass):
			t.Errorf("%s: %q unanswered (last pass %q), want %q (last pass %q)", tt.name, u.Run.Command, u.LastPass, tt.unanswered, tt.lastPass)
		case u != nil:
			msg := u.Message("QA")
			if !strings.HasPrefix(msg, "QA: `"+tt.unanswered+"`") || !strings.Contains(msg, "01:02:03") || tt.lastPass != "" && !strings.Contains(msg, "the later pass `"+tt.lastPass+"`") {
				t.Errorf("%s: message %q", tt.name, msg)
			}
			if tt.runs[0].Exit < 0 && !strings.Contains(msg, "its status is unknown: exit status unknown") {
				t.Errorf("%s: message %q does not say the status is unknown", tt.name, msg)
			}
		}
	}
}
