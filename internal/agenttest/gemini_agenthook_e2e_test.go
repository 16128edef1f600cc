package agenttest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// The same runtime behind the real Gemini CLI (`sessiongate install
// --agent gemini` writes .gemini/settings.json): a write_file before the
// start gates is denied and the reason reaches the model; after the start
// gates the shell command is observed evidence.
func TestGeminiAgentHooksDenyThenObserve(t *testing.T) {
	t.Parallel()
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
	if origins := evidenceOrigins(show); origins[session.OriginObserved] < 2 {
		t.Errorf("evidence origins %v: want git status and sh test.sh observed", origins)
	}
}

// (c) with the Gemini CLI: an agent that stops with work done and the end
// protocol undone is denied at AfterAgent max_stop_blocks times, then let
// go with an END_PROTOCOL_SKIPPED violation.
func TestGeminiAgentHooksBlockStopWithEndProtocolUndone(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	// Gemini CLI sends each AfterAgent deny as a new prompt, so BeforeAgent
	// fires again with the deny reason as its prompt
	// (TestGeminiAfterAgentRetryEvents); the runtime must take that for the
	// blocked turn going on, not for a new turn.
	const maxBlocks = 2
	r := newSGRepo(t, e2eProtocol, fmt.Sprintf("agent_hooks:\n  max_stop_blocks: %d\n", maxBlocks), "--agent", "gemini")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Say("stopping here"),
	)
	res := agenttest.RunGemini(t, r.dir, "add hello.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
	if res.ExitCode != 0 {
		t.Fatalf("run: exit %d error %s\nstderr: %s", res.ExitCode, res.Error, res.Stderr)
	}
	blocks := 0
	for _, req := range srv.Conversation() {
		if txt := req.NewText(); strings.Contains(txt, "end protocol has not completed") {
			blocks++
		}
	}
	if blocks != maxBlocks {
		t.Errorf("the stop was blocked %d times, want agent_hooks.max_stop_blocks = %d", blocks, maxBlocks)
	}
	show := r.onlySession()
	v, _ := show["violations"].([]any)
	if len(v) != 1 || !strings.Contains(fmt.Sprint(v[0]), "END_PROTOCOL_SKIPPED") {
		t.Errorf("violations %v: want one END_PROTOCOL_SKIPPED after the agent was let go", v)
	}
}

// The real Gemini CLI with the real filesystem MCP server: its tools are
// named mcp_filesystem_<tool>; write_file on a worktree file before the
// start gates is denied by sessiongate's BeforeTool hook and the file is
// not written; read_text_file runs.
func TestGeminiAgentHooksJudgeMCPWrites(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	fs := filepath.Join(agenttest.NodeBin(t), "mcp-server-filesystem")
	if _, err := os.Stat(fs); err != nil {
		agenttest.Missing(t, "mcp-server-filesystem not found in .ci/node/node_modules/.bin: run `npm ci` in .ci/node")
	}
	r := newSGRepo(t, e2eProtocol, "", "--agent", "gemini")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("mcp_filesystem_write_file", map[string]any{"path": filepath.Join(r.dir, "early.txt"), "content": "x\n"}),
		agenttest.Use("mcp_filesystem_read_text_file", map[string]any{"path": filepath.Join(r.dir, "test.sh")}),
		agenttest.Say("stopping here"),
	)
	res := agenttest.RunGemini(t, r.dir, "write early.txt", agenttest.GeminiOptions{Server: srv, Env: r.env,
		MCPServers: map[string]any{"filesystem": map[string]any{"command": fs, "args": []string{r.dir}, "trust": true}}})
	t.Logf("gemini run: %s, exit %d, response %q", res.Elapsed, res.ExitCode, res.Response)
	if srv.Used() < 3 {
		t.Fatalf("%d of 3 turns used; exit %d, error %s\nstderr: %s", srv.Used(), res.ExitCode, res.Error, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "early.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("mcp_filesystem_write_file before the start gates ran (stat: %v)", err)
	}
	conv := srv.Conversation()
	if txt := conv[1].NewText(); !strings.Contains(txt, "start gates") {
		t.Errorf("the deny reason did not reach the model: %s", txt)
	}
	if txt := conv[2].NewText(); !strings.Contains(txt, "hello.txt") {
		t.Errorf("read_text_file did not run: %s", txt)
	}
}

