package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// TestClaudeEditedResultExit: Claude Code's PreToolUse hook witnesses a
// Bash call by its id and command line, but not by what it returned. The
// lazy agent runs the required command for real (the hook keeps its id),
// it fails, and its next call rewrites that call's tool_result line in
// its own transcript to a success before any gate read it: the id and the
// command are the real call's. The post-tool hook observed the run's
// real status (PostToolUseFailure), which the agent cannot write, and the
// gate takes the last observed run over the transcript's word. Probed in
// round 18 (issue 25, t6): already closed, so this is a guard that the
// edited line never outranks what the hook saw; honest twins pass.
func TestClaudeEditedResultExit(t *testing.T) {
	requireGit(t)
	const status = "git status"
	tests := []struct {
		name     string
		observed []int // statuses the post-tool hook observed, in order
		lines    []struct {
			id   string
			fail bool
		}
		met bool
	}{
		{"honest pass", []int{0}, []struct {
			id   string
			fail bool
		}{{"c1", false}}, true},
		{"a real failing run, its result edited to a pass", []int{128}, []struct {
			id   string
			fail bool
		}{{"c1", false}}, false},
		{"honest: a failing run, then a passing one", []int{128, 0}, []struct {
			id   string
			fail bool
		}{{"c1", true}, {"c2", false}}, true},
		{"two real failing runs, the second's result edited", []int{128, 128}, []struct {
			id   string
			fail bool
		}{{"c1", true}, {"c2", false}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			if _, err := hooks.InstallAgents(e.root, hooks.AgentConfigs[:1]); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "hooks")
			id := e.start("edited exit")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			for i, l := range tt.lines {
				if err := e.engine.AgentToolCall(ctx, id, "claude", l.id, "Bash", transcript.CommandDigest(status), false); err != nil {
					t.Fatal(err)
				}
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "claude", Command: status, ExitCode: tt.observed[i], Output: []byte("out")}); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range tt.lines {
				res := "On branch main"
				if l.fail {
					res = "Exit code 128\nfatal: not a git repository"
				}
				appendTo(t, path, claudeLines(l.id, "Bash", `{"command":"git status"}`, res, l.fail))
			}
			st := e.reqStatus(id, txReqRun)
			t.Logf("%s: %s", st.Status, st.Reason)
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Fatalf("met %v (%s %q), want %v", got, st.Status, st.Reason, tt.met)
			}
		})
	}
}
