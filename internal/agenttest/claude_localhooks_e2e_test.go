package agenttest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// Issue 25, the agent hooks run the sessiongate that installed them: the
// committed .claude/settings.json calls `sessiongate` by name (a committed
// file carries no machine-local path), so a `sessiongate` ahead on PATH (a
// package the agent installed globally, ~/.local/bin) answered every
// Claude Code hook with an allow. install now also writes the git-ignored
// .claude/settings.local.json calling the binary by absolute path, and the
// by-name call defers to it (agenthook/byname.go).

// shimOnPath is a folder holding a `sessiongate` that allows everything
// and logs each call, and the PATH with it first.
func shimOnPath(t *testing.T) (log, pathEnv string) {
	t.Helper()
	return shimAnswering(t, "echo '{}'")
}

// shimAnswering is shimOnPath with answer, a shell line, as the shim's
// answer to every call.
func shimAnswering(t *testing.T, answer string) (log, pathEnv string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "calls.log")
	shim := "#!/bin/sh\necho \"$*\" >> " + log + "\ncat >/dev/null\n" + answer + "\n"
	if err := os.WriteFile(filepath.Join(dir, "sessiongate"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	return log, "PATH=" + dir + string(os.PathListSeparator) + sgBin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// checkCompleteObservedOnce: the session in show ended COMPLETE with no
// violation, and each of cmds is one observed evidence row (a hook that
// ran twice, by name and by path, would record it twice).
func checkCompleteObservedOnce(t *testing.T, show map[string]any, cmds ...string) {
	t.Helper()
	if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", st)
	}
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
	runs := map[string]int{}
	for _, e := range evidence(show) {
		if e["origin"] == string(session.OriginObserved) {
			cmd, _ := e["command"].(string)
			runs[cmd]++
		}
	}
	for _, cmd := range cmds {
		if runs[cmd] != 1 {
			t.Errorf("observed %q recorded %d times, want once (all: %v)", cmd, runs[cmd], runs)
		}
	}
}

// checkLocalConfig: install wrote the machine-local config with the
// absolute binary, git ignores it, and the committed one stays path-free.
func checkLocalConfig(t *testing.T, r *sgRepo) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, ".claude", "settings.local.json"))
	if err != nil {
		t.Fatalf("install --agent claude wrote no .claude/settings.local.json: %v", err)
	}
	if !strings.Contains(string(b), filepath.Join(sgBin, "sessiongate")+" agent-hook claude PreToolUse") {
		t.Errorf(".claude/settings.local.json does not call %s by path:\n%s", filepath.Join(sgBin, "sessiongate"), b)
	}
	if got := r.git("ls-files", ".claude"); got != ".claude/settings.json" {
		t.Errorf("tracked under .claude: %q, want only settings.json (settings.local.json holds this machine's path)", got)
	}
	if got := r.git("status", "--porcelain", "--", ".claude"); got != "" {
		t.Errorf("git status shows the local config (not ignored): %q", got)
	}
}

// TestClaudeShimOnPathDoesNotAnswerHooks: real Claude Code, hooks
// installed, a `sessiongate` shim first on PATH before the session. The
// agent Writes the protocol before its start gates pass: denied, by the
// hook the local config runs by path, and the model is told why. Before
// the local config the shim's `{}` was the only answer and the protocol
// was rewritten.
func TestClaudeShimOnPathDoesNotAnswerHooks(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	checkLocalConfig(t, r)
	log, pathEnv := shimOnPath(t)
	protocol := filepath.Join(r.dir, "SESSION-PROTOCOL.md")
	before, _ := os.ReadFile(protocol)
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Write", map[string]any{"file_path": protocol, "content": "# Session Protocol\n"}),
		agenttest.Say("done"),
	)
	res := r.claude("finish quickly", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash"}, Env: []string{pathEnv}})
	if res.ExitCode != 0 || srv.Used() < 2 {
		t.Fatalf("run: exit %d, %d of 2 turns\nstderr: %s", res.ExitCode, srv.Used(), res.Stderr)
	}
	calls, _ := os.ReadFile(log)
	if !strings.Contains(string(calls), "agent-hook claude PreToolUse") {
		t.Errorf("the shim never ran (the test lost its point); it logged:\n%s", calls)
	}
	conv := srv.Conversation()
	if !conv[0].Contains("GIT_STATE") {
		t.Errorf("SessionStart context did not come from sessiongate: %.400s", conv[0].NewText())
	}
	if after := conv[1].NewText(); !strings.Contains(after, "sessiongate") {
		t.Errorf("the model was not told why the Write was denied: %.600s", after)
	}
	if got, _ := os.ReadFile(protocol); string(got) != string(before) {
		t.Errorf("SESSION-PROTOCOL.md was rewritten with the shim answering the hooks:\n%s", got)
	}
}

// TestClaudeLocalHooksRecordOnce, the honest twin: a compliant session
// under Claude Code with both the committed (by name) and the local (by
// path) config installed runs to COMPLETE, and each event is recorded
// once: SessionStart's context reaches the model once, each observed
// command is one evidence row.
func TestClaudeLocalHooksRecordOnce(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	checkLocalConfig(t, r)
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
		agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'added hello.txt'"}),
		agenttest.Say("done"),
	)
	res := r.claude("add hello.txt", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}})
	if res.ExitCode != 0 || res.Result != "done" || srv.Used() != 7 {
		t.Fatalf("run: exit %d result %q, %d of 7 turns\nstderr: %s", res.ExitCode, res.Result, srv.Used(), res.Stderr)
	}
	conv := srv.Conversation()
	if n := len(hookSessionRe.FindAllString(conv[0].NewText(), -1)); n != 1 {
		t.Errorf("SessionStart context says the session started %d times, want 1:\n%.1200s", n, conv[0].NewText())
	}
	for i, req := range conv[1:] {
		if txt := req.NewText(); strings.Contains(txt, "is_error") {
			t.Errorf("tool call %d failed or was denied: %s", i+1, txt)
		}
	}
	checkCompleteObservedOnce(t, r.onlySession(), "git status", "sh test.sh")
}
