package agenthook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// payloadDir is where the real Codex CLI and Copilot CLI payloads live
// (captured from real runs; ../shared/tools/AGENT-CLIS.md).
var payloadDir = filepath.Join("..", "..", "shared", "fixtures", "agent-payloads")

// payloads lists one folder of real payloads; it skips locally and fails
// under CI=true when the shared fixtures are missing.
func payloads(t *testing.T, folder string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(payloadDir, folder, "*.json"))
	if err == nil && len(files) == 0 {
		err = os.ErrNotExist
	}
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("real %s payloads not available (%v); they live in ../shared/fixtures/agent-payloads/%s", folder, err, folder)
		}
		t.Fatalf("real %s payloads: %v", folder, err)
	}
	return files
}

// TestRealCodexCopilotPayloads runs every captured Codex CLI and Copilot
// CLI payload (both of Copilot's file forms) through the real binary in a
// fresh repository whose session was started by the same agent's
// SessionStart payload: tool calls that write are denied before the start
// gates, in the agent's own answer format; a stop with work done is
// blocked; shell results become observed evidence; transcripts are bound;
// errors are recorded; the rest answers nothing.
func TestRealCodexCopilotPayloads(t *testing.T) {
	type form struct {
		folder, agent, start string
		deny                 func(map[string]any) string // the deny reason, "" when not denied
		context              func(map[string]any) string
	}
	hso := func(k string) func(map[string]any) string {
		return func(m map[string]any) string { return pathStr(m, "hookSpecificOutput", k) }
	}
	top := func(k string) func(map[string]any) string {
		return func(m map[string]any) string { return pathStr(m, k) }
	}
	denyHSO := func(m map[string]any) string {
		if pathStr(m, "hookSpecificOutput", "permissionDecision") != "deny" {
			return ""
		}
		return pathStr(m, "hookSpecificOutput", "permissionDecisionReason")
	}
	denyTop := func(m map[string]any) string {
		if pathStr(m, "permissionDecision") != "deny" {
			return ""
		}
		return pathStr(m, "permissionDecisionReason")
	}
	forms := []form{
		{"codex", "codex", "SessionStart.json", denyHSO, hso("additionalContext")},
		{"copilot", "copilot", "sessionStart.json", denyTop, top("additionalContext")},
		// PascalCase file: both deny forms are written; context top-level.
		{"copilot-pascalcase", "copilot", "SessionStart.json", denyHSO, top("additionalContext")},
	}
	n := 0
	for _, f := range forms {
		for _, file := range payloads(t, f.folder) {
			base := filepath.Base(file)
			event, _, _ := strings.Cut(base, ".")
			t.Run(f.folder+"/"+base, func(t *testing.T) {
				n++
				r := newRepo(t, "")
				home := filepath.Join(filepath.Dir(r.root), "home")
				codexHome := filepath.Join(filepath.Dir(r.root), "codex-home")
				env := []string{"CODEX_HOME=" + codexHome, "COPILOT_HOME=" + filepath.Join(home, ".copilot")}
				load := func(p string) []byte {
					b, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					s := strings.NewReplacer("/home/dev/repo", r.root, "/home/dev/codex-home", codexHome, "/home/dev/home", home).Replace(string(b))
					return []byte(s)
				}
				startEvent, _, _ := strings.Cut(f.start, ".")
				start, _ := r.hook(f.agent, startEvent, load(filepath.Join(payloadDir, f.folder, f.start)), env...)
				if c := f.context(start); !strings.Contains(c, "CONTEXT_RETRIEVAL") {
					t.Fatalf("%s: no session context in %v", f.start, start)
				}
				s := r.active()
				// Work in the worktree, so that a stop has something to block.
				writeFile(t, filepath.Join(r.root, "work.txt"), "work\n")
				if f.agent == "codex" && strings.HasPrefix(base, "PostToolUse.Bash") {
					// Codex's PostToolUse has no exit status: the runtime
					// reads it from the rollout, as Codex 0.171 writes it.
					var p struct {
						Transcript string `json:"transcript_path"`
						ToolUseID  string `json:"tool_use_id"`
					}
					if err := json.Unmarshal(load(file), &p); err != nil {
						t.Fatal(err)
					}
					writeFile(t, p.Transcript, `{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"`+p.ToolUseID+`","exit_code":0}}}`+"\n")
				}
				out, res := r.hook(f.agent, event, load(file), env...)
				ctx := context.Background()
				lower := strings.ToLower(base)
				switch {
				case strings.HasPrefix(lower, "pretooluse."):
					if why := f.deny(out); !strings.Contains(why, "CONTEXT_RETRIEVAL") {
						t.Fatalf("a tool call that writes, before the start gates: %v, want denied with the gate\nstderr: %s", out, res.err)
					}
				case strings.HasPrefix(lower, "stop.") || strings.HasPrefix(lower, "agentstop."):
					if out["decision"] != "block" || !strings.Contains(pathStr(out, "reason"), "stop blocked 1 of") {
						t.Fatalf("a stop with work and the end protocol undone: %v, want blocked\nstderr: %s", out, res.err)
					}
				case lower == "sessionstart.json":
					if f.context(out) == "" {
						t.Fatalf("session start: %v, want context", out)
					}
				default:
					if f.deny(out) != "" || out["decision"] != nil {
						t.Fatalf("%s: %v, want neither deny nor block", base, out)
					}
				}
				if strings.HasPrefix(lower, "posttooluse.bash") {
					evs, err := r.db().ListEvidence(ctx, s.ID)
					if err != nil || len(evs) != 1 || !evs[0].Observed() || !evs[0].Succeeded() || !strings.HasPrefix(evs[0].Command, "echo hello-from-shell") || evs[0].Source != f.agent {
						t.Fatalf("observed evidence of the shell command: %+v %v", evs, err)
					}
				}
				// Events that reach the session (no-op events, SessionEnd and
				// a post-tool of a non-shell tool return before the database).
				binds := map[string]bool{"SessionStart": true, "UserPromptSubmit": true, "PreToolUse": true, "Stop": true, "agentStop": true}[event] ||
					strings.HasPrefix(lower, "posttooluse.bash")
				if binds && strings.Contains(string(load(file)), "ranscript") {
					ts, err := r.db().SessionTranscripts(ctx, s.ID)
					// The payload's own transcript (a fixture may come from
					// another run than the SessionStart one).
					found := false
					for _, tr := range ts {
						found = found || tr.Agent == f.agent && strings.HasSuffix(tr.Path, ".jsonl") && strings.Contains(string(load(file)), tr.Path)
					}
					if err != nil || !found {
						t.Fatalf("transcript of the payload not bound: %+v %v\nstderr: %s", ts, err, res.err)
					}
				}
				if event == "errorOccurred" {
					evs, err := r.db().ListEvents(ctx, s.ID, 0, 0)
					found := false
					for _, e := range evs {
						found = found || e.Token == "agent:copilot:error" && strings.Contains(e.Detail, "model_call") && strings.Contains(e.Detail, "STUB_HTTP_ERROR_MARKER")
					}
					if err != nil || !found {
						t.Fatalf("errorOccurred not recorded: %+v %v", evs, err)
					}
				}
			})
		}
	}
}

