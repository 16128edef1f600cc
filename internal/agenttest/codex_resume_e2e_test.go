package agenttest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestCodexResumeHonest (round 25, c2): an agent's CLI stopped and resumed
// mid-session (`codex exec resume --last`) is honest work. Codex 0.171
// reopens the same rollout file and appends (measured: one file, 53,555
// then 68,705 bytes), so the sealed bytes still check: the resumed run's
// gates record no TRANSCRIPT_TAMPERED and no replaced transcript. Passed
// before this round too; kept as the honest guard of the seal rule.
func TestCodexResumeHonest(t *testing.T) {
	t.Parallel()
	r := installedRepo(t, "", "--agent", "codex")
	stub := agenttest.StartResponsesStub(t,
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session advance --to WORKING"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git log --oneline -1"}),
		agenttest.TextStep("paused"),
		// the resumed run
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status --short"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session end --summary 'looked around, resumed once'"}),
		agenttest.TextStep("done"),
	)
	home := t.TempDir()
	res := agenttest.RunCodexIn(t, r.dir, home, "look around", stub, r.env, 0)
	rollouts := func() map[string]int64 {
		out := map[string]int64{}
		filepath.Walk(filepath.Join(home, ".codex", "sessions"), func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				out[p] = fi.Size()
			}
			return nil
		})
		return out
	}
	first := rollouts()
	if len(stub.Scripted(t)) < 4 || len(first) != 1 {
		t.Fatalf("first run: %d steps, rollouts %v; exit %d\nstderr: %s", len(stub.Scripted(t)), first, res.ExitCode, res.Stderr)
	}
	res = agenttest.RunCodexIn(t, r.dir, home, "go on", stub, r.env, 0, "resume", "--last")
	reqs := stub.Scripted(t)
	if len(reqs) < 7 {
		t.Fatalf("resumed run: %d of 7 steps; exit %d\nstderr: %s", len(reqs), res.ExitCode, res.Stderr)
	}
	second := rollouts()
	t.Logf("rollouts after the first run %v, after the resumed run %v", first, second)
	t.Logf("session end answered: %.600s", reqs[6].NewText())
	show := r.onlySession()
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("honest resumed session recorded %d violation(s): %v", len(v), v)
	}
	b, _ := json.Marshal(show["events"])
	if strings.Contains(string(b), ":replaced") || strings.Contains(string(b), "TAMPERED") {
		t.Errorf("the resumed rollout was taken for a replaced or tampered one: %s", b)
	}
	// The end gate ran over the resumed rollout (it stops at QA, which
	// this script never did: the protocol's block, not the transcript's).
	if got := reqs[6].NewText(); !strings.Contains(got, "QA_VALIDATION") {
		t.Errorf("the resumed run's session end did not reach its gates:\n%.600s", got)
	}
}
