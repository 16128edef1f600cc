package agenttest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// Round 24 (c4): an honest agent doing an ordinary task end to end under
// the v3.0-style protocol (protocolspec/testdata/v3-style.md: unmarked end
// phases, imperative sentences, an evidence table), through the real Codex
// CLI and Copilot CLI with `sessiongate install --agent`. It reads the
// protocol and the handoff, records the task, checks the branch, edits the
// script and its test with the CLI's own edit tool, runs the project's
// tests, writes its handoff from the template, re-verifies the branch,
// commits with a conventional message and ends. Counted: calls a hook
// denied, FAIL gates, violations, end state; every one must be 0 / COMPLETE.

const (
	v3GreetOld      = "#!/bin/sh\n# greet prints a greeting.\necho \"hello\"\n"
	v3GreetNew      = "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	v3TestOld       = "#!/bin/sh\nset -e\n[ \"$(sh scripts/greet.sh)\" = hello ]\necho 'PASS: greet (1 test)'\n"
	v3TestNew       = "#!/bin/sh\nset -e\n[ \"$(sh scripts/greet.sh)\" = hello ]\nfor n in Ada Bob; do [ \"$(sh scripts/greet.sh \"$n\")\" = \"hello $n\" ]; done\necho 'PASS: greet (3 tests)'\n"
	v3Handoff24     = ".agents/handoffs/2026-12-01-01.md"
	v3Handoff24Body = "# Handoff 2026-12-01-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks two names.\n\n" +
		"## Next\n\nDocument the name argument in the README.\n"
)

