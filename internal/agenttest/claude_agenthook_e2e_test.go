package agenttest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// Issue 10 end to end: the real Claude Code with sessiongate's agent hooks
// (`sessiongate install --agent claude` writes .claude/settings.json whose
// commands are `sessiongate agent-hook claude <Event>`, found on PATH),
// the real git hooks, and the scripted model playing a compliant or a
// non-compliant agent.

// requireAgentHook skips while the agent-hook runtime is not built into
// sessiongate (it lands separately); the harness itself is tested above.
func requireAgentHook(t testing.TB) {
	t.Helper()
	r := &sgRepo{t: t, dir: t.TempDir()}
	if out, code := r.sg("agent-hook", "--help"); code != 0 || !strings.Contains(out, "agent-hook") {
		t.Skipf("agent-hook runtime not on main yet (sessiongate agent-hook --help: exit %d)", code)
	}
}

// hookedRepo is newSGRepo with the git hooks and the Claude Code agent
// hooks installed, and the test script committed.
func hookedRepo(t testing.TB, config string) *sgRepo {
	return installedRepo(t, config, "--agent", "claude", "--mcp", "claude")
}

// installedRepo is newSGRepo with the e2e protocol, the test script and
// install args; with --agent claude it checks the hook config it wrote.
func installedRepo(t testing.TB, config string, install ...string) *sgRepo {
	t.Helper()
	requireAgentHook(t)
	r := newSGRepo(t, e2eProtocol, config, install...)
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	if !strings.Contains(strings.Join(install, " "), "--agent claude") {
		return r
	}
	b, err := os.ReadFile(filepath.Join(r.dir, ".claude", "settings.json"))
	if err != nil {
		t.Fatalf("install --agent claude wrote no .claude/settings.json: %v", err)
	}
	if !strings.Contains(string(b), "sessiongate agent-hook claude") || strings.Contains(string(b), sgBin) {
		t.Fatalf(".claude/settings.json should call `sessiongate agent-hook claude ...` from PATH:\n%s", b)
	}
	return r
}

// onlySession returns the one sessiongate session the run created.
func (r *sgRepo) onlySession() map[string]any {
	r.t.Helper()
	out, code := r.sg("session", "list", "--json")
	if code != 0 {
		r.t.Fatalf("session list: exit %d\n%s", code, out)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		r.t.Fatalf("session list --json: %v\n%s", err, out)
	}
	list = slices.DeleteFunc(list, func(m map[string]any) bool { id, _ := m["id"].(string); return slices.Contains(r.earlier, id) })
	if len(list) != 1 {
		r.t.Fatalf("%d sessions, want the one the agent hooks started:\n%s", len(list), out)
	}
	id, _ := list[0]["id"].(string)
	return r.show(id)
}