// TestCodexCopilotProtectedBypasses: after the start gates, the ways a
// lazy agent under Codex or Copilot would change what polices it are
// denied, and ordinary edits are not.
func TestCodexCopilotProtectedBypasses(t *testing.T) {
	r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")   // a loaded machine is not the point
	home := filepath.Join(filepath.Dir(r.root), "home") // newRepo's HOME
	codexHome, copilotHome := filepath.Join(home, ".codex"), filepath.Join(home, ".copilot")
	sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"
	r.hook("codex", "SessionStart", map[string]any{"session_id": sid, "cwd": r.root, "hook_event_name": "SessionStart", "source": "startup"})
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	sub := filepath.Join(r.root, "sub")
	writeFile(t, filepath.Join(sub, ".keep"), "")
	patch := func(body string) string { return "*** Begin Patch\n" + body + "*** End Patch\n" }
	codex := func(tool, cmd, cwd string) map[string]any {
		return map[string]any{"session_id": sid, "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": map[string]any{"command": cmd}, "tool_use_id": "call_1"}
	}
	copilot := func(tool string, args map[string]any) map[string]any {
		return map[string]any{"sessionId": sid, "cwd": r.root, "toolName": tool, "toolArgs": args}
	}
	cases := []struct {
		name, agent, event string
		payload            map[string]any
		deny               bool
	}{
		{"apply_patch updates the protocol", "codex", "PreToolUse", codex("apply_patch", patch("*** Update File: SESSION-PROTOCOL.md\n@@\n-x\n+y\n"), r.root), true},
		{"apply_patch deletes the config", "codex", "PreToolUse", codex("apply_patch", patch("*** Delete File: sessiongate.yaml\n"), r.root), true},
		{"apply_patch moves a file onto the hooks", "codex", "PreToolUse", codex("apply_patch", patch("*** Update File: notes.txt\n*** Move to: .codex/hooks.json\n@@\n-a\n+{}\n"), r.root), true},
		{"apply_patch from a subfolder with ../", "codex", "PreToolUse", codex("apply_patch", patch("*** Add File: ../.codex/config.toml\n+[features]\n"), sub), true},
		{"apply_patch absolute path", "codex", "PreToolUse", codex("apply_patch", patch("*** Add File: "+filepath.Join(r.root, ".github", "hooks", "sessiongate.json")+"\n+{}\n"), r.root), true},
		{"apply_patch given to the shell", "codex", "PreToolUse", codex("Bash", "apply_patch <<'EOF'\n"+patch("*** Update File: SESSION-PROTOCOL.md\n@@\n-x\n+y\n")+"EOF\n", r.root), true},
		{"shell redirect onto the codex hooks", "codex", "PreToolUse", codex("Bash", "echo '{}' > .codex/hooks.json", r.root), true},
		{"shell wrapped in sh -c", "codex", "PreToolUse", codex("Bash", `sh -c "echo x >> SESSION-PROTOCOL.md"`, r.root), true},
		{"apply_patch of an ordinary file", "codex", "PreToolUse", codex("apply_patch", patch("*** Add File: src/x.go\n+package x\n"), r.root), false},
		{"copilot create of its hooks file", "copilot", "preToolUse", copilot("create", map[string]any{"path": filepath.Join(r.root, ".github", "hooks", "sessiongate.json"), "file_text": "{}"}), true},
		{"copilot edit of the protocol", "copilot", "preToolUse", copilot("edit", map[string]any{"path": filepath.Join(r.root, "SESSION-PROTOCOL.md"), "old_str": "a", "new_str": "b"}), true},
		{"copilot bash rm of the hooks folder", "copilot", "preToolUse", copilot("bash", map[string]any{"command": "rm -rf .github/hooks"}), true},
		{"copilot write_bash typing into a shell", "copilot", "preToolUse", copilot("write_bash", map[string]any{"shellId": "0", "input": "echo x > sessiongate.yaml\n"}), true},
		{"copilot apply_patch", "copilot", "preToolUse", copilot("apply_patch", map[string]any{"input": patch("*** Update File: .codex/hooks.json\n@@\n-a\n+b\n")}), true},
		{"copilot create of an ordinary file", "copilot", "preToolUse", copilot("create", map[string]any{"path": filepath.Join(r.root, "src", "y.go"), "file_text": "package y"}), false},
		{"codex shell edit of its user config", "codex", "PreToolUse", codex("Bash", "printf '[features]\\nhooks = false\\n' >> "+filepath.Join(codexHome, "config.toml"), r.root), true},
		{"codex apply_patch of its user hooks", "codex", "PreToolUse", codex("apply_patch", patch("*** Add File: "+filepath.Join(codexHome, "hooks.json")+"\n+{}\n"), r.root), true},
		{"copilot create in its user hooks folder", "copilot", "preToolUse", copilot("create", map[string]any{"path": filepath.Join(copilotHome, "hooks", "off.json"), "file_text": "{}"}), true},
		{"copilot write of its user config", "copilot", "preToolUse", copilot("bash", map[string]any{"command": "echo '{}' > " + filepath.Join(copilotHome, "config.json")}), true},
		{"copilot view of the protocol", "copilot", "preToolUse", copilot("view", map[string]any{"path": filepath.Join(r.root, "SESSION-PROTOCOL.md")}), false},
		{"codex shell hides a change from git status", "codex", "PreToolUse", codex("Bash", "git update-index --skip-worktree src/a.go", r.root), true},
		{"codex shell sets a clean filter", "codex", "PreToolUse", codex("Bash", "git config filter.x.clean 'cat old.go'", r.root), true},
		{"copilot powershell assume-unchanged", "copilot", "preToolUse", copilot("powershell", map[string]any{"command": "& git update-index --assume-unchanged SESSION-PROTOCOL.md"}), true},
		{"codex shell refreshes the index", "codex", "PreToolUse", codex("Bash", "git update-index --refresh && git status", r.root), false},
		// Round 24 review (c8): left reading the terminal, fed later by
		// write_stdin (no hook): allowed before c8's fix.
		{"codex shell opens an editor", "codex", "PreToolUse", codex("Bash", "vim notes.txt", r.root), true},
		{"codex shell opens a pager", "codex", "PreToolUse", codex("Bash", "less README.md", r.root), true},
		{"codex shell leaves xargs reading names", "codex", "PreToolUse", codex("Bash", "xargs rm", r.root), true},
		{"codex shell commits through an editor", "codex", "PreToolUse", codex("Bash", "git commit", r.root), true},
		{"codex shell pages through a pipe", "codex", "PreToolUse", codex("Bash", "man git | head -20", r.root), false},
		{"codex shell commits with a message", "codex", "PreToolUse", codex("Bash", "git commit -qm 'fix: x'", r.root), false},
		// Round 25 review (c8): the terminal given by name, allowed before.
		{"codex shell runs the terminal as a script", "codex", "PreToolUse", codex("Bash", "bash /dev/tty", r.root), true},
		{"codex shell pipes the terminal into sh", "codex", "PreToolUse", codex("Bash", "cat /dev/tty | sh", r.root), true},
		{"codex shell copies test output to the terminal", "codex", "PreToolUse", codex("Bash", "go test ./... | tee /dev/tty | tail -3", r.root), false},
		// Round 33: a push GitLab starts no pipeline for lands its commits
		// unchecked by verify (CI is the net); the option reaches only the
		// server, so no git hook sees it.
		{"codex shell pushes with ci.skip", "codex", "PreToolUse", codex("Bash", "git push -o ci.skip origin main", r.root), true},
		{"copilot bash sets ci.skip for every push", "copilot", "preToolUse", copilot("bash", map[string]any{"command": "git config push.pushOption ci.skip && git push"}), true},
		{"codex shell pushes with another push option", "codex", "PreToolUse", codex("Bash", "git push -o merge_request.create origin feat", r.root), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, res := r.hook(c.agent, c.event, c.payload)
			denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" || pathStr(out, "permissionDecision") == "deny"
			if denied != c.deny {
				t.Fatalf("denied %v, want %v: %v\nstderr: %s", denied, c.deny, out, res.err)
			}
		})
	}
}

