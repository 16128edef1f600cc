package agenttest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// The path a new user takes: `sessiongate init` (the starter protocol and
// config, with the project's test command set), `sessiongate install
// --agent claude`, then a compliant agent that reads, checks git, plans,
// works, updates the docs, runs the tests through the shell, commits and
// ends: COMPLETE, every phase passed, no force, no violation, and claims
// only where no machine can check.
func TestClaudeAgentHooksStarterProtocol(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	r := newSGRepo(t, "", "")
	cfg, err := os.ReadFile(filepath.Join(r.dir, "sessiongate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const unset = "commands: {}\n"
	if !strings.Contains(string(cfg), unset) {
		t.Fatalf("the starter sessiongate.yaml no longer has %q", unset)
	}
	r.write("sessiongate.yaml", strings.Replace(string(cfg), unset, "commands:\n  QA_VALIDATION: \"sh test.sh\"\n", 1))
	r.write("README.md", "# demo\n\nRun `sh test.sh`.\n")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "readme, tests, test command")
	// Installed last: with require_session the git hooks refuse commits
	// made outside a session. .claude/settings.json stays uncommitted.
	r.install("--agent", "claude")

	srv := agenttest.NewClaudeServer(t,
		// Reading is what no machine can check: the agent records what it
		// read (the output itself, not a filler word).
		agenttest.Use("Bash", map[string]any{"command": "cat README.md | sessiongate session evidence --phase CONTEXT_RETRIEVAL --type tool_output --value -"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance"}),
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session evidence --phase PLAN --type manual --value 'add hello.txt, which test.sh checks; run sh test.sh'"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "README.md"), "content": "# demo\n\nRun `sh test.sh`; it needs hello.txt.\n"}),
		agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
		agenttest.Use("Bash", map[string]any{"command": "git add hello.txt README.md && git commit -q -m 'add hello.txt: the test needs it'"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'added hello.txt' --notes 'none'"}),
		agenttest.Say("done"),
	)
	const turns = 12
	res := r.claude("add hello.txt", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}})
	if res.ExitCode != 0 || res.Result != "done" || srv.Used() != turns {
		t.Fatalf("run: exit %d result %q, %d of %d turns\nstderr: %s", res.ExitCode, res.Result, srv.Used(), turns, res.Stderr)
	}
	for i, req := range srv.Conversation()[1:] {
		if txt := req.NewText(); strings.Contains(txt, "is_error") || strings.Contains(txt, "Stop hook feedback") {
			t.Errorf("tool call %d failed, was denied or the stop was blocked: %s", i+1, txt)
		}
	}
	show := r.onlySession()
	if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", st)
	}
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
	// Claimed: only what no machine can check (what was read, the plan).
	for _, e := range evidence(show) {
		if e["origin"] == string(session.OriginObserved) || e["kind"] == "commit_sha" && e["step"] == "post-commit" {
			continue
		}
		if e["phase"] != "CONTEXT_RETRIEVAL" && e["phase"] != "PLAN" {
			t.Errorf("claimed evidence where a machine checks: %v", e)
		}
	}
	for cmd, phase := range map[string]string{"git status": "GIT_STATE", "sh test.sh": "QA_VALIDATION"} {
		if e := observedRun(show, cmd); e == nil || e["phase"] != phase || e["exit_code"] != 0.0 {
			t.Errorf("observed %q: %v, want it attributed to %s, exit 0", cmd, e, phase)
		}
	}
	// Every phase passed: none skipped, none forced.
	for _, p := range show["checklist"].([]any) {
		p := p.(map[string]any)
		if p["status"] != string(session.PhasePassed) {
			t.Errorf("phase %v: %v, want %s", p["phase"], p["status"], session.PhasePassed)
		}
	}
}
