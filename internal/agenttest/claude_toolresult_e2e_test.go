package agenttest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// Round 19, issue 25: a judged call that never reports is noticed
// (TOOL_RESULT_MISSING at Stop), with the real Claude Code.

// dropPostHooks removes PostToolUse and PostToolUseFailure from both
// Claude Code settings files install wrote: what a lazy agent (or a
// previous one) does so a rewritten call is never compared.
func dropPostHooks(t *testing.T, r *sgRepo) {
	t.Helper()
	for _, f := range []string{"settings.json", "settings.local.json"} {
		p := filepath.Join(r.dir, ".claude", f)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		hooks, _ := m["hooks"].(map[string]any)
		if hooks["PostToolUse"] == nil {
			t.Fatalf("%s has no PostToolUse hook to drop:\n%s", p, b)
		}
		delete(hooks, "PostToolUse")
		delete(hooks, "PostToolUseFailure")
		if b, err = json.MarshalIndent(m, "", "  "); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClaudeToolResultMissing: (lazy) the PostToolUse hooks dropped from
// both settings files and committed before the first session (trusted on
// first use; uncommitted, the drop is a protected change and every shell
// and write call is refused), so nothing compares what the calls ran:
// before round 19 nothing was recorded; now the calls judged and never
// reported are a TOOL_RESULT_MISSING. (honest) a failed Edit and a
// failed Bash report through PostToolUseFailure, a backgrounded call
// reports when it starts, a denied write expects no report: no
// TOOL_RESULT_MISSING.
func TestClaudeToolResultMissing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		drop    bool
		calls   func(dir string) []agenttest.Turn
		want    []string // codes that must be recorded
		notWant []string
	}{
		{"post hooks dropped", true, func(dir string) []agenttest.Turn {
			return []agenttest.Turn{
				agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(dir, "notes.md"), "content": "one\n"}),
			}
		}, []string{session.CodeToolResultMissing}, nil},
		{"honest failures, background, denial", false, func(dir string) []agenttest.Turn {
			return []agenttest.Turn{
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(dir, "notes.md"), "content": "one\n"}),
				agenttest.Use("Edit", map[string]any{"file_path": filepath.Join(dir, "notes.md"), "old_string": "not in the file", "new_string": "two"}),
				agenttest.Use("Bash", map[string]any{"command": "echo failing; exit 3"}),
				agenttest.Use("Bash", map[string]any{"command": "sleep 1", "run_in_background": true}),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(dir, "SESSION-PROTOCOL.md"), "content": "nothing binds\n"}),
			}
		}, nil, []string{session.CodeToolResultMissing}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := hookedRepo(t, "")
			if c.drop {
				dropPostHooks(t, r)
				r.git("commit", "-q", "-am", "drop the post-tool hooks")
			}
			turns := []agenttest.Turn{
				agenttest.Use("Bash", map[string]any{"command": "git status"}),
				agenttest.Use("Bash", map[string]any{"command": filepath.Join(sgBin, "sessiongate") + " session advance --to WORKING"}),
			}
			turns = append(turns, c.calls(r.dir)...)
			turns = append(turns, agenttest.Say("done"), agenttest.Say("done"), agenttest.Say("done"), agenttest.Say("done"))
			srv := agenttest.NewClaudeServer(t, turns...)
			res := r.claude("work", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash"}})
			if srv.Used() < len(turns)-3 {
				t.Fatalf("run: exit %d, %d of %d turns\nstderr: %s", res.ExitCode, srv.Used(), len(turns)-3, res.Stderr)
			}
			codes := violationCodes(r.onlySession())
			for _, w := range c.want {
				if !strings.Contains(codes, w) {
					t.Errorf("violations %q, want %s", codes, w)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(codes, w) {
					t.Errorf("violations %q: an honest run has no %s", codes, w)
				}
			}
		})
	}
}

