package agenttest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// Round 20, issue 25: a judged call that never reports is noticed at the
// gates (advance, the commit gate, session end), not only at Stop, with
// the real Claude Code and Copilot CLI.

// dropHooks removes the named events from the hook files (relative paths)
// of r: what a lazy agent (or a previous one) commits before a session so
// no call it makes is compared and no turn end checks it.
func dropHooks(t *testing.T, r *sgRepo, files []string, events ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(r.dir, f)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		hooks, _ := m["hooks"].(map[string]any)
		for _, ev := range events {
			if hooks[ev] == nil {
				t.Fatalf("%s has no %s hook to drop:\n%s", p, ev, b)
			}
			delete(hooks, ev)
		}
		if b, err = json.MarshalIndent(m, "", "  "); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// judgedReported counts, in the session's events, the judged calls of
// agent and those whose post-tool hook reported.
func judgedReported(t *testing.T, r *sgRepo, sid, agent string) (judged, reported int) {
	t.Helper()
	var dbPath string
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "SESSIONGATE_DB="); ok {
			dbPath = v
		}
	}
	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, err := db.ListEvents(context.Background(), sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	tok := session.TokenJudgedInput
	switch agent {
	case "copilot":
		tok = session.TokenCopilotJudged
	case "codex":
		tok = session.TokenCodexJudged
	case "gemini":
		tok = session.TokenGeminiJudged
	}
	for _, e := range evs {
		switch {
		case e.Token == tok:
			judged++
		case e.Token == session.TokenToolResult && strings.HasPrefix(e.Detail, agent+" "):
			reported++
		}
	}
	return judged, reported
}