// evidence is the session's evidence rows from `session show --json`.
func evidence(show map[string]any) []map[string]any {
	var out []map[string]any
	ev, _ := show["evidence"].([]any)
	for _, e := range ev {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func evidenceOrigins(show map[string]any) map[session.EvidenceOrigin]int {
	out := map[session.EvidenceOrigin]int{}
	for _, e := range evidence(show) {
		o, _ := e["origin"].(string)
		out[session.EvidenceOrigin(o)]++
	}
	return out
}

// observedRun is the last observed evidence of cmd, or nil.
func observedRun(show map[string]any, cmd string) map[string]any {
	var last map[string]any
	for _, e := range evidence(show) {
		if e["origin"] == string(session.OriginObserved) && e["command"] == cmd {
			last = e
		}
	}
	return last
}

// (a) A compliant agent: the hooks start the session, its `git status`
// and test run are observed evidence, it advances, edits, commits and ends
// through the CLI; COMPLETE, no force, no violation, no claimed evidence.
func TestClaudeAgentHooksCompliant(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
		agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'added hello.txt'"}),
		agenttest.Say("done"),
	)
	const prompt = "add hello.txt"
	res := r.claude(prompt, agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}})
	if res.ExitCode != 0 || res.Result != "done" || srv.Used() != 7 {
		t.Fatalf("run: exit %d result %q, %d of 7 turns\nstderr: %s", res.ExitCode, res.Result, srv.Used(), res.Stderr)
	}
	conv := srv.Conversation()
	if !conv[0].Contains("GIT_STATE") {
		t.Errorf("SessionStart context does not name the phase the session waits at (GIT_STATE)")
	}
	for i, req := range conv[1:] {
		if txt := req.NewText(); strings.Contains(txt, "is_error") {
			t.Errorf("tool call %d failed or was denied: %s", i+1, txt)
		}
	}
	show := r.onlySession()
	sess := show["session"].(map[string]any)
	if sess["state"] != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", sess["state"])
	}
	if sess["objective"] != prompt {
		t.Errorf("objective %q, want the first prompt %q", sess["objective"], prompt)
	}
	requireCleanSession(t, show)
	// No padding: the agent recorded no evidence; the phases passed on what
	// sessiongate saw run. (The post-commit hook's commit record is stored
	// with the default origin; it is sessiongate's own, not the agent's.)
	for _, e := range evidence(show) {
		if e["origin"] != string(session.OriginObserved) && !(e["kind"] == "commit_sha" && e["step"] == "post-commit") {
			t.Errorf("evidence the agent did not run: %v", e)
		}
	}
	for cmd, phase := range map[string]string{"git status": "GIT_STATE", "sh test.sh": "QA_VALIDATION"} {
		if e := observedRun(show, cmd); e == nil || e["phase"] != phase || e["exit_code"] != 0.0 {
			t.Errorf("observed %q: %v, want phase %s exit 0", cmd, e, phase)
		}
	}
	if log := r.git("log", "-1", "--format=%B"); !strings.Contains(log, "Session-Id: "+sess["id"].(string)) {
		t.Errorf("commit carries no Session-Id trailer:\n%s", log)
	}
}

// (b) An agent that edits before the start gates pass: the Write and a
// git commit are denied, the reason names the gate and the next step and
// reaches the model; reading stays allowed; a turn that changed nothing
// is not blocked at stop.
func TestClaudeAgentHooksDenyEditsBeforeStartGates(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("Bash", map[string]any{"command": "git commit --allow-empty -q -m sneaky"}),
		agenttest.Use("Bash", map[string]any{"command": "cat test.sh"}),
		agenttest.Say("giving up"),
	)
	res := r.claude("add hello.txt", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}})
	if res.ExitCode != 0 || res.Result != "giving up" || srv.Used() != 4 {
		t.Fatalf("run: exit %d result %q, %d of 4 turns\nstderr: %s", res.ExitCode, res.Result, srv.Used(), res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "hello.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the denied Write created hello.txt (stat: %v)", err)
	}
	if n := r.git("rev-list", "--count", "HEAD"); n != "3" {
		t.Errorf("%s commits, want 3: the denied git commit ran", n)
	}
	conv := srv.Conversation()
	// Claude Code words a PreToolUse deny "PreToolUse:<tool> hook error:
	// <reason>"; the git pre-commit hook would also refuse the commit, but
	// the agent hook must stop it before git runs.
	for i, what := range []string{"PreToolUse:Write", "PreToolUse:Bash"} {
		txt := conv[i+1].NewText()
		if !strings.Contains(txt, what) || !strings.Contains(txt, "GIT_STATE") || !strings.Contains(txt, "sessiongate session") {
			t.Errorf("%s: the model was not told it is denied, by which gate and what to do next:\n%s", what, txt)
		}
	}
	if txt := conv[3].NewText(); strings.Contains(txt, "is_error") || !strings.Contains(txt, "test -f hello.txt") {
		t.Errorf("reading a file was not allowed before the start gates:\n%s", txt)
	}
	if strings.Contains(conv[len(conv)-1].AllText(), "Stop hook feedback") {
		t.Errorf("a turn that changed nothing was blocked at stop")
	}
}

