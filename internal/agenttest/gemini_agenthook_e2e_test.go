package agenttest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// The same runtime behind the real Gemini CLI (`sessiongate install
// --agent gemini` writes .gemini/settings.json): a write_file before the
// start gates is denied and the reason reaches the model; after the start
// gates the shell command is observed evidence.
func TestGeminiAgentHooksDenyThenObserve(t *testing.T) {
	requireAgentHook(t)
	r := newSGRepo(t, e2eProtocol, "", "--agent", "gemini")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	b, err := os.ReadFile(filepath.Join(r.dir, ".gemini", "settings.json"))
	if err != nil || !strings.Contains(string(b), "sessiongate agent-hook gemini") {
		t.Fatalf("install --agent gemini: .gemini/settings.json %v\n%s", err, b)
	}
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "early.txt"), "content": "x\n"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sh test.sh"}),
		agenttest.Say("stopping here"),
	)
	res := agenttest.RunGemini(t, r.dir, "add hello.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
	t.Logf("gemini run: %s, exit %d, response %q", res.Elapsed, res.ExitCode, res.Response)
	if srv.Used() < 6 {
		t.Fatalf("%d of 6 turns used; exit %d, error %s\nstderr: %s", srv.Used(), res.ExitCode, res.Error, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "early.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the write_file before the start gates ran (stat: %v)", err)
	}
	conv := srv.Conversation()
	if txt := conv[1].NewText(); !strings.Contains(txt, "GIT_STATE") {
		t.Errorf("the deny reason did not reach the model: %s", txt)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "hello.txt")); err != nil {
		t.Errorf("write_file after the start gates did not run: %v", err)
	}
	show := r.onlySession()
	if origins := evidenceOrigins(show); origins["observed"] < 2 {
		t.Errorf("evidence origins %v: want git status and sh test.sh observed", origins)
	}
}
