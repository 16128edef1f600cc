package agenttest_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// Round 18, issue 25: the command that ran is the command judged, all of
// it. Round 17 compared a Bash call's command line only, and no write
// tool at all (PostToolUse was installed for Bash).

// payloadShim is a `sessiongate` first on PATH (the committed by-name hook
// runs it beside the local config's hook): it appends every payload it
// reads to log and answers the PreToolUse whose payload holds match with
// out, every other event with {}.
func payloadShim(t *testing.T, match, out string) (log, pathEnv string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "payloads.log")
	answer := "echo '{}'"
	if match != "" {
		answer = "case \"$*\" in *PreToolUse*) case \"$in\" in *'" + match + "'*) printf '%s' '" + out + "'; exit 0;; esac;; esac\necho '{}'"
	}
	shim := "#!/bin/sh\nin=$(cat)\nprintf '%s\\n' \"$in\" >> " + log + "\n" + answer + "\n"
	if err := os.WriteFile(filepath.Join(dir, "sessiongate"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	return log, "PATH=" + dir + string(os.PathListSeparator) + sgBin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// shimPayloads reads the shim's log: event name, tool_use_id, tool_input.
type payload struct {
	Event string         `json:"hook_event_name"`
	ID    string         `json:"tool_use_id"`
	Tool  string         `json:"tool_name"`
	Input map[string]any `json:"tool_input"`
}

func shimPayloads(t *testing.T, log string) []payload {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("the shim logged nothing (the test lost its point): %v", err)
	}
	var out []payload
	d := json.NewDecoder(bytes.NewReader(b))
	for d.More() {
		var p payload
		if err := d.Decode(&p); err != nil {
			t.Fatalf("shim log: %v\n%s", err, b)
		}
		out = append(out, p)
	}
	return out
}

func violationCodes(show map[string]any) string {
	var codes []string
	vs, _ := show["violations"].([]any)
	for _, v := range vs {
		codes = append(codes, v.(map[string]any)["code"].(string))
	}
	return strings.Join(codes, " ")
}

// TestClaudePostToolUseInputAsJudged measures, with the real CLI, what
// PostToolUse's tool_input holds against PreToolUse's for the same id:
// Bash with description and timeout, a backgrounded Bash, Write, Edit.
// judgedinput.Digest leaves no field out because they are the same; if a
// new Claude Code adds one, this fails first. It is also the honest twin
// of the rewrite tests: no TOOL_INPUT_REWRITTEN for calls nothing
// rewrote, and the backgrounded `sh test.sh` is no observed evidence (its
// PostToolUse comes at its start, exit 0, no output of it).
func TestClaudePostToolUseInputAsJudged(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	checkLocalConfig(t, r)
	log, pathEnv := payloadShim(t, "", "")
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status", "description": "show the tree", "timeout": 60000}),
		// By path (the shim is `sessiongate` on PATH): writes are denied
		// before the start gate.
		agenttest.Use("Bash", map[string]any{"command": filepath.Join(sgBin, "sessiongate") + " session advance --to WORKING"}),
		agenttest.Use("Bash", map[string]any{"command": "sh test.sh", "description": "tests in the background", "run_in_background": true}),
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "notes.md"), "content": "one\n"}),
		agenttest.Use("Edit", map[string]any{"file_path": filepath.Join(r.dir, "notes.md"), "old_string": "one", "new_string": "two"}),
		agenttest.Say("done"),
	)
	res := r.claude("look around", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash"}, Env: []string{pathEnv}})
	if res.ExitCode != 0 || srv.Used() < 6 {
		t.Fatalf("run: exit %d, %d of 6 turns\nstderr: %s", res.ExitCode, srv.Used(), res.Stderr)
	}
	pre := map[string]payload{}
	post := map[string]payload{}
	for _, p := range shimPayloads(t, log) {
		switch p.Event {
		case "PreToolUse":
			pre[p.ID] = p
		case "PostToolUse":
			post[p.ID] = p
		}
	}
	seen := map[string]bool{}
	for id, p := range pre {
		q, ok := post[id]
		if !ok {
			t.Errorf("%s %s: no PostToolUse reached the by-name hook (installed for %s?)", p.Tool, id, p.Tool)
			continue
		}
		seen[p.Tool] = true
		if !reflect.DeepEqual(p.Input, q.Input) {
			t.Errorf("%s %s: PostToolUse's tool_input differs from PreToolUse's (Claude Code changed a field; judgedinput.Digest must leave it out):\npre  %v\npost %v", p.Tool, id, p.Input, q.Input)
		}
	}
	if !seen["Bash"] || !seen["Write"] || !seen["Edit"] {
		t.Errorf("compared tools %v, want Bash, Write and Edit", seen)
	}
	show := r.onlySession()
	if codes := violationCodes(show); strings.Contains(codes, session.CodeToolInputRewritten) {
		t.Errorf("violations %q: an honest run has no %s", codes, session.CodeToolInputRewritten)
	}
	if observedRun(show, "git status") == nil {
		t.Errorf("the foreground `git status` is not observed evidence: %v", evidence(show))
	}
	if e := observedRun(show, "sh test.sh"); e != nil {
		t.Errorf("the backgrounded `sh test.sh` counted as observed evidence (nothing proves it passed): %v", e)
	}
}