// stopFeedback counts the requests in which Claude Code passed a Stop
// hook's block to the model, and returns the last block's text.
func stopFeedback(srv *agenttest.ClaudeServer) (int, string) {
	n, last := 0, ""
	for _, req := range srv.Conversation() {
		if txt := req.NewText(); strings.Contains(txt, "Stop hook feedback") {
			n, last = n+1, txt
		}
	}
	return n, last
}

// (c) An agent that stops with the end protocol undone after changing a
// file: the stop is blocked with the reason and the next step, again on
// each try, until the configured number of blocks; then it may stop and a
// violation is recorded.
func TestClaudeAgentHooksBlockStopWithEndProtocolUndone(t *testing.T) {
	t.Parallel()
	const maxBlocks = 2 // the default is 3
	r := hookedRepo(t, fmt.Sprintf("agent_hooks:\n  max_stop_blocks: %d\n", maxBlocks))
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Say("done"),
		// Past the script every request is answered "done." again: an
		// agent that keeps trying to stop.
	)
	res := r.claude("add hello.txt", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}})
	if res.ExitCode != 0 {
		t.Fatalf("run: exit %d result %q\nstderr: %s", res.ExitCode, res.Result, res.Stderr)
	}
	blocks, last := stopFeedback(srv)
	if blocks == 0 {
		t.Fatalf("the stop was never blocked although hello.txt changed and the end gates were not met")
	}
	if blocks != maxBlocks {
		t.Errorf("the stop was blocked %d times, want agent_hooks.max_stop_blocks = %d", blocks, maxBlocks)
	}
	if !strings.Contains(last, "QA_VALIDATION") || !strings.Contains(last, "sessiongate session") {
		t.Errorf("the block does not name the end gate and the next step:\n%s", last)
	}
	show := r.onlySession()
	if st := show["session"].(map[string]any)["state"]; st == string(session.StateComplete) {
		t.Errorf("state %v: the end protocol never ran", st)
	}
	v, _ := show["violations"].([]any)
	if len(v) != 1 || !strings.Contains(fmt.Sprint(v[0]), "END_PROTOCOL_SKIPPED") {
		t.Errorf("violations %v: want one END_PROTOCOL_SKIPPED after the agent was let go", v)
	}
}

// (d) An agent that claims a passing test run the hooks saw fail, or never
// saw at all: the observed evidence disagrees with the claim, and the QA
// gate must not pass on the claim.
func TestClaudeAgentHooksClaimedTestRunDoesNotPass(t *testing.T) {
	t.Parallel()
	testRun := agenttest.Use("Bash", map[string]any{"command": "sh test.sh"})
	claim := agenttest.Use("Bash", map[string]any{"command": "sessiongate session evidence --phase QA_VALIDATION --type tool_output --value 'all tests passed'"})
	cases := []struct {
		name string
		run  []agenttest.Turn // between the edit and the commit
		want string           // what the observed record shows
		why  string           // what session end says
	}{
		{"failed run claimed as passing", []agenttest.Turn{testRun, claim}, "exit 1", `the last observed run of "sh test.sh" for QA_VALIDATION exited 1`},
		{"failed run, nothing claimed", []agenttest.Turn{testRun}, "exit 1", `the last observed run of "sh test.sh" for QA_VALIDATION exited 1`},
		{"run never made, claimed as passing", []agenttest.Turn{claim}, "no observed run", "QA_VALIDATION needs observed evidence"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The project demands that its tests were seen to run.
			r := hookedRepo(t, "observed: [QA_VALIDATION]\n")
			turns := []agenttest.Turn{
				agenttest.Use("Bash", map[string]any{"command": "git status"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				// hello.txt is not written: test.sh fails.
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "other.txt"), "content": "other\n"}),
			}
			turns = append(turns, c.run...)
			turns = append(turns,
				agenttest.Use("Bash", map[string]any{"command": "git add other.txt && git commit -q -m 'add other.txt'"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'tests pass'"}),
				agenttest.Say("done"),
			)
			srv := agenttest.NewClaudeServer(t, turns...)
			res := r.claude("add other.txt", agenttest.ClaudeOptions{
				Server: srv, AllowedTools: []string{"Write", "Bash"},
			})
			if res.ExitCode != 0 || srv.Used() < len(turns) {
				t.Fatalf("run: exit %d, %d of %d turns\nstderr: %s", res.ExitCode, srv.Used(), len(turns), res.Stderr)
			}
			show := r.onlySession()
			ran := c.want != "no observed run"
			if e := observedRun(show, "sh test.sh"); (e != nil) != ran || e != nil && e["exit_code"] != 1.0 {
				t.Fatalf("observed sh test.sh: %v, want %s", e, c.want)
			}
			if st := show["session"].(map[string]any)["state"]; st == string(session.StateComplete) {
				t.Errorf("the session ended COMPLETE on a claimed test run (%s)", c.want)
			}
			endTxt := srv.Conversation()[len(turns)-1].NewText()
			if !strings.Contains(endTxt, "is_error") || !strings.Contains(endTxt, c.why) {
				t.Errorf("session end did not fail at QA_VALIDATION with %q:\n%s", c.why, endTxt)
			}
		})
	}
}

