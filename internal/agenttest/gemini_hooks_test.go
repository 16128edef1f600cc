package agenttest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// The real Gemini CLI against the scripted Gemini API, with project hooks
// in .gemini/settings.json: the payload of each lifecycle event and how a
// BeforeTool deny and an AfterAgent deny reach the model.

// geminiEvents are the Gemini CLI events sessiongate maps its behaviours to.
var geminiEvents = []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"}

func writeGeminiHooks(t *testing.T, dir string, command func(event string) string) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range geminiEvents {
		if c := command(ev); c != "" {
			hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": c}}}}
		}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err := os.MkdirAll(filepath.Join(dir, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gemini", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGeminiHookPayloads(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	logPath := filepath.Join(t.TempDir(), "hooks.jsonl")
	writeGeminiHooks(t, repo, func(string) string { return logHook(logPath) })
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(repo, "hello.txt"), "content": "hello\n"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "true"}),
		agenttest.Use("run_shell_command", map[string]any{"command": failingCommand}),
		agenttest.Say("all done"),
	)
	const prompt = "write hello.txt and run two commands"
	res := agenttest.RunGemini(t, repo, prompt, agenttest.GeminiOptions{Server: srv})
	t.Logf("gemini run: %s", res.Elapsed)
	if res.ExitCode != 0 || res.Response != "all done" {
		t.Fatalf("run: exit %d response %q error %s\nstderr: %s", res.ExitCode, res.Response, res.Error, res.Stderr)
	}
	if got, err := os.ReadFile(filepath.Join(repo, "hello.txt")); err != nil || string(got) != "hello\n" {
		t.Fatalf("write_file did not run for real: %q %v", got, err)
	}
	byKey := map[string]map[string]any{}
	var order []string
	for _, p := range readPayloads(t, logPath) {
		k := eventKey(p)
		order = append(order, k)
		byKey[k] = p
	}
	want := []string{
		"SessionStart", "BeforeAgent",
		"BeforeTool write_file", "AfterTool write_file",
		"BeforeTool run_shell_command true", "AfterTool run_shell_command true",
		"BeforeTool run_shell_command " + failingCommand, "AfterTool run_shell_command " + failingCommand,
		"AfterAgent", "SessionEnd",
	}
	if strings.Join(order, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hook events in order:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	session := byKey["SessionStart"]["session_id"]
	for k, p := range byKey {
		if s, _ := p["session_id"].(string); s == "" || p["session_id"] != session {
			t.Errorf("%s: session_id %v, want %v", k, p["session_id"], session)
		}
		if p["cwd"] != repo {
			t.Errorf("%s: cwd %v, want %s", k, p["cwd"], repo)
		}
	}
	for key, field := range map[string]string{
		"SessionStart": "source", "BeforeAgent": "prompt", "AfterAgent": "stop_hook_active",
		"BeforeTool write_file": "tool_input", "AfterTool write_file": "tool_response",
		"SessionEnd": "reason",
	} {
		if _, ok := byKey[key][field]; !ok {
			t.Errorf("%s: no %s in %v", key, field, byKey[key])
		}
	}
	if byKey["BeforeAgent"]["prompt"] != prompt || byKey["AfterAgent"]["prompt_response"] != "all done" {
		t.Errorf("prompt / prompt_response: %v / %v", byKey["BeforeAgent"]["prompt"], byKey["AfterAgent"]["prompt_response"])
	}
	// A shell command's exit status reaches AfterTool only as text inside
	// tool_response.llmContent ("Exit Code: N" when non-zero; no line on
	// success): there is no structured exit code field.
	llm := func(key string) string {
		r, _ := byKey[key]["tool_response"].(map[string]any)
		s, _ := r["llmContent"].(string)
		return s
	}
	if s := llm("AfterTool run_shell_command " + failingCommand); !strings.Contains(s, "Exit Code: 3") || !strings.Contains(s, "to-stdout") {
		t.Errorf("failing command's llmContent %q: want Exit Code: 3 and its output", s)
	}
	if s := llm("AfterTool run_shell_command true"); strings.Contains(s, "Exit Code") {
		t.Errorf("successful command's llmContent names an exit code: %q", s)
	}

	goldens := map[string]string{
		"SessionStart": "SessionStart.json", "BeforeAgent": "BeforeAgent.json",
		"BeforeTool write_file": "BeforeTool-write_file.json", "AfterTool write_file": "AfterTool-write_file.json",
		"BeforeTool run_shell_command true":             "BeforeTool-run_shell_command.json",
		"AfterTool run_shell_command true":              "AfterTool-run_shell_command.json",
		"AfterTool run_shell_command " + failingCommand: "AfterTool-run_shell_command-failed.json",
		"AfterAgent": "AfterAgent.json", "SessionEnd": "SessionEnd.json",
	}
	checkGoldens(t, filepath.Join("agenthook", "testdata", "gemini"), goldens, byKey, repo, res.Home)
}