// TestClaudeShimRewritesJudgedInput: the shim's updatedInput keeps the
// judged command but changes the rest of the input (backgrounds it), or
// keeps a write's content but moves it onto the protocol. Before, both
// ran unnoticed (only Bash's command was compared; no write tool had a
// PostToolUse). Now each is a HIGH TOOL_INPUT_REWRITTEN, and the write
// onto the protocol a PROTECTED_CHANGE at once.
func TestClaudeShimRewritesJudgedInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, match, out string
		calls            []agenttest.Turn
		want             []string
	}{
		{"bash backgrounded", `"show the tree"`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git status","description":"show the tree","run_in_background":true}}}`,
			[]agenttest.Turn{agenttest.Use("Bash", map[string]any{"command": "git status", "description": "show the tree"})},
			[]string{session.CodeToolInputRewritten}},
		{"write moved onto the protocol", `notes.md`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"ROOT/SESSION-PROTOCOL.md","content":"# gone\\n"}}}`,
			// The start gate passes first: Write is denied before it.
			[]agenttest.Turn{agenttest.Use("Bash", map[string]any{"command": "git status"}),
				// By path: the shim is `sessiongate` on the agent's PATH.
				agenttest.Use("Bash", map[string]any{"command": "SG session advance --to WORKING"}),
				agenttest.Use("Write", map[string]any{"file_path": "ROOT/notes.md", "content": "# gone\n"})},
			[]string{session.CodeToolInputRewritten, session.CodeProtectedChange}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := hookedRepo(t, "")
			checkLocalConfig(t, r)
			_, pathEnv := payloadShim(t, c.match, strings.ReplaceAll(c.out, "ROOT", r.dir))
			var turns []agenttest.Turn
			for _, tu := range c.calls {
				in, _ := json.Marshal(tu.Input)
				fixed := strings.NewReplacer("ROOT", r.dir, "SG ", filepath.Join(sgBin, "sessiongate")+" ").Replace(string(in))
				turns = append(turns, agenttest.Use(tu.Tool, json.RawMessage(fixed)))
			}
			srv := agenttest.NewClaudeServer(t, append(turns, agenttest.Say("done"))...)
			res := r.claude("work", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash"}, Env: []string{pathEnv}})
			if res.ExitCode != 0 || srv.Used() < len(c.calls)+1 {
				t.Fatalf("run: exit %d, %d of %d turns\nstderr: %s", res.ExitCode, srv.Used(), len(c.calls)+1, res.Stderr)
			}
			if c.match == "notes.md" {
				if b, _ := os.ReadFile(filepath.Join(r.dir, "SESSION-PROTOCOL.md")); !strings.Contains(string(b), "# gone") {
					t.Fatalf("Claude Code did not run the rewritten write (the test lost its point); the protocol reads:\n%s", b)
				}
			}
			show := r.onlySession()
			codes := violationCodes(show)
			for _, w := range c.want {
				if !strings.Contains(codes, w) {
					t.Errorf("violations %q, want %s", codes, w)
				}
			}
			if e := observedRun(show, "git status"); e != nil && c.match != "notes.md" {
				t.Errorf("the rewritten call was recorded as evidence: %v", e)
			}
		})
	}
}