// (a) over MCP: the agent hooks start the session and name it in the
// context; the agent advances and ends it with the MCP tools (no
// session_start), its shell commands are the evidence. One session,
// COMPLETE, no violation, nothing claimed.
func TestClaudeAgentHooksCompliantOverMCP(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	s := &sessionScript{}
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		s.use("mcp__sessiongate__advance_phase", func(id string) map[string]any {
			return map[string]any{"session_id": id, "target_phase": string(session.StateWorking)}
		}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
		agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
		s.use("mcp__sessiongate__session_end", func(id string) map[string]any {
			return map[string]any{"session_id": id, "summary": "added hello.txt"}
		}),
		agenttest.Say("done"),
	)
	res := r.claude("add hello.txt", agenttest.ClaudeOptions{Server: srv, MCPConfig: ".mcp.json", AllowedTools: mcpTools})
	if res.ExitCode != 0 || res.Result != "done" || srv.Used() != 7 {
		t.Fatalf("run: exit %d result %q, %d of 7 turns\nstderr: %s", res.ExitCode, res.Result, srv.Used(), res.Stderr)
	}
	for i, req := range srv.Conversation()[1:] {
		if txt := req.NewText(); strings.Contains(txt, "is_error") || strings.Contains(txt, "Stop hook feedback") {
			t.Errorf("tool call %d failed, was denied or the stop was blocked: %s", i+1, txt)
		}
	}
	show := r.onlySession()
	if id := show["session"].(map[string]any)["id"]; id != s.id {
		t.Errorf("the MCP calls named session %q, the hooks started %v", s.id, id)
	}
	if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", st)
	}
	requireCleanSession(t, show)
	if o := evidenceOrigins(show); o[session.OriginObserved] < 3 || o[session.OriginClaimed] > 1 {
		t.Errorf("evidence origins %v: want the shell commands observed, nothing claimed by the agent", o)
	}
}

// The policed agent cannot weaken the police: after the start gates, a
// Write to the protocol and an Edit of the agent hook config are denied,
// the reason reaches the model, and the files are unchanged.
func TestClaudeAgentHooksDenyProtectedEdits(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	protocol := filepath.Join(r.dir, "SESSION-PROTOCOL.md")
	settings := filepath.Join(r.dir, ".claude", "settings.json")
	before := map[string][]byte{}
	for _, p := range []string{protocol, settings} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		before[p] = b
	}
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Write", map[string]any{"file_path": protocol, "content": "# Session Protocol\n"}),
		agenttest.Use("Edit", map[string]any{"file_path": settings, "old_string": "sessiongate agent-hook claude Stop", "new_string": "true"}),
		agenttest.Say("gave up"),
	)
	res := r.claude("make the protocol easier", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash"}})
	if res.ExitCode != 0 || srv.Used() < 5 {
		t.Fatalf("run: exit %d, %d of 5 turns\nstderr: %s", res.ExitCode, srv.Used(), res.Stderr)
	}
	conv := srv.Conversation()
	for i, what := range []string{"PreToolUse:Write", "PreToolUse:Edit"} {
		if txt := conv[i+3].NewText(); !strings.Contains(txt, what) || !strings.Contains(strings.ToLower(txt), "protect") {
			t.Errorf("%s of a protected file: the model was not told it is protected:\n%s", what, txt)
		}
	}
	for p, b := range before {
		if got, _ := os.ReadFile(p); string(got) != string(b) {
			t.Errorf("%s changed although the edit was denied", p)
		}
	}
}

