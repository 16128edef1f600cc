package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// TestTranscriptSealedBytes plays the lazy agent that rewrites its own
// transcript between the agent hook's event and the next gate read (issue
// 25 item 4): the bytes were never read by a gate, so the prefix check of
// TestTranscriptTampered did not cover them, and the rewritten line
// counted (every lazy row met "run git status" on the old code). The hook
// now seals what the file gained at each event (BindTranscript of a bound
// path); a gate checks the seal first. The honest twins only append, or
// have the file renamed over by the CLI's own compaction.
func TestTranscriptSealedBytes(t *testing.T) {
	requireGit(t)
	bash := func(c string) string { return fmt.Sprintf(`{"command":%q}`, c) }
	failed := claudeLines("t1", "Bash", bash("git status"), "Exit code 128\nfatal: not a git repository", true)
	passed := claudeLines("t1", "Bash", bash("git status"), "On branch main", false)
	tests := []struct {
		name string
		// after is the transcript at the hook's event; then edit runs, the
		// hook's next event comes, and the gate reads.
		after    string
		large    bool // the transcript holds Claude Code's compaction floor first
		edit     func(t *testing.T, path string)
		met      bool
		tampered bool
		replaced bool
	}{
		{name: "lazy: a failed run edited to a pass in place", after: failed, edit: func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			s := strings.Replace(string(b), `"is_error":true`, `"is_error":false`, 1)
			s = strings.Replace(s, `Exit code 128\nfatal: not a git repository`, `On branch main`, 1)
			writeInPlace(t, path, s)
		}, tampered: true},
		{name: "lazy: truncated and written again", after: failed, edit: func(t *testing.T, path string) {
			writeInPlace(t, path, "{}\n"+passed)
		}, tampered: true},
		{name: "lazy: same length, one byte", after: claudeLines("t1", "Bash", bash("git status"), "x", true), edit: func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			writeInPlace(t, path, strings.Replace(string(b), `"is_error":true`, `"is_error":fals`, 1))
		}, tampered: true},
		{name: "honest: appended only", after: claudeLines("t0", "Bash", bash("ls"), "a", false), edit: func(t *testing.T, path string) {
			appendTo(t, path, passed)
		}, met: true},
		{name: "honest: a line half written at the hook's event", after: passed[:len(passed)-20], edit: func(t *testing.T, path string) {
			appendTo(t, path, passed[len(passed)-20:])
		}, met: true},
		{name: "honest: the CLI renames a compacted copy over it, then goes on", large: true, after: failed, edit: func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			tmp := path + ".compact.tmp.1234"
			if err := os.WriteFile(tmp, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}, replaced: true},
		// Round 24: a rename Claude Code could not have made (its file
		// under 5 MiB) was taken for its compaction, with no violation.
		{name: "lazy: a rewritten copy renamed over it counts for nothing", after: failed, edit: func(t *testing.T, path string) {
			tmp := path + ".tmp"
			if err := os.WriteFile(tmp, []byte(passed), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}, tampered: true},
		{name: "lazy: past 5 MiB, a rewritten copy renamed over it counts for nothing", large: true, after: failed, edit: func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			tmp := path + ".tmp"
			if err := os.WriteFile(tmp, []byte(strings.Replace(string(b), failed, passed, 1)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}, replaced: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			id := e.start("transcripts")
			path := filepath.Join(t.TempDir(), "s.jsonl")
			appendTo(t, path, "{}\n") // the CLI's first line
			hook := func() {
				t.Helper()
				if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
					t.Fatal(err)
				}
			}
			hook() // binds
			if tt.large {
				appendTo(t, path, strings.Repeat(`{"type":"progress","data":"`+strings.Repeat("x", 1<<20)+`"}`+"\n", transcript.ClaudeCompactMin>>20))
			}
			appendTo(t, path, tt.after)
			hook() // the next tool call's PreToolUse: seals
			tt.edit(t, path)
			st := e.reqStatus(id, txReqRun)
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Errorf("git status %s %q, want met %v", st.Status, st.Reason, tt.met)
			}
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
			if err != nil {
				t.Fatal(err)
			}
			if tt.tampered != (len(vs) == 1 && vs[0].Code == session.CodeTranscriptTampered && vs[0].Severity == "HIGH") || !tt.tampered && len(vs) > 0 {
				t.Errorf("violations %+v, want one HIGH %s: %v", vs, session.CodeTranscriptTampered, tt.tampered)
			}
			evs, _ := e.db.ListEvents(ctx, id, 0, 0)
			replaced := false
			for _, ev := range evs {
				replaced = replaced || ev.Token == "transcript:claude:replaced"
			}
			if replaced != tt.replaced {
				t.Errorf("replaced event %v, want %v", replaced, tt.replaced)
			}
			// Lines appended afterwards: read after a replacement, not
			// after tampering; a second gate read records nothing more.
			appendTo(t, path, claudeLines("t9", "Bash", bash("git status"), "On branch main", false))
			hook()
			st = e.reqStatus(id, txReqRun)
			if got := st.Status == session.ReqMet; got != !tt.tampered {
				t.Errorf("after one more honest run: %s %q, want met %v", st.Status, st.Reason, !tt.tampered)
			}
			if vs2, _ := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id}); len(vs2) != len(vs) {
				t.Errorf("violations grew on a later read: %+v", vs2)
			}
		})
	}
}

// writeInPlace rewrites a file's bytes keeping the file (its inode), as
// an editor with O_TRUNC or `sed -i`-less python would.
func writeInPlace(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}