// An honest run of the real Gemini CLI: it checks git, advances, writes,
// tests, commits and ends through the CLI. The session is COMPLETE with no
// violation and no FAIL gate (a BYPASS was once recorded on exactly this
// run although nothing was bypassed).
func TestGeminiAgentHooksCompliant(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	r := newSGRepo(t, e2eProtocol, "", "--agent", "gemini")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sh test.sh"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session end --summary 'added hello.txt'"}),
		agenttest.Say("done"),
	)
	res := agenttest.RunGemini(t, r.dir, "add hello.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
	t.Logf("gemini run: %s, exit %d, response %q", res.Elapsed, res.ExitCode, res.Response)
	if srv.Used() < 7 {
		t.Fatalf("%d of 7 turns used; exit %d, error %s\nstderr: %s", srv.Used(), res.ExitCode, res.Error, res.Stderr)
	}
	for i, req := range srv.Conversation()[1:] {
		if txt := req.NewText(); strings.Contains(txt, "denied") || strings.Contains(txt, "blocked") {
			t.Errorf("tool call %d was denied: %s", i+1, txt)
		}
	}
	show := r.onlySession()
	if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", st)
	}
	if obj := show["session"].(map[string]any)["objective"]; obj != "add hello.txt" {
		t.Errorf("objective %q, want the first prompt without the hook context Gemini CLI puts before it", obj)
	}
	requireCleanSession(t, show)
}

// TestGeminiAgentHooksCommitAndEndOneLine: `git commit ... && sessiongate
// session end` in one Gemini CLI shell call. Git ran no hook (Gemini's
// shell switches them off) and the call's AfterTool comes after the
// session ended, so `session end` reconciled the honest commit as a
// CRITICAL BYPASS (measured on a17c3fbb). The CLI, run inside the call,
// now judges the call's commits first (agenthook.ShellCommitsJudge).
// Lazy twin: with QA a pre-commit gate, a commit without hello.txt (the
// tests fail) keeps its BYPASS.
func TestGeminiAgentHooksCommitAndEndOneLine(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	for _, tc := range []struct {
		name, file string
		bypass     int
	}{
		{"honest", "hello.txt", 0},
		{"lazy, the commit fails the tests", "world.txt", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newSGRepo(t, e2eProtocol, "hooks:\n  pre-commit: [QA_VALIDATION]\n", "--agent", "gemini")
			r.write("test.sh", e2eTest)
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "test script and agent hooks")
			srv := agenttest.NewGeminiServer(t,
				agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
				agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, tc.file), "content": "hello\n"}),
				agenttest.Use("run_shell_command", map[string]any{"command": "sh test.sh"}),
				agenttest.Use("run_shell_command", map[string]any{"command": "git add " + tc.file + " && git commit -q -m 'add " + tc.file + "' && sessiongate session end --summary 'added " + tc.file + "'"}),
				agenttest.Say("done"),
			)
			res := agenttest.RunGemini(t, r.dir, "add hello.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
			t.Logf("gemini run: %s, exit %d", res.Elapsed, res.ExitCode)
			if srv.Used() < 6 {
				t.Fatalf("%d of 6 turns used; exit %d, error %s\nstderr: %s", srv.Used(), res.ExitCode, res.Error, res.Stderr)
			}
			show := r.onlySession()
			v, _ := show["violations"].([]any)
			if n := strings.Count(fmt.Sprint(v), "BYPASS"); n != tc.bypass {
				t.Errorf("violations %v: %d BYPASS, want %d", v, n, tc.bypass)
			}
			if tc.bypass == 0 {
				if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
					t.Errorf("state %v, want COMPLETE", st)
				}
				requireCleanSession(t, show)
			}
		})
	}
}

// The lazy twin of TestGeminiAgentHooksCompliant: Gemini CLI switches git's
// hooks off in its shell, and sessiongate's AfterTool runs pre-commit for
// the commit instead. With QA_VALIDATION a pre-commit gate, a commit made
// without running the tests is still refused after the fact: the refusal
// and a BYPASS are recorded, and the commit is not the session's.
func TestGeminiAgentHooksHooksOffCommitStillJudged(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	r := newSGRepo(t, e2eProtocol, "hooks:\n  pre-commit: [QA_VALIDATION]\n", "--agent", "gemini")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
		agenttest.Say("done"),
	)
	res := agenttest.RunGemini(t, r.dir, "add hello.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
	if srv.Used() < 5 {
		t.Fatalf("%d of 5 turns used; exit %d, error %s\nstderr: %s", srv.Used(), res.ExitCode, res.Error, res.Stderr)
	}
	show := r.onlySession()
	v, _ := show["violations"].([]any)
	if !strings.Contains(fmt.Sprint(v), "BYPASS") {
		t.Errorf("violations %v: want a BYPASS for the untested commit git ran no hook for", v)
	}
	blocked := false
	for _, e := range show["events"].([]any) {
		if e.(map[string]any)["token"] == "hook:pre-commit:blocked" {
			blocked = true
		}
	}
	if !blocked {
		t.Errorf("no hook:pre-commit:blocked event: pre-commit did not judge the hooks-off commit")
	}
}