// TestCopilotPostPairedRealCLI: the honest twin of TestCopilotPostPaired
// with the real Copilot CLI: its postToolUse carries the toolArgs its
// preToolUse judged, for bash (a passing and a failing command) and
// create, so every post pairs (an agent:result event per call) and no
// TOOL_INPUT_REWRITTEN is recorded.
func TestCopilotPostPairedRealCLI(t *testing.T) {
	t.Parallel()
	r := installedRepo(t, "", "--agent", "copilot")
	bash := func(cmd string) agenttest.Step {
		return agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "run " + cmd})
	}
	stub := agenttest.StartOpenAIStub(t,
		bash("git status"),
		bash("sessiongate session advance --to WORKING"),
		agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, "hello.txt"), "file_text": "hello\n"}),
		bash("echo failing; exit 3"),
		bash("sh test.sh"),
		agenttest.TextStep("done"),
		agenttest.TextStep("done"),
		agenttest.TextStep("done"),
		agenttest.TextStep("done"),
	)
	res := agenttest.RunCopilot(t, r.dir, "add hello.txt", stub, r.env, 0)
	if reqs := stub.Scripted(t); len(reqs) < 6 {
		t.Fatalf("%d of 6 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	show := r.onlySession()
	if codes := violationCodes(show); strings.Contains(codes, session.CodeToolInputRewritten) {
		t.Errorf("violations %q: an honest Copilot run has no %s", codes, session.CodeToolInputRewritten)
	}
	if observedRun(show, "sh test.sh") == nil {
		t.Errorf("`sh test.sh` is not observed evidence: %v", evidence(show))
	}
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
	evs, err := db.ListEvents(context.Background(), show["session"].(map[string]any)["id"].(string), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	judged, reported := 0, 0
	for _, e := range evs {
		switch {
		case e.Token == session.TokenCopilotJudged:
			judged++
		case e.Token == session.TokenToolResult && strings.HasPrefix(e.Detail, "copilot "):
			reported++
		}
	}
	// git status, advance, create, the failing command, sh test.sh.
	if judged < 5 || reported != judged {
		t.Errorf("%d Copilot calls judged, %d paired with their post; want 5 or more, all paired", judged, reported)
	}
}

// TestClaudeInterruptSendsNoPostToolUse measures, with the real CLI, what
// Claude Code sends for a call the user interrupts (stream-json's
// interrupt control request, what Esc sends): no PostToolUse, no
// PostToolUseFailure and no Stop. If a new CLI sends one, this fails first
// (then the settling of pending calls at the next prompt can go). It is
// also the honest twin of the missing-report check: after the interrupt
// the user prompts again, that turn ends with Stop, and the interrupted
// call is no TOOL_RESULT_MISSING.
func TestClaudeInterruptSendsNoPostToolUse(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	log, pathEnv := payloadShim(t, "", "")
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": filepath.Join(sgBin, "sessiongate") + " session advance --to WORKING"}),
		agenttest.Use("Bash", map[string]any{"command": "sleep 15; echo woke", "description": "a long call the user interrupts"}),
		agenttest.Say("stopped"),
		agenttest.Say("done"),
		agenttest.Say("done"),
	)
	cs := agenttest.StartClaudeStream(t, r.dir, agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Bash"}, Env: append(append([]string{}, r.env...), pathEnv)})
	cs.Prompt("work")
	// Wait for the long call's PreToolUse, then interrupt it.
	deadline := time.Now().Add(5 * time.Minute)
	for {
		b, _ := os.ReadFile(log)
		if strings.Contains(string(b), `"sleep 15; echo woke"`) {
			break
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(cs.Stdout)
			t.Fatalf("the long call never reached PreToolUse; shim log:\n%s\nclaude:\n%s", b, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(2 * time.Second) // the hooks answered, the call runs
	cs.Interrupt("req_interrupt")
	time.Sleep(5 * time.Second)
	cs.Prompt("never mind, finish up")
	for {
		b, _ := os.ReadFile(cs.Stdout)
		if strings.Count(string(b), `"type":"result"`) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	cs.Wait(2 * time.Minute)
	var sleepID string
	events := map[string]int{}
	for _, p := range shimPayloads(t, log) {
		if p.Event == "PreToolUse" && p.Input["command"] == "sleep 15; echo woke" {
			sleepID = p.ID
		}
	}
	for _, p := range shimPayloads(t, log) {
		if p.ID == sleepID || p.ID == "" {
			events[p.Event]++
		}
	}
	t.Logf("events of the interrupted call and the session: %v", events)
	if sleepID == "" {
		t.Fatal("no PreToolUse of the long call")
	}
	if events["PostToolUse"]+events["PostToolUseFailure"] != 0 {
		t.Errorf("the interrupted call reported (%v): Claude Code now sends a post for an interrupt", events)
	}
	if events["UserPromptSubmit"] < 2 || events["Stop"] < 1 {
		t.Fatalf("want two prompts and a Stop after the interrupt, got %v (the run did not go on)", events)
	}
	if codes := violationCodes(r.onlySession()); strings.Contains(codes, session.CodeToolResultMissing) {
		t.Errorf("violations %q: the interrupted call is no %s", codes, session.CodeToolResultMissing)
	}
}