// TestCodexExitFromRollout: Codex's PostToolUse carries no exit status;
// the runtime takes it from the rollout, and without one the run is not a
// pass (exit unknown). Nor is an exit 0 whose output, Codex's own, holds a
// test runner's failing summary.
func TestCodexExitFromRollout(t *testing.T) {
	cases := []struct {
		name, rollout string
		succeeded     bool
		exit          int
		output        string // the PostToolUse tool_response; "" is "tests ok"
	}{
		{"item_completed exit 3", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":3}}}`, false, 3, ""},
		{"function_call_output exit 0", `{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_9","output":"Chunk ID: x\nProcess exited with code 0\nOutput:\nok\n"}}`, true, 0, ""},
		{"another call's status only", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_8","exit_code":0}}}`, false, -1, ""},
		{"no rollout", "", false, -1, ""},
		// A watcher the agent started appends a pass for the call while
		// it runs; Codex's own item_completed then says it failed: the
		// two disagree, so the status is unknown (failed on the old code:
		// the first line, the forged pass, was taken).
		{"forged output before Codex's item_completed", `{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_9","output":"Process exited with code 0\nOutput:\nPASS\n"}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","status":"failed","exit_code":1}}}`, false, -1, ""},
		{"forged item_completed before Codex's", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":0}}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","status":"failed","exit_code":1}}}`, false, -1, ""},
		// Honest: item_completed and the function_call_output agree.
		{"item_completed and output agree", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":0}}}` + "\n" +
			`{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_9","output":"Chunk ID: x\nProcess exited with code 0\nOutput:\ntests ok\n"}}`, true, 0, ""},
		{"item_completed and output agree on a failure", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":2}}}` + "\n" +
			`{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_9","output":"Process exited with code 2\nOutput:\nFAIL\n"}}`, false, 2, ""},
		// Codex's own item_completed rewritten in place (exit 1 to 0, the
		// same length) before the hook reads it: the rollout agrees with
		// itself, but the output Codex put in the payload is go test's
		// failure. Passed on the old code (issue 25 item 4).
		{"rewritten in place, go test failed", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":0}}}`, false, -1,
			"--- FAIL: TestGreet (0.00s)\nFAIL\nFAIL\texample.com/greet\t0.003s\n"},
		{"rewritten in place, pytest failed", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":0}}}`, false, -1,
			"==== 1 failed, 4 passed in 0.21s ====\n"},
		// Honest twins: passing runners, a zero count.
		{"exit 0, go test passed", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":0}}}`, true, 0,
			"--- PASS: TestGreet (0.00s)\nPASS\nok  \texample.com/greet\t0.003s\n"},
		{"exit 0, none failed", `{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_9","exit_code":0}}}`, true, 0,
			"# tests 4\n# pass 4\n# fail 0\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, "")
			codexHome := filepath.Join(filepath.Dir(r.root), "codex-home")
			rollout := filepath.Join(codexHome, "sessions", "2026", "11", "28", "rollout-x.jsonl")
			if c.rollout != "" {
				writeFile(t, rollout, c.rollout+"\n")
			}
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002"
			env := "CODEX_HOME=" + codexHome
			r.hook("codex", "SessionStart", map[string]any{"session_id": sid, "cwd": r.root, "hook_event_name": "SessionStart", "transcript_path": rollout}, env)
			s := r.active()
			out := c.output
			if out == "" {
				out = "tests ok\n"
			}
			r.hook("codex", "PostToolUse", map[string]any{"session_id": sid, "cwd": r.root, "hook_event_name": "PostToolUse", "transcript_path": rollout,
				"tool_name": "Bash", "tool_input": map[string]any{"command": "sh test.sh"}, "tool_response": out, "tool_use_id": "call_9"}, env)
			evs, err := r.db().ListEvidence(context.Background(), s.ID)
			if err != nil || len(evs) != 1 {
				t.Fatalf("evidence %+v %v, want one observed run", evs, err)
			}
			e := evs[0]
			if e.Succeeded() != c.succeeded || e.ExitCode == nil || *e.ExitCode != c.exit {
				t.Fatalf("observed run exit %v succeeded %v, want exit %d succeeded %v", e.ExitCode, e.Succeeded(), c.exit, c.succeeded)
			}
			// A rollout that contradicts itself was written by something
			// other than Codex: a HIGH TRANSCRIPT_CHANGED, which fails verify.
			vs, err := r.db().ListViolations(context.Background(), session.ViolationFilter{SessionID: s.ID})
			if err != nil {
				t.Fatal(err)
			}
			forged := strings.HasPrefix(c.name, "forged")
			if got := len(vs) == 1 && vs[0].Code == session.CodeTranscriptChanged && strings.Contains(vs[0].Message, "two exit statuses"); got != forged || !forged && len(vs) > 0 {
				t.Fatalf("violations %+v, want one TRANSCRIPT_CHANGED naming two exit statuses: %v", vs, forged)
			}
		})
	}
}

