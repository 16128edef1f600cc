package agenttest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// The real Claude Code CLI against the scripted model, with project hooks
// in .claude/settings.json: what each lifecycle event sends a hook, and
// how a hook's answer reaches the model. These are the facts the
// agent-hook runtime (package agenthook) is built on.

var update = flag.Bool("update", false, "rewrite agenthook/testdata/claude/*.json from a live Claude Code run")

// claudeEvents are the lifecycle events sessiongate hooks into.
var claudeEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"}

// gitRepo makes a real repository with one commit.
func gitRepo(t testing.TB) string {
	t.Helper()
	dir := gittest.Init(t)
	// The agents commit with the repository's own identity.
	gittest.Config(t, dir, "user.email", "t@sessiongate.invalid")
	gittest.Config(t, dir, "user.name", "t")
	gittest.Commit(t, dir, "init", nil)
	return dir
}

// writeHooks writes .claude/settings.json with one command hook per event
// that command returns non-empty for.
func writeHooks(t *testing.T, dir string, command func(event string) string) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range claudeEvents {
		if c := command(ev); c != "" {
			hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": c}}}}
		}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// logHook is a hook command that appends its stdin (the event JSON) to log.
func logHook(log string) string {
	return "cat >> '" + log + "'; echo >> '" + log + "'"
}

// readPayloads decodes the JSON values a logging hook appended.
func readPayloads(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("hook log: %v", err)
	}
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var m map[string]any
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("hook log %s: %v\n%s", path, err, b)
		}
		out = append(out, m)
	}
}

// eventKey names a payload for lookups: the event, plus the tool and its
// command for tool events ("PostToolUseFailure Bash false").
func eventKey(p map[string]any) string {
	k, _ := p["hook_event_name"].(string)
	if tool, ok := p["tool_name"].(string); ok {
		k += " " + tool
		if in, ok := p["tool_input"].(map[string]any); ok {
			if c, ok := in["command"].(string); ok {
				k += " " + c
			}
		}
	}
	return k
}

const failingCommand = "echo to-stdout; echo to-stderr >&2; exit 3"