// A BeforeTool {"decision":"deny"} stops the tool and its reason reaches
// the model as the function response; SessionStart additionalContext
// reaches the first request.
func TestGeminiBeforeToolDenyReachesModel(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	const reason = "sessiongate: start gate G1 not passed; next: sessiongate session advance"
	const context = "sessiongate: phase START-1, blocked by G1"
	deny, _ := json.Marshal(map[string]any{"decision": "deny", "reason": reason})
	start, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "SessionStart", "additionalContext": context}})
	writeGeminiHooks(t, repo, func(ev string) string {
		switch ev {
		case "BeforeTool":
			return "cat >/dev/null; echo '" + string(deny) + "'"
		case "SessionStart":
			return "cat >/dev/null; echo '" + string(start) + "'"
		}
		return ""
	})
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(repo, "denied.txt"), "content": "x\n"}),
		agenttest.Say("stopped"),
	)
	res := agenttest.RunGemini(t, repo, "write denied.txt", agenttest.GeminiOptions{Server: srv})
	if res.ExitCode != 0 || res.Response != "stopped" {
		t.Fatalf("run: exit %d response %q error %s\nstderr: %s", res.ExitCode, res.Response, res.Error, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "denied.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("denied write_file still created the file (stat: %v)", err)
	}
	conv := srv.Conversation()
	if len(conv) != 2 {
		t.Fatalf("%d scripted requests, want 2", len(conv))
	}
	if !conv[0].Contains(context) {
		t.Errorf("SessionStart additionalContext did not reach the first request")
	}
	if got := conv[1].NewText(); !strings.Contains(got, reason) {
		t.Errorf("deny reason did not reach the model: %q", got)
	}
	t.Logf("the model sees the deny as: %q", conv[1].NewText())
}

// An AfterAgent {"decision":"deny"} makes the CLI send the reason as a new
// prompt; the next AfterAgent carries stop_hook_active true.
func TestGeminiAfterAgentDenyReachesModel(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	logPath := filepath.Join(t.TempDir(), "after.jsonl")
	const reason = "sessiongate: end gate E1 not met; next: sessiongate session end"
	deny, _ := json.Marshal(map[string]any{"decision": "deny", "reason": reason})
	writeGeminiHooks(t, repo, func(ev string) string {
		if ev != "AfterAgent" {
			return ""
		}
		return "in=$(cat); printf '%s\\n' \"$in\" >> '" + logPath + "'; " +
			"case \"$in\" in *'\"stop_hook_active\":true'*) echo '{}';; *) echo '" + string(deny) + "';; esac"
	})
	srv := agenttest.NewGeminiServer(t, agenttest.Say("first stop"), agenttest.Say("second stop"))
	res := agenttest.RunGemini(t, repo, "do nothing", agenttest.GeminiOptions{Server: srv})
	if res.ExitCode != 0 {
		t.Fatalf("run: exit %d response %q error %s\nstderr: %s", res.ExitCode, res.Response, res.Error, res.Stderr)
	}
	stops := readPayloads(t, logPath)
	if len(stops) != 2 || stops[0]["stop_hook_active"] != false || stops[1]["stop_hook_active"] != true {
		t.Fatalf("AfterAgent payloads: %v", stops)
	}
	conv := srv.Conversation()
	if len(conv) != 2 {
		t.Fatalf("%d scripted requests, want 2", len(conv))
	}
	if got := conv[1].NewText(); !strings.Contains(got, reason) {
		t.Errorf("deny reason did not reach the model: %q", got)
	}
	t.Logf("the model sees the AfterAgent deny as: %q (response %q)", conv[1].NewText(), res.Response)
}

// checkGoldens writes (with -update) or checks the scrubbed payloads kept
// under dir (relative to the module root) for package agenthook.
func checkGoldens(t *testing.T, dir string, goldens map[string]string, byKey map[string]map[string]any, repo, home string) {
	t.Helper()
	dir = filepath.Join(agenttest.ModuleRoot(t), dir)
	for key, name := range goldens {
		live := scrub(byKey[key], repo, home)
		path := filepath.Join(dir, name)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			_ = enc.Encode(live)
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// Every field a golden example shows must still be sent by the
		// pinned CLI version.
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("golden %s: %v (rerun this test with -update)", path, err)
		}
		var golden map[string]any
		if err := json.Unmarshal(b, &golden); err != nil {
			t.Fatalf("golden %s: %v", path, err)
		}
		if missing := missingKeys(golden, live); len(missing) > 0 {
			t.Errorf("%s: the CLI no longer sends %v", name, missing)
		}
	}
}