// An MCP server's file-writing tool is an edit like Write: real Claude
// Code with the real filesystem MCP server (npm
// @modelcontextprotocol/server-filesystem) and sessiongate's agent hooks;
// write_file on a worktree file before the start gates is denied (the
// file is not written, the reason reaches the model), and write_file on
// the protocol is denied after them too; read_file is never stopped.
func TestClaudeAgentHooksJudgeMCPWrites(t *testing.T) {
	t.Parallel()
	// The stop is not what this test is about (late.txt is work whose end
	// protocol never runs): let it through.
	r := hookedRepo(t, "agent_hooks:\n  max_stop_blocks: 0\n")
	fs := filepath.Join(agenttest.NodeBin(t), "mcp-server-filesystem")
	if _, err := os.Stat(fs); err != nil {
		agenttest.Missing(t, "mcp-server-filesystem not found in .ci/node/node_modules/.bin: run `npm ci` in .ci/node")
	}
	cfg := filepath.Join(t.TempDir(), "fs-mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"filesystem": map[string]any{"command": fs, "args": []string{r.dir}}}})
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	protocol, err := os.ReadFile(filepath.Join(r.dir, "SESSION-PROTOCOL.md"))
	if err != nil {
		t.Fatal(err)
	}
	turns := []agenttest.Turn{
		agenttest.Use("mcp__filesystem__write_file", map[string]any{"path": filepath.Join(r.dir, "early.txt"), "content": "early\n"}),
		agenttest.Use("mcp__filesystem__read_file", map[string]any{"path": filepath.Join(r.dir, "test.sh")}),
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("mcp__filesystem__write_file", map[string]any{"path": filepath.Join(r.dir, "SESSION-PROTOCOL.md"), "content": "# weaker\n"}),
		agenttest.Use("mcp__filesystem__write_file", map[string]any{"path": filepath.Join(r.dir, "late.txt"), "content": "late\n"}),
		agenttest.Say("done"),
	}
	srv := agenttest.NewClaudeServer(t, turns...)
	res := r.claude("write some files", agenttest.ClaudeOptions{Server: srv, MCPConfig: cfg, AllowedTools: []string{"mcp__filesystem__*", "Bash"}})
	if res.ExitCode != 0 || srv.Used() != len(turns) {
		t.Fatalf("run: exit %d, %d of %d turns\nstderr: %s", res.ExitCode, srv.Used(), len(turns), res.Stderr)
	}
	conv := srv.Conversation()
	after := func(turn int) string { return conv[turn+1].NewText() }
	if _, err := os.Stat(filepath.Join(r.dir, "early.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("write_file before the start gates wrote the file (stat: %v)", err)
	}
	if txt := after(0); !strings.Contains(txt, "is_error") || !strings.Contains(txt, "start gates") {
		t.Errorf("the model was not told why write_file was denied: %s", txt)
	}
	if txt := after(1); strings.Contains(txt, "is_error") || !strings.Contains(txt, "hello.txt") {
		t.Errorf("read_file was stopped or read nothing: %s", txt)
	}
	if got, _ := os.ReadFile(filepath.Join(r.dir, "SESSION-PROTOCOL.md")); string(got) != string(protocol) {
		t.Errorf("write_file changed the protocol: %q", got)
	}
	if txt := after(4); !strings.Contains(txt, "is_error") || !strings.Contains(txt, "protocol accept") {
		t.Errorf("the model was not told why the protocol write was denied: %s", txt)
	}
	if got, err := os.ReadFile(filepath.Join(r.dir, "late.txt")); err != nil || string(got) != "late\n" {
		t.Errorf("write_file after the start gates: %q, %v", got, err)
	}
}