// TestGeminiAgentHooksTwoCommitsOneLine: Gemini CLI runs its shell with
// git's hooks off, and its AfterTool judged only the commit at HEAD, so an
// honest `git commit -m a && git commit -m b` left the first commit a
// CRITICAL BYPASS. Every commit of the call is judged now. The lazy twin
// (QA_VALIDATION a pre-commit gate, no tests run): both commits keep
// their refusal and their BYPASS.
func TestGeminiAgentHooksTwoCommitsOneLine(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	for _, tc := range []struct {
		name   string
		config string
		tests  bool
	}{
		{"honest", "", true},
		{"lazy, untested under a QA pre-commit gate", "hooks:\n  pre-commit: [QA_VALIDATION]\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newSGRepo(t, e2eProtocol, tc.config, "--agent", "gemini")
			r.write("test.sh", e2eTest)
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "test script and agent hooks")
			steps := []agenttest.Turn{
				agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
				agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
				agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "world.txt"), "content": "world\n"}),
			}
			if tc.tests {
				steps = append(steps, agenttest.Use("run_shell_command", map[string]any{"command": "sh test.sh"}))
			}
			steps = append(steps,
				agenttest.Use("run_shell_command", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt' && git add world.txt && git commit -q -m 'add world.txt'"}))
			if tc.tests {
				steps = append(steps, agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session end --summary 'added hello.txt and world.txt'"}))
			}
			steps = append(steps, agenttest.Say("done"))
			srv := agenttest.NewGeminiServer(t, steps...)
			res := agenttest.RunGemini(t, r.dir, "add hello.txt and world.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
			t.Logf("gemini run: %s, exit %d", res.Elapsed, res.ExitCode)
			if srv.Used() < len(steps) {
				t.Fatalf("%d of %d turns used; exit %d, error %s\nstderr: %s", srv.Used(), len(steps), res.ExitCode, res.Error, res.Stderr)
			}
			if n := strings.Count(r.git("log", "--format=%s", "-2"), "add "); n != 2 {
				t.Fatalf("%d of the 2 commits landed", n)
			}
			show := r.onlySession()
			if tc.tests {
				if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
					t.Errorf("state %v, want COMPLETE", st)
				}
				requireCleanSession(t, show)
				return
			}
			v, _ := show["violations"].([]any)
			if n := strings.Count(fmt.Sprint(v), "BYPASS"); n < 2 {
				t.Errorf("violations %v: want a BYPASS for each of the 2 untested commits", v)
			}
			blocked := 0
			for _, e := range show["events"].([]any) {
				if e.(map[string]any)["token"] == "hook:pre-commit:blocked" {
					blocked++
				}
			}
			if blocked < 2 {
				t.Errorf("%d hook:pre-commit:blocked events, want 2: each hooks-off commit judged", blocked)
			}
		})
	}
}

// TestGeminiAgentHooksEarlierCommitOwnTree: the real Gemini CLI makes two
// commits in one shell line under a command QA gate at pre-commit
// (`sh test.sh`, which passes once hello.txt exists). Lazy: the first
// commit lacks hello.txt (the tests fail on it) and the second adds it;
// the first commit's gate ran in the work tree, which has it, and passed.
// It now runs in a checkout of the first commit: one refusal, one BYPASS,
// naming the first commit. Honest twin: hello.txt in the first commit,
// both pass, no violation.
func TestGeminiAgentHooksEarlierCommitOwnTree(t *testing.T) {
	t.Parallel()
	geminiTwoCommits(t, 0, e2eTest)
}

// TestGeminiAgentHooksCutShortJudgeResumes: Gemini CLI ends a hook at its
// timeout with SIGTERM. ci20 (load 13) ended the AfterTool hook while it
// judged the two commits of TestGeminiAgentHooksEarlierCommitOwnTree, and
// the honest second commit was charged a CRITICAL BYPASS. Here the
// AfterTool hook is given 3 s in .gemini/settings.json and the tests take
// 5 s, so Gemini CLI ends every judge of it; the AfterAgent hook after it
// judges what is left. (With 400 ms a loaded machine also ended the
// AfterTool that records the agent's own `sh test.sh`, and the honest
// commit had no QA evidence: a limit only a test sets.) Honest: no BYPASS; lazy: one, naming
// the first commit. On the code before resumeHooksOff the honest run had
// its BYPASS (measured with the whole install at 300 ms).
func TestGeminiAgentHooksCutShortJudgeResumes(t *testing.T) {
	t.Parallel()
	geminiTwoCommits(t, 3000, "sleep 5\n"+e2eTest)
}