func TestClaudeHookPayloads(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	logPath := filepath.Join(t.TempDir(), "hooks.jsonl")
	writeHooks(t, repo, func(string) string { return logHook(logPath) })
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(repo, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("Bash", map[string]any{"command": "true", "description": "succeed"}),
		agenttest.Use("Bash", map[string]any{"command": "false", "description": "fail"}),
		agenttest.Use("Bash", map[string]any{"command": failingCommand, "description": "fail with output"}),
		agenttest.Say("all done"),
	)
	const prompt = "write hello.txt and run three commands"
	res := agenttest.RunClaude(t, repo, prompt, agenttest.ClaudeOptions{
		Server: srv, AllowedTools: []string{"Write", "Bash"},
	})
	t.Logf("claude run: %s, %d turns", res.Elapsed, res.NumTurns)
	if res.ExitCode != 0 || res.IsError || res.Result != "all done" {
		t.Fatalf("run: exit %d is_error %v result %q\nstderr: %s", res.ExitCode, res.IsError, res.Result, res.Stderr)
	}
	if got, err := os.ReadFile(filepath.Join(repo, "hello.txt")); err != nil || string(got) != "hello\n" {
		t.Fatalf("Write did not run for real: %q %v", got, err)
	}
	if srv.Used() != 5 {
		t.Fatalf("scripted turns used: %d, want 5", srv.Used())
	}

	byKey := map[string]map[string]any{}
	var order []string
	for _, p := range readPayloads(t, logPath) {
		k := eventKey(p)
		order = append(order, k)
		byKey[k] = p
	}
	want := []string{
		"SessionStart", "UserPromptSubmit",
		"PreToolUse Write", "PostToolUse Write",
		"PreToolUse Bash true", "PostToolUse Bash true",
		"PreToolUse Bash false", "PostToolUseFailure Bash false",
		"PreToolUse Bash " + failingCommand, "PostToolUseFailure Bash " + failingCommand,
		"Stop", "SessionEnd",
	}
	if strings.Join(order, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hook events in order:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}

	session := byKey["SessionStart"]["session_id"]
	if s, _ := session.(string); s == "" || s != res.SessionID {
		t.Fatalf("SessionStart session_id %v, result session_id %q", session, res.SessionID)
	}
	for k, p := range byKey {
		if p["session_id"] != session {
			t.Errorf("%s: session_id %v, want %v (one session)", k, p["session_id"], session)
		}
		if p["cwd"] != repo {
			t.Errorf("%s: cwd %v, want %s", k, p["cwd"], repo)
		}
		if tp, _ := p["transcript_path"].(string); !strings.HasPrefix(tp, res.Home) {
			t.Errorf("%s: transcript_path %q is not under the isolated HOME %s", k, tp, res.Home)
		}
	}
	check := func(key, field string, want any) {
		t.Helper()
		got, ok := byKey[key][field]
		if !ok {
			t.Errorf("%s: no %s field in %v", key, field, byKey[key])
			return
		}
		if want != nil && !jsonEqual(got, want) {
			t.Errorf("%s: %s = %v, want %v", key, field, got, want)
		}
	}
	check("SessionStart", "source", "startup")
	check("UserPromptSubmit", "prompt", prompt)
	check("PreToolUse Write", "tool_input", map[string]any{"file_path": filepath.Join(repo, "hello.txt"), "content": "hello\n"})
	check("PreToolUse Write", "tool_use_id", nil)
	check("PostToolUse Write", "tool_response", nil)
	check("PreToolUse Bash true", "tool_input", map[string]any{"command": "true", "description": "succeed"})
	check("PostToolUse Bash true", "tool_response", map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false})
	check("PostToolUse Bash true", "duration_ms", nil)
	check("PostToolUseFailure Bash false", "error", "Exit code 1")
	check("PostToolUseFailure Bash false", "duration_ms", nil)
	check("PostToolUseFailure Bash false", "is_interrupt", false)
	check("Stop", "stop_hook_active", false)
	check("Stop", "last_assistant_message", "all done")
	check("SessionEnd", "reason", nil)
	// A failing command's output reaches hooks only inside "error", after
	// the exit code line: there is no tool_response and no exit code field.
	failed := byKey["PostToolUseFailure Bash "+failingCommand]
	if e, _ := failed["error"].(string); !strings.HasPrefix(e, "Exit code 3") || !strings.Contains(e, "to-stdout") || !strings.Contains(e, "to-stderr") {
		t.Errorf("failing command's error %q: want Exit code 3 and both outputs", e)
	}
	if _, ok := failed["tool_response"]; ok {
		t.Errorf("PostToolUseFailure unexpectedly carries tool_response: %v", failed)
	}
	// ...and the model sees the same text as an error tool_result.
	conv := srv.Conversation()
	if last := conv[3].Last().Text(); !strings.Contains(last, "[tool_result is_error]") || !strings.Contains(last, "Exit code 1") {
		t.Errorf("model's view of `false`: %q", last)
	}

	goldens := map[string]string{
		"SessionStart":                              "SessionStart.json",
		"UserPromptSubmit":                          "UserPromptSubmit.json",
		"PreToolUse Write":                          "PreToolUse-Write.json",
		"PostToolUse Write":                         "PostToolUse-Write.json",
		"PreToolUse Bash true":                      "PreToolUse-Bash.json",
		"PostToolUse Bash true":                     "PostToolUse-Bash.json",
		"PostToolUseFailure Bash " + failingCommand: "PostToolUseFailure-Bash.json",
		"Stop":       "Stop.json",
		"SessionEnd": "SessionEnd.json",
	}
	checkGoldens(t, filepath.Join("agenthook", "testdata", "claude"), goldens, byKey, repo, res.Home)
}

// scrub replaces machine paths with stable placeholders so the payload can
// be committed.
func scrub(p map[string]any, repo, home string) map[string]any {
	b, _ := json.Marshal(p)
	s := strings.ReplaceAll(string(b), home, "/home/user")
	s = strings.ReplaceAll(s, repo, "/work/repo")
	// Claude Code names the transcript folder after the path with / -> -.
	s = strings.ReplaceAll(s, strings.ReplaceAll(repo, "/", "-"), "-work-repo")
	var out map[string]any
	_ = json.Unmarshal([]byte(s), &out)
	return out
}