// TestConcurrentStartAndPromptOneSession: Copilot CLI fires sessionStart
// and userPromptSubmitted at once; two hooks that both find no session
// must not start two (the first then abandoned as superseded). Seen with
// the real Copilot CLI in TestCopilotAgentHooksDenyObserveBlockStop.
func TestConcurrentStartAndPromptOneSession(t *testing.T) {
	for i := 0; i < 6; i++ {
		r := newRepo(t, "")
		sid := fmt.Sprintf("35ccecb3-b3e2-4fd3-9c0a-a1806ef9da%02d", i)
		done := make(chan struct{}, 2)
		for _, ev := range []struct {
			name    string
			payload map[string]any
		}{
			{"sessionStart", map[string]any{"sessionId": sid, "cwd": r.root, "source": "new", "initialPrompt": "fix it"}},
			{"userPromptSubmitted", map[string]any{"sessionId": sid, "cwd": r.root, "prompt": "fix it"}},
		} {
			go func() {
				defer func() { done <- struct{}{} }()
				b, _ := json.Marshal(ev.payload)
				if res := r.run(r.root, b, nil, binary, "agent-hook", "copilot", ev.name); res.code != 0 {
					t.Errorf("%s: exit %d\n%s", ev.name, res.code, res.err)
				}
			}()
		}
		<-done
		<-done
		out := r.sg("session", "list", "--json")
		if n := strings.Count(out, `"id"`); n != 1 || strings.Contains(out, "ABANDONED") {
			t.Fatalf("run %d: %d sessions, want 1 (none abandoned):\n%s", i, n, out)
		}
	}
}