// geminiTwoCommits runs the two-commit line of
// TestGeminiAgentHooksEarlierCommitOwnTree, honest and lazy, with test as
// test.sh; afterToolMS > 0 sets the AfterTool hook's timeout in the
// installed .gemini/settings.json (committed before the session).
func geminiTwoCommits(t *testing.T, afterToolMS int, test string) {
	requireAgentHook(t)
	for _, tc := range []struct {
		name   string
		first  string // committed first; the other second
		bypass int
	}{
		{"lazy, first commit fails the tests", "world.txt", 1},
		{"honest, both pass", "hello.txt", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newSGRepo(t, e2eProtocol, "hooks:\n  pre-commit: [QA_VALIDATION]\ncommands:\n  QA_VALIDATION: \"sh test.sh\"\n", "--agent", "gemini")
			r.write("test.sh", test)
			if afterToolMS > 0 {
				setGeminiTimeout(t, r, "AfterTool", afterToolMS)
			}
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "test script and agent hooks")
			second := map[string]string{"world.txt": "hello.txt", "hello.txt": "world.txt"}[tc.first]
			steps := []agenttest.Turn{
				agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
				agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
				agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "world.txt"), "content": "world\n"}),
				// The tests pass on the work tree (QA's evidence gate is met).
				agenttest.Use("run_shell_command", map[string]any{"command": "sh test.sh"}),
				agenttest.Use("run_shell_command", map[string]any{"command": "git add " + tc.first + " && git commit -q -m 'add " + tc.first + "' && git add " + second + " && git commit -q -m 'add " + second + "'"}),
				agenttest.Say("done"),
			}
			srv := agenttest.NewGeminiServer(t, steps...)
			res := agenttest.RunGemini(t, r.dir, "add hello.txt and world.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
			t.Logf("gemini run: %s, exit %d", res.Elapsed, res.ExitCode)
			if srv.Used() < len(steps) {
				t.Fatalf("%d of %d turns used; exit %d, error %s\nstderr: %s", srv.Used(), len(steps), res.ExitCode, res.Error, res.Stderr)
			}
			first := strings.TrimSpace(r.git("rev-parse", "HEAD~1"))
			show := r.onlySession()
			v, _ := show["violations"].([]any)
			if n := strings.Count(fmt.Sprint(v), "BYPASS"); n != tc.bypass {
				t.Errorf("violations %v: %d BYPASS, want %d", v, n, tc.bypass)
				// What each hook recorded, to tell a judge cut short from
				// evidence never recorded (a loaded CI).
				evs, _ := show["events"].([]any)
				for _, e := range evs {
					if m, ok := e.(map[string]any); ok {
						t.Logf("event %v %v %.200v", m["created_at"], m["token"], m["detail"])
					}
				}
			}
			if tc.bypass > 0 && !strings.Contains(fmt.Sprint(v), first[:7]) {
				t.Errorf("violations %v do not name the first commit %s", v, first[:7])
			}
			if wt := r.git("worktree", "list"); strings.Count(strings.TrimSpace(wt), "\n") > 0 {
				t.Errorf("a checkout was left behind:\n%s", wt)
			}
		})
	}
}

// setGeminiTimeout sets the timeout (ms) of sessiongate's hook for event
// in the repository's .gemini/settings.json.
func setGeminiTimeout(t *testing.T, r *sgRepo, event string, ms int) {
	t.Helper()
	path := filepath.Join(r.dir, ".gemini", "settings.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	hooks, _ := cfg["hooks"].(map[string]any)
	groups, _ := hooks[event].([]any)
	set := 0
	for _, g := range groups {
		hs, _ := g.(map[string]any)["hooks"].([]any)
		for _, h := range hs {
			if hm := h.(map[string]any); strings.Contains(fmt.Sprint(hm["command"]), "sessiongate agent-hook gemini") {
				hm["timeout"] = ms
				set++
			}
		}
	}
	if set != 1 {
		t.Fatalf("%d sessiongate hooks for %s in %s, want 1", set, event, b)
	}
	if b, err = json.MarshalIndent(cfg, "", "  "); err != nil {
		t.Fatal(err)
	}
	r.write(".gemini/settings.json", string(b)+"\n")
}