// TestClaudeGateNoticesUnreported: (lazy) PostToolUse, PostToolUseFailure
// and Stop dropped from both settings files and committed before the
// session (trusted on first use): the agent writes, commits and ends the
// session from its shell, and no Stop ever runs. Before round 20 the
// session ended with no TOOL_RESULT_MISSING (only Stop checked); now the
// commit gate and session end record it. (honest) the same work with the
// hooks installed: every judged call reports, the gates' own calls
// included (they report after the gate returns), and the session ends
// COMPLETE with no TOOL_RESULT_MISSING. Under load this is also the
// measurement: the log line says how many judged calls reported.
func TestClaudeGateNoticesUnreported(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		drop     bool
		settings string // the agent's own --settings file (measured: Claude Code adds its hooks to the project's)
	}{
		{"post and stop hooks dropped", true, ""},
		{"honest", false, ""},
		{"own --settings with empty post and stop hooks", false, `{"hooks": {"PostToolUse": [], "PostToolUseFailure": [], "Stop": []}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := hookedRepo(t, "")
			if c.drop {
				dropHooks(t, r, []string{".claude/settings.json", ".claude/settings.local.json"}, "PostToolUse", "PostToolUseFailure", "Stop")
				r.git("commit", "-q", "-am", "drop the post-tool and stop hooks")
			}
			sg := filepath.Join(sgBin, "sessiongate")
			bash := func(cmd string) agenttest.Turn { return agenttest.Use("Bash", map[string]any{"command": cmd}) }
			turns := []agenttest.Turn{
				bash("git status"),
				// Without PostToolUse nothing is observed: the lazy agent
				// claims what it did (allowed, and not what this test checks).
				bash(sg + " session evidence --phase GIT_STATE --type tool_output --value 'On branch main, nothing to commit'"),
				bash(sg + " session advance --to WORKING"),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
				bash("sh test.sh"),
				bash(sg + " session evidence --phase QA_VALIDATION --type tool_output --value 'PASS: hello.txt exists (1 test)'"),
				bash("git add hello.txt && git commit -q -m 'add hello.txt'"),
				bash(sg + " session end --summary 'added hello.txt'"),
				agenttest.Say("done"), agenttest.Say("done"), agenttest.Say("done"),
			}
			srv := agenttest.NewClaudeServer(t, turns...)
			opts := agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}, Timeout: 240e9}
			if c.settings != "" {
				p := filepath.Join(t.TempDir(), "own-settings.json")
				if err := os.WriteFile(p, []byte(c.settings), 0o644); err != nil {
					t.Fatal(err)
				}
				opts.Args = []string{"--settings", p}
			}
			res := r.claude("add hello.txt", opts)
			if srv.Used() < len(turns)-2 {
				t.Fatalf("run: exit %d, %d of %d turns\nstderr: %s", res.ExitCode, srv.Used(), len(turns)-2, res.Stderr)
			}
			show := r.onlySession()
			sess := show["session"].(map[string]any)
			codes := violationCodes(show)
			judged, reported := judgedReported(t, r, sess["id"].(string), "claude")
			t.Logf("state %v; violations %q; %d judged calls, %d reported", sess["state"], codes, judged, reported)
			missing := strings.Contains(codes, session.CodeToolResultMissing)
			switch {
			case c.drop && !missing:
				t.Errorf("violations %q, want %s: the session ended before any Stop", codes, session.CodeToolResultMissing)
			case c.settings != "" && !missing && reported < judged-1:
				t.Errorf("%d of %d judged calls reported and no %s: --settings hid calls", reported, judged, session.CodeToolResultMissing)
			case !c.drop && c.settings == "" && missing:
				t.Errorf("violations %q: an honest run has no %s (%d of %d judged calls reported)", codes, session.CodeToolResultMissing, reported, judged)
			case !c.drop && sess["state"] != string(session.StateComplete):
				t.Errorf("honest run ended %v, want %s", sess["state"], session.StateComplete)
			}
		})
	}
}

// TestCopilotGateNoticesUnreported: the same with the real Copilot CLI.
// (lazy) postToolUse, postToolUseFailure and agentStop dropped from both
// hook files and committed: the create never reports and session end
// records TOOL_RESULT_MISSING (nothing did before round 20). (honest) the
// hooks installed: every call pairs, no TOOL_RESULT_MISSING.
func TestCopilotGateNoticesUnreported(t *testing.T) {
	t.Parallel()
	for _, drop := range []bool{true, false} {
		name := "honest"
		if drop {
			name = "post and stop hooks dropped"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := installedRepo(t, "", "--agent", "copilot")
			if drop {
				dropHooks(t, r, []string{".github/hooks/sessiongate.json", ".github/hooks/sessiongate.local.json"}, "postToolUse", "postToolUseFailure", "agentStop")
				r.git("commit", "-q", "-am", "drop the post-tool and stop hooks")
			}
			bash := func(cmd string) agenttest.Step {
				return agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "run " + cmd})
			}
			stub := agenttest.StartOpenAIStub(t,
				bash("git status"),
				bash("sessiongate session evidence --phase GIT_STATE --type tool_output --value 'On branch main, nothing to commit'"),
				bash("sessiongate session advance --to WORKING"),
				agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, "hello.txt"), "file_text": "hello\n"}),
				bash("sh test.sh"),
				bash("sessiongate session evidence --phase QA_VALIDATION --type tool_output --value 'PASS: hello.txt exists (1 test)'"),
				bash("git add hello.txt && git commit -q -m 'add hello.txt'"),
				bash("sessiongate session end --summary 'added hello.txt'"),
				agenttest.TextStep("done"), agenttest.TextStep("done"), agenttest.TextStep("done"),
			)
			res := agenttest.RunCopilot(t, r.dir, "add hello.txt", stub, r.env, 0)
			if reqs := stub.Scripted(t); len(reqs) < 9 {
				t.Fatalf("%d of 9 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
			}
			show := r.onlySession()
			sess := show["session"].(map[string]any)
			codes := violationCodes(show)
			judged, reported := judgedReported(t, r, sess["id"].(string), "copilot")
			t.Logf("state %v; violations %q; %d judged calls, %d reported", sess["state"], codes, judged, reported)
			missing := strings.Contains(codes, session.CodeToolResultMissing)
			if drop != missing {
				t.Errorf("violations %q: %s recorded %v, want %v (%d of %d judged calls reported)", codes, session.CodeToolResultMissing, missing, drop, reported, judged)
			}
		})
	}
}