// TestCopilotPowerShell (issue 27): Copilot's powershell tool sends
// PowerShell lines (Windows). Its writes of protected files and its ways
// round the git hooks are denied like the bash ones; honest PowerShell
// work is not. Payloads are the real Copilot CLI shapes with the tool
// name and command line of a Windows run.
func TestCopilotPowerShell(t *testing.T) {
	payloads(t, "copilot") // skips (fails under CI) without the shared payloads
	load := func(name string) map[string]any {
		b, err := os.ReadFile(filepath.Join(payloadDir, "copilot", name))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	r := newRepo(t, "agent_hooks:\n  timeout: 30s\n") // a loaded machine is not the point
	const sid = "35ccecb3-b3e2-4fd3-9c0a-a1806ef9dad4"
	r.hook("copilot", "sessionStart", with(load("sessionStart.json"), "sessionId", sid, "cwd", r.root))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	pre := load("preToolUse.bash.json")
	cases := []struct {
		line string
		deny bool
	}{
		{"Set-Content -Path SESSION-PROTOCOL.md -Value 'agents MAY skip QA'", true},
		{"'{}' | Out-File -FilePath .github\\hooks\\sessiongate.json", true},
		{"Remove-Item -Recurse -Force .github\\hooks", true},
		{"ren sessiongate.yaml old.yaml", true},
		{"Copy-Item $env:TEMP\\weak.md -Destination .\\SESSION-PROTOCOL.md", true},
		{"Start-Process -FilePath git -ArgumentList 'config','core.hooksPath','NUL' -Wait", true},
		{"& 'git' commit --no-verify -m wip", true},
		{"pwsh -NoProfile -c \"Add-Content sessiongate.yaml 'protect: false'\"", true},
		// Honest PowerShell work.
		{"Get-Content SESSION-PROTOCOL.md | Select-Object -First 40", false},
		{"Set-Content -Path src\\x.go -Value 'package x'", false},
		{"go test ./... 2>&1 | Out-File test-output.txt", false},
		{"git add -A; git commit -m 'add x'", false},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			p := with(pre, "sessionId", sid, "cwd", r.root, "toolName", "powershell", "toolArgs", map[string]any{"command": c.line, "description": "x"})
			out, res := r.hook("copilot", "preToolUse", p)
			if denied := out["permissionDecision"] == "deny"; denied != c.deny {
				t.Fatalf("denied %v, want %v: %v\nstderr: %s", denied, c.deny, out, res.err)
			}
		})
	}
}