// missingKeys lists the object keys in want (recursively) absent in got.
func missingKeys(want, got map[string]any) []string {
	var out []string
	for k, wv := range want {
		gv, ok := got[k]
		if !ok {
			out = append(out, k)
			continue
		}
		wm, wok := wv.(map[string]any)
		gm, gok := gv.(map[string]any)
		if wok && gok {
			for _, sub := range missingKeys(wm, gm) {
				out = append(out, k+"."+sub)
			}
		}
	}
	sort.Strings(out)
	return out
}

func jsonEqual(a, b any) bool {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return bytes.Equal(ab, bb)
}

// A PreToolUse hook that answers permissionDecision "deny" stops the tool;
// the model gets the reason as an error tool_result in the next request.
// SessionStart additionalContext reaches the model in the first request.
func TestClaudePreToolUseDenyReachesModel(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	const reason = "sessiongate: start gate G1 not passed; next: sessiongate session advance"
	const context = "sessiongate: phase START-1, blocked by G1"
	deny, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})
	start, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "SessionStart", "additionalContext": context}})
	writeHooks(t, repo, func(ev string) string {
		switch ev {
		case "PreToolUse":
			return "cat >/dev/null; echo '" + string(deny) + "'"
		case "SessionStart":
			return "cat >/dev/null; echo '" + string(start) + "'"
		}
		return ""
	})
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(repo, "denied.txt"), "content": "x\n"}),
		agenttest.Say("stopped"),
	)
	res := agenttest.RunClaude(t, repo, "write denied.txt", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write"}})
	if res.ExitCode != 0 || res.Result != "stopped" {
		t.Fatalf("run: exit %d result %q\nstderr: %s", res.ExitCode, res.Result, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "denied.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("denied Write still created the file (stat: %v)", err)
	}
	conv := srv.Conversation()
	if len(conv) != 2 {
		t.Fatalf("%d scripted requests, want 2", len(conv))
	}
	if !conv[0].Contains(context) {
		t.Errorf("SessionStart additionalContext did not reach the first request")
	}
	last := conv[1].NewText()
	if !strings.Contains(last, "[tool_result is_error]") || !strings.Contains(last, reason) {
		t.Errorf("deny reason did not reach the model as an error tool_result; last message: %q", last)
	}
	t.Logf("the model sees the deny as: %q", last)
}

// A Stop hook that answers {"decision":"block","reason":...} makes Claude
// Code send the reason to the model and go on; the next Stop carries
// stop_hook_active true, which is how a hook knows it already blocked.
func TestClaudeStopBlockReachesModel(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	logPath := filepath.Join(t.TempDir(), "stop.jsonl")
	const reason = "sessiongate: end gate E1 not met; next: sessiongate session end"
	block, _ := json.Marshal(map[string]any{"decision": "block", "reason": reason})
	// Block unless this Stop is already a continuation of a block.
	writeHooks(t, repo, func(ev string) string {
		if ev != "Stop" {
			return ""
		}
		return "in=$(cat); printf '%s\\n' \"$in\" >> '" + logPath + "'; " +
			"case \"$in\" in *'\"stop_hook_active\":true'*) ;; *) echo '" + string(block) + "';; esac"
	})
	srv := agenttest.NewClaudeServer(t,
		agenttest.Say("first stop"),
		agenttest.Say("second stop"),
	)
	res := agenttest.RunClaude(t, repo, "do nothing", agenttest.ClaudeOptions{Server: srv})
	if res.ExitCode != 0 || res.Result != "second stop" {
		t.Fatalf("run: exit %d result %q\nstderr: %s", res.ExitCode, res.Result, res.Stderr)
	}
	stops := readPayloads(t, logPath)
	if len(stops) != 2 || stops[0]["stop_hook_active"] != false || stops[1]["stop_hook_active"] != true {
		t.Fatalf("Stop payloads: %v", stops)
	}
	conv := srv.Conversation()
	if len(conv) != 2 {
		t.Fatalf("%d scripted requests, want 2", len(conv))
	}
	// Claude Code 2.1.330 sends the reason twice: a user message
	// "Stop hook feedback:\n<reason>" and a system-role message naming the
	// hook command.
	fed := false
	for _, m := range conv[1].New() {
		fed = fed || m.Role == "user" && strings.Contains(m.Text(), "Stop hook feedback") && strings.Contains(m.Text(), reason)
	}
	if !fed {
		t.Errorf("block reason did not reach the model as user feedback; new messages:\n%s", conv[1].NewText())
	}
	t.Logf("the model sees the block as: %q", conv[1].NewText())
}