// v3AgentRepo is a repository that adopted sessiongate with the v3.0-style
// protocol (`sessiongate init` picked the test command) and installed the
// agent's hooks, on main as a clone starts.
func v3AgentRepo(t *testing.T, agent string) *sgRepo {
	t.Helper()
	requireAgentHook(t)
	doc, err := os.ReadFile(filepath.Join(agenttest.ModuleRoot(t), "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	r := &sgRepo{t: t, dir: gitRepo(t)}
	r.env = []string{agenttest.PrependPath(sgBin), "SESSIONGATE_DB=" + filepath.Join(t.TempDir(), "sessiongate.db")}
	r.write("SESSION-PROTOCOL.md", string(doc))
	r.write(".agents/HANDOFF.md", "# Handoff\n\n## Next\n\n- Add a name argument to the greeting script.\n")
	r.write(".agents/handoffs/.gitkeep", "")
	r.write("scripts/greet.sh", v3GreetOld)
	r.write("scripts/test.sh", v3TestOld)
	if out, code := r.sg("init"); code != 0 {
		t.Fatalf("sessiongate init: exit %d\n%s", code, out)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "chore: adopt the v3.0 protocol")
	r.install("--agent", agent)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "chore: agent hooks")
	return r
}

// v3HonestShell is the honest agent's shell calls, in order, around the
// edits (marked "EDIT", "HANDOFF" here, made with the CLI's edit tools).
var v3HonestShell = []string{
	"cat SESSION-PROTOCOL.md",
	"sessiongate session status",
	"cat .agents/HANDOFF.md",
	"sessiongate session evidence --phase CONTEXT_RETRIEVAL --requirement read-issue-task-were --type tool_output --value 'task: add a name argument to the greeting script'",
	"git switch -c feat/greet-name",
	"sessiongate session advance",
	"git branch --show-current",
	"sessiongate session advance",
	"sessiongate session advance --to WORKING",
	"EDIT",
	"sh scripts/test.sh",
	"HANDOFF",
	"sessiongate session evidence --phase HANDOFF --type file_path --value " + v3Handoff24,
	"git branch --show-current",
	"git add -A && git commit -q -m 'feat(scripts): greet takes an optional name'",
	"git status --short",
	"sessiongate session end --summary 'greet takes an optional name; tests cover two names' --notes 'document the name argument in the README'",
}

// v3Script is v3HonestShell as one CLI's calls: the edits and the
// handoff written with its own edit tools, every other line through
// its shell tool.
func v3Script[T any](edit, handoff []T, shell func(cmd string) T) []T {
	var out []T
	for _, cmd := range v3HonestShell {
		switch cmd {
		case "EDIT":
			out = append(out, edit...)
		case "HANDOFF":
			out = append(out, handoff...)
		default:
			out = append(out, shell(cmd))
		}
	}
	return out
}

// logRequestsOnFailure logs what the CLI sent the model, for a failed run.
func logRequestsOnFailure(t *testing.T, texts []string) {
	t.Cleanup(func() {
		if t.Failed() {
			for i, q := range texts {
				t.Logf("request %d: %.1500s", i, q)
			}
		}
	})
}

// honestCount is what an honest run must not produce.
type honestCount struct{ denied, failChecks, violations int }

func countHonest(t *testing.T, show map[string]any, texts []string, denyMark string) honestCount {
	t.Helper()
	var c honestCount
	for _, s := range texts {
		c.denied += strings.Count(s, denyMark)
	}
	if v, _ := show["violations"].([]any); v != nil {
		c.violations = len(v)
	}
	phases, _ := show["phase_results"].([]any)
	for _, p := range phases {
		m, _ := p.(map[string]any)
		if st, _ := m["status"].(string); st == "FAILED" || st == "FORCED" {
			c.failChecks++
		}
		checks, _ := m["checks"].([]any)
		for _, ch := range checks {
			if cm, _ := ch.(map[string]any); cm["status"] == "FAIL" {
				c.failChecks++
			}
		}
	}
	return c
}

func TestCodexHonestV3Task(t *testing.T) {
	t.Parallel()
	r := v3AgentRepo(t, "codex")
	handoff := "*** Begin Patch\n*** Add File: " + v3Handoff24 + "\n"
	for _, l := range strings.Split(strings.TrimSuffix(v3Handoff24Body, "\n"), "\n") {
		handoff += "+" + l + "\n"
	}
	steps := v3Script(
		[]agenttest.Step{agenttest.ToolStep("apply_patch", "*** Begin Patch\n*** Update File: scripts/greet.sh\n@@\n-# greet prints a greeting.\n-echo \"hello\"\n+# greet prints a greeting, to $1 when given.\n+echo \"hello${1:+ $1}\"\n*** Update File: scripts/test.sh\n@@\n [ \"$(sh scripts/greet.sh)\" = hello ]\n-echo 'PASS: greet (1 test)'\n+for n in Ada Bob; do [ \"$(sh scripts/greet.sh \"$n\")\" = \"hello $n\" ]; done\n+echo 'PASS: greet (3 tests)'\n*** End Patch\n")},
		[]agenttest.Step{agenttest.ToolStep("apply_patch", handoff+"*** End Patch\n")},
		func(cmd string) agenttest.Step { return agenttest.ToolStep("exec_command", map[string]any{"cmd": cmd}) })
	steps = append(steps, agenttest.TextStep("done"))
	stub := agenttest.StartOpenAIStub(t, steps...)
	res := agenttest.RunCodex(t, r.dir, "Add a name argument to the greeting script, following SESSION-PROTOCOL.md", stub, r.env, 0)
	var texts []string
	for _, q := range stub.Requests(t) {
		texts = append(texts, q.NewText())
	}
	logRequestsOnFailure(t, texts)
	requireHonestV3(t, r, res, texts, "blocked by PreToolUse hook", len(steps))
}

func TestCopilotHonestV3Task(t *testing.T) {
	t.Parallel()
	r := v3AgentRepo(t, "copilot")
	steps := v3Script(
		[]agenttest.Step{
			agenttest.ToolStep("edit", map[string]any{"path": filepath.Join(r.dir, "scripts/greet.sh"), "old_str": "# greet prints a greeting.\necho \"hello\"\n", "new_str": "# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"}),
			agenttest.ToolStep("edit", map[string]any{"path": filepath.Join(r.dir, "scripts/test.sh"), "old_str": "echo 'PASS: greet (1 test)'\n", "new_str": "for n in Ada Bob; do [ \"$(sh scripts/greet.sh \"$n\")\" = \"hello $n\" ]; done\necho 'PASS: greet (3 tests)'\n"})},
		[]agenttest.Step{agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, v3Handoff24), "file_text": v3Handoff24Body})},
		func(cmd string) agenttest.Step {
			return agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "run " + cmd})
		})
	steps = append(steps, agenttest.TextStep("done"))
	stub := agenttest.StartOpenAIStub(t, steps...)
	res := agenttest.RunCopilot(t, r.dir, "Add a name argument to the greeting script, following SESSION-PROTOCOL.md", stub, r.env, 0)
	var texts []string
	for _, q := range stub.Requests(t) {
		texts = append(texts, q.NewText())
	}
	logRequestsOnFailure(t, texts)
	requireHonestV3(t, r, res, texts, "Denied by preToolUse hook", len(steps))
}