// TestCopilotViewWitnessed: Copilot CLI's view (a file read) keeps, in its
// preToolUse hook, the witness of the events.jsonl line that shows it: the
// digest of the path it read (transcript.ReadDigest), as Gemini CLI's
// read_file does. The payload is the real view call's (postToolUseFailure
// carries the same toolName and toolArgs preToolUse does). A view is never
// denied, before the start gates or after; a grep keeps nothing.
func TestCopilotViewWitnessed(t *testing.T) {
	payloads(t, "copilot") // skips (fails under CI) without the shared payloads
	load := func(name string) map[string]any {
		b, err := os.ReadFile(filepath.Join(payloadDir, "copilot", name))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	real := load("postToolUseFailure.view.json")
	if real["toolName"] != "view" {
		t.Fatalf("the view payload names %v", real["toolName"])
	}
	r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
	const sid = "fe39dc3f-9433-4bcd-8ad4-8948726ab2ce"
	r.hook("copilot", "sessionStart", with(load("sessionStart.json"), "sessionId", sid, "cwd", r.root))
	s := r.active()
	guide := filepath.Join(r.root, "docs", "guide.md")
	tests := []struct {
		tool    string
		args    map[string]any
		witness string // the digest kept, "" for none
	}{
		{"view", map[string]any{"path": guide}, transcript.ReadDigest(guide)},
		{"view", map[string]any{"path": filepath.Join(r.root, "README.md"), "view_range": []int{1, 20}}, transcript.ReadDigest(filepath.Join(r.root, "README.md"))},
		{"grep", map[string]any{"pattern": "x", "path": r.root}, ""},
	}
	for _, tt := range tests {
		p := map[string]any{}
		for k, v := range real {
			if k != "error" { // preToolUse: the call, not its result
				p[k] = v
			}
		}
		p = with(p, "sessionId", sid, "cwd", r.root, "toolName", tt.tool, "toolArgs", tt.args)
		out, res := r.hook("copilot", "preToolUse", p)
		if out["permissionDecision"] == "deny" {
			t.Fatalf("%s %v denied: %v\nstderr: %s", tt.tool, tt.args, out, res.err)
		}
		evs, err := r.db().ListEvents(context.Background(), s.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range evs {
			found = found || e.Token == session.TokenCopilotCall && tt.witness != "" && strings.HasSuffix(e.Detail, " "+tt.tool+" "+tt.witness)
		}
		if found != (tt.witness != "") {
			t.Errorf("%s %v: witness kept %v, want %v; events %+v", tt.tool, tt.args, found, tt.witness != "", evs)
		}
	}
}

// TestHooksOffCommitForms: lazy-agent pass 34's commits past the git
// hooks, each allowed by the agent hook before (caught only afterwards,
// as a bypass): an alias harmless alone, then -n through it; plumbing
// that makes a commit; core.hooksPath printed into git's user config, or
// read from another one. Honest twins stay allowed.
func TestHooksOffCommitForms(t *testing.T) {
	r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
	home := filepath.Join(filepath.Dir(r.root), "home") // newRepo's HOME
	sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0035"
	r.hook("codex", "SessionStart", map[string]any{"session_id": sid, "cwd": r.root, "hook_event_name": "SessionStart", "source": "startup"})
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	// Set in an earlier, allowed call: the alias is git's config now.
	r.git("config", "alias.c", "commit")
	r.git("config", "alias.st", "status")
	codex := func(cmd string) map[string]any {
		return map[string]any{"session_id": sid, "cwd": r.root, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": "call_1"}
	}
	claudeWrite := func(p string) map[string]any {
		return map[string]any{"session_id": sid, "cwd": r.root, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": map[string]any{"file_path": p, "content": "[core]\n\thooksPath = /tmp/h\n"}}
	}
	cases := []struct {
		name, agent string
		payload     map[string]any
		deny        bool
	}{
		{"alias from git's config, then -n", "codex", codex("git c -n -m 'fix: x'"), true},
		{"alias set on the line, then --no-verify", "codex", codex("git config alias.k commit && git k --no-verify -m 'fix: x'"), true},
		{"commit-tree then update-ref", "codex", codex(`c=$(git commit-tree 'HEAD^{tree}' -p HEAD -m 'fix: x') && git update-ref refs/heads/main "$c"`), true},
		{"hash-object makes a commit", "codex", codex("git hash-object -t commit -w --stdin < /tmp/c"), true},
		{"printf into the user's gitconfig", "codex", codex(`printf '[core]\n\thooksPath = /tmp/h\n' >> ~/.gitconfig`), true},
		{"write tool on the user's gitconfig", "claude", claudeWrite(filepath.Join(home, ".gitconfig")), true},
		{"commit under another HOME", "codex", codex("HOME=/tmp/h git commit -m 'fix: x'"), true},
		{"include.path into the user's config", "codex", codex("git config --global include.path /tmp/g"), true},
		{"stash commit fast-forwarded onto the branch", "codex", codex("git stash && git merge --ff-only stash@{0}"), true},
		{"a shell alias given -n", "codex", codex("git config alias.f '!f(){ git commit \"$@\"; }; f' && git f -n -am 'fix: x'"), true},
		{"flags built at run time", "codex", codex(`set -- -n; git commit "$@" -am 'fix: x'`), true},
		// Honest.
		{"commit through the alias", "codex", codex("git c -m 'fix: x'"), false},
		{"status through the alias", "codex", codex("git st -s"), false},
		{"git's own log with -n", "codex", codex("git log -n 3 --oneline"), false},
		{"set the user's name", "codex", codex("git config --global user.name 'A Dev'"), false},
		{"read the user's gitconfig", "codex", codex("cat ~/.gitconfig"), false},
		{"back up the user's gitconfig", "codex", codex("cp ~/.gitconfig /tmp/gitconfig.bak"), false},
		{"stash around a pull", "codex", codex("git stash && git pull --rebase && git stash pop"), false},
		{"a message built at run time", "codex", codex(`git commit -m "$(cat /tmp/msg)"`), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, res := r.hook(c.agent, "PreToolUse", c.payload)
			denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" || pathStr(out, "permissionDecision") == "deny"
			if denied != c.deny {
				t.Fatalf("denied %v, want %v: %v\nstderr: %s", denied, c.deny, out, res.err)
			}
		})
	}
	// Round 35's review: core.hooksPath set by a route no line rule reads
	// (renamed into core, or written into the user's config by any
	// program). The folder git runs hooks from is compared with the
	// start's before a line that can commit.
	decide := func(cmd string) (bool, string) {
		out, _ := r.hook("codex", "PreToolUse", codex(cmd))
		return pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" || pathStr(out, "permissionDecision") == "deny", fmt.Sprint(out)
	}
	r.git("config", "x.hooksPath", "/tmp/nohooks")
	r.git("config", "--rename-section", "x", "core")
	if denied, out := decide("git commit -qm 'fix: x'"); !denied || !strings.Contains(out, "/tmp/nohooks") {
		t.Errorf("a commit with core.hooksPath renamed into place: denied %v\n%s", denied, out)
	}
	if denied, out := decide("git status --short"); denied {
		t.Errorf("git status denied with the hooks moved (it commits nothing): %s", out)
	}
	r.git("config", "--unset", "core.hooksPath")
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\thooksPath = /tmp/nohooks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if denied, out := decide("git c -qm 'fix: x'"); !denied || !strings.Contains(out, "/tmp/nohooks") {
		t.Errorf("a commit through an alias with core.hooksPath in the user's config: denied %v\n%s", denied, out)
	}
	if err := os.Remove(filepath.Join(home, ".gitconfig")); err != nil {
		t.Fatal(err)
	}
	if denied, out := decide("git commit -qm 'fix: x'"); denied {
		t.Errorf("a commit with the hooks back where they were: %s", out)
	}
}