// requireHonestV3 checks the run's end state and counts.
func requireHonestV3(t *testing.T, r *sgRepo, res agenttest.CLIResult, texts []string, denyMark string, steps int) {
	t.Helper()
	t.Logf("run: %s, exit %d, %d requests", res.Elapsed, res.ExitCode, len(texts))
	if got := r.read(filepath.Join("scripts", "greet.sh")); got != v3GreetNew {
		t.Errorf("the edit did not land: scripts/greet.sh is\n%s", got)
	}
	show := r.onlySession()
	c := countHonest(t, show, texts, denyMark)
	state := show["session"].(map[string]any)["state"]
	t.Logf("honest v3 counts: denied %d, FAIL gates/checks %d, violations %d, state %v", c.denied, c.failChecks, c.violations, state)
	if c.denied != 0 {
		t.Errorf("%d honest call(s) denied by a hook", c.denied)
	}
	if state != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", state)
	}
	requireCleanSession(t, show)
	if t.Failed() {
		for _, e := range evidence(show) {
			t.Logf("evidence: %.300v", e)
		}
	}
	if len(texts) < steps {
		t.Errorf("%d requests for %d steps: the run stopped early\nstdout: %.3000s\nstderr: %.3000s", len(texts), steps, res.Stdout, res.Stderr)
	}
	if log := r.git("log", "-1", "--format=%s"); log != "feat(scripts): greet takes an optional name" {
		t.Errorf("last commit %q, want the agent's", log)
	}
}

// read is a file of the work tree ("" when it is missing).
func (r *sgRepo) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(r.dir, rel))
	return string(b)
}

// The same honest task through the real Claude Code (Edit, Write, Bash)
// and Gemini CLI (replace, write_file, run_shell_command).
func TestClaudeHonestV3Task(t *testing.T) {
	t.Parallel()
	r := v3AgentRepo(t, "claude")
	turns := v3Script(
		[]agenttest.Turn{
			agenttest.Use("Read", map[string]any{"file_path": filepath.Join(r.dir, "scripts/greet.sh")}),
			agenttest.Use("Edit", map[string]any{"file_path": filepath.Join(r.dir, "scripts/greet.sh"), "old_string": "# greet prints a greeting.\necho \"hello\"\n", "new_string": "# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"}),
			agenttest.Use("Read", map[string]any{"file_path": filepath.Join(r.dir, "scripts/test.sh")}),
			agenttest.Use("Edit", map[string]any{"file_path": filepath.Join(r.dir, "scripts/test.sh"), "old_string": "echo 'PASS: greet (1 test)'\n", "new_string": "for n in Ada Bob; do [ \"$(sh scripts/greet.sh \"$n\")\" = \"hello $n\" ]; done\necho 'PASS: greet (3 tests)'\n"})},
		[]agenttest.Turn{agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, v3Handoff24), "content": v3Handoff24Body})},
		func(cmd string) agenttest.Turn { return agenttest.Use("Bash", map[string]any{"command": cmd}) })
	turns = append(turns, agenttest.Say("done"))
	srv := agenttest.NewClaudeServer(t, turns...)
	res := r.claude("Add a name argument to the greeting script, following SESSION-PROTOCOL.md", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Read", "Edit", "Write", "Bash"}})
	var texts []string
	for _, q := range srv.Conversation() {
		texts = append(texts, q.NewText())
	}
	requireHonestV3(t, r, agenttest.CLIResult{Stderr: res.Stderr, ExitCode: res.ExitCode, Elapsed: res.Elapsed}, texts, "hook error: sessiongate", len(turns))
}

func TestGeminiHonestV3Task(t *testing.T) {
	t.Parallel()
	r := v3AgentRepo(t, "gemini")
	turns := v3Script(
		[]agenttest.Turn{
			agenttest.Use("replace", map[string]any{"file_path": filepath.Join(r.dir, "scripts/greet.sh"), "old_string": "# greet prints a greeting.\necho \"hello\"\n", "new_string": "# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n", "instruction": "take an optional name"}),
			agenttest.Use("replace", map[string]any{"file_path": filepath.Join(r.dir, "scripts/test.sh"), "old_string": "echo 'PASS: greet (1 test)'\n", "new_string": "for n in Ada Bob; do [ \"$(sh scripts/greet.sh \"$n\")\" = \"hello $n\" ]; done\necho 'PASS: greet (3 tests)'\n", "instruction": "check two names"})},
		[]agenttest.Turn{agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, v3Handoff24), "content": v3Handoff24Body})},
		func(cmd string) agenttest.Turn {
			return agenttest.Use("run_shell_command", map[string]any{"command": cmd})
		})
	turns = append(turns, agenttest.Say("done"))
	srv := agenttest.NewGeminiServer(t, turns...)
	res := agenttest.RunGemini(t, r.dir, "Add a name argument to the greeting script, following SESSION-PROTOCOL.md", agenttest.GeminiOptions{Server: srv, Env: r.env})
	var texts []string
	for _, q := range srv.Conversation() {
		texts = append(texts, q.NewText())
	}
	logRequestsOnFailure(t, texts)
	requireHonestV3(t, r, agenttest.CLIResult{Stderr: res.Stderr, ExitCode: res.ExitCode, Elapsed: res.Elapsed}, texts, "Tool execution blocked", len(turns))
}
