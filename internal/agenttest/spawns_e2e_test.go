package agenttest_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// spawnCounter puts a `sessiongate` on PATH ahead of the real one that
// logs each run's arguments and the tool its event names (one line per
// process the agent starts) and execs the real binary; it returns the PATH
// entry, the log and the wrapper's path.
func spawnCounter(t *testing.T, r *sgRepo) (string, string, string) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "spawns.log")
	wrapper := filepath.Join(dir, "sessiongate")
	script := fmt.Sprintf("#!/bin/sh\nin=$(cat)\ntool=$(printf '%%s' \"$in\" | sed -n 's/.*\"tool_\\{0,1\\}[Nn]ame\" *: *\"\\([A-Za-z_]*\\)\".*/\\1/p' | head -n 1)\n"+
		"echo \"$* ${tool:--}\" >> %q\nprintf '%%s' \"$in\" | exec %q \"$@\"\n", log, filepath.Join(sgBin, "sessiongate"))
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	path := ""
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	return "PATH=" + dir + string(os.PathListSeparator) + path, log, wrapper
}

// hookSpawns counts the agent-hook runs in the log, by event, and the
// tool-call hooks by event and tool ("preToolUse view").
func hookSpawns(t *testing.T, log string) (int, map[string]int, map[string]int) {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	by, byTool := map[string]int{}, map[string]int{}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 4 && f[0] == "agent-hook" {
			by[f[2]]++
			byTool[f[2]+" "+f[3]]++
			n++
		}
	}
	return n, by, byTool
}

// medianRun times cmd (with stdin) n times and returns the median.
func medianRun(t *testing.T, n int, stdin []byte, env []string, dir, name string, args ...string) time.Duration {
	t.Helper()
	var ds []time.Duration
	for i := 0; i < n; i++ {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(stdin)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		ds = append(ds, time.Since(start))
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// TestAgentHookSpawnsPer100ToolCalls (issue 27.4): a typical session's
// mix of tool calls under the real Copilot CLI and Codex CLI, with
// sessiongate on PATH through a counting wrapper. Searches spawn nothing
// (Copilot's grep/glob; Codex reads through its shell, which is watched);
// Copilot's view starts its preToolUse hook since round 16, which keeps
// the witness of the read (issue 25); the test fails when a search starts
// a hook. It logs processes
// per 100 tool calls and the time they add, against a Python hook doing
// the same work on every tool call (the seed team's setup).
func TestAgentHookSpawnsPer100ToolCalls(t *testing.T) {
	// A typical turn: mostly reading, some shell (status, tests), a few edits.
	const reads, shells, edits = 12, 5, 3
	total := reads + shells + edits
	perSpawn := map[string]time.Duration{}
	t.Run("copilot", func(t *testing.T) {
		r := installedRepo(t, "", "--agent", "copilot")
		path, log, wrapper := spawnCounter(t, r)
		// The machine-local hooks file calls the binary by path (round
		// 17): point it at the counter too, so every process is counted.
		local := filepath.Join(r.dir, ".github", "hooks", "sessiongate.local.json")
		lb, err := os.ReadFile(local)
		if err != nil {
			t.Fatalf("install --agent copilot wrote no local hooks file: %v", err)
		}
		if err := os.WriteFile(local, []byte(strings.ReplaceAll(string(lb), filepath.Join(sgBin, "sessiongate"), wrapper)), 0o644); err != nil {
			t.Fatal(err)
		}
		var steps []agenttest.Step
		views := 0
		for i := 0; i < reads; i++ {
			switch i % 4 {
			case 0, 1:
				views++
				steps = append(steps, agenttest.ToolStep("view", map[string]any{"path": filepath.Join(r.dir, "SESSION-PROTOCOL.md")}))
			case 2:
				steps = append(steps, agenttest.ToolStep("grep", map[string]any{"pattern": "MUST", "path": r.dir}))
			case 3:
				steps = append(steps, agenttest.ToolStep("glob", map[string]any{"pattern": "**/*.md"}))
			}
		}
		for i := 0; i < shells; i++ {
			steps = append(steps, agenttest.ToolStep("bash", map[string]any{"command": "git status", "description": "status"}))
		}
		for i := 0; i < edits; i++ {
			steps = append(steps, agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, fmt.Sprintf("f%d.txt", i)), "file_text": "x\n"}))
		}
		steps = append(steps, agenttest.TextStep("done"))
		stub := agenttest.StartOpenAIStub(t, steps...)
		res := agenttest.RunCopilot(t, r.dir, "look around", stub, append(append([]string{}, r.env...), path), 0)
		if used := len(stub.Scripted(t)); used < len(steps) {
			t.Fatalf("%d of %d steps used; exit %d\nstderr: %s", used, len(steps), res.ExitCode, res.Stderr)
		}
		n, by, byTool := hookSpawns(t, log)
		// Two hooks files answer each event (the committed by-name one
		// defers to the local one), and Copilot runs no later hook once
		// one denies (the creates, before the start gates): so at least
		// one process per shell, edit and view, none per search.
		for tool, want := range map[string]int{"view": views, "bash": shells, "create": edits, "grep": 0, "glob": 0} {
			if got := byTool["preToolUse "+tool]; (want == 0) != (got == 0) || got < want {
				t.Errorf("preToolUse for %s ran %d times (want at least %d, and none for a search): %v", tool, got, want, byTool)
			}
		}
		if by["postToolUse"] < shells {
			t.Errorf("postToolUse ran %d times (want at least %d)", by["postToolUse"], shells)
		}
		perSpawn["copilot"] = medianRun(t, 9, []byte(fmt.Sprintf(`{"sessionId":"spawn-1","cwd":%q,"toolName":"bash","toolArgs":{"command":"git status"}}`, r.dir)),
			append(os.Environ(), r.env...), r.dir, filepath.Join(sgBin, "sessiongate"), "agent-hook", "copilot", "preToolUse")
		t.Logf("copilot: %d tool calls, %d sessiongate processes (%v), %.0f per 100 tool calls; run %s; one preToolUse hook %s, so about %s added",
			total, n, by, float64(n)*100/float64(total), res.Elapsed.Round(time.Millisecond), perSpawn["copilot"].Round(time.Millisecond),
			(time.Duration(n) * perSpawn["copilot"]).Round(time.Millisecond))
	})
	t.Run("codex", func(t *testing.T) {
		r := installedRepo(t, "", "--agent", "codex")
		path, log, _ := spawnCounter(t, r)
		var steps []agenttest.Step
		for i := 0; i < reads; i++ {
			steps = append(steps, agenttest.ToolStep("exec_command", map[string]any{"cmd": "cat SESSION-PROTOCOL.md"}))
		}
		for i := 0; i < shells; i++ {
			steps = append(steps, agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}))
		}
		for i := 0; i < edits; i++ {
			steps = append(steps, agenttest.ToolStep("apply_patch", addPatch(fmt.Sprintf("f%d.txt", i), "x")))
		}
		steps = append(steps, agenttest.TextStep("done"))
		stub := agenttest.StartOpenAIStub(t, steps...)
		res := agenttest.RunCodex(t, r.dir, "look around", stub, append(append([]string{}, r.env...), path), 0)
		if used := len(stub.Scripted(t)); used < len(steps) {
			t.Fatalf("%d of %d steps used; exit %d\nstderr: %s", used, len(steps), res.ExitCode, res.Stderr)
		}
		n, by, _ := hookSpawns(t, log)
		if by["PreToolUse"] != total || by["PostToolUse"] != reads+shells {
			t.Errorf("PreToolUse ran %d times (want %d: Codex reads through Bash), PostToolUse %d (want %d: Bash only)", by["PreToolUse"], total, by["PostToolUse"], reads+shells)
		}
		perSpawn["codex"] = medianRun(t, 9, []byte(fmt.Sprintf(`{"session_id":"spawn-2","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"c1"}`, r.dir)),
			append(os.Environ(), r.env...), r.dir, filepath.Join(sgBin, "sessiongate"), "agent-hook", "codex", "PreToolUse")
		t.Logf("codex: %d tool calls, %d sessiongate processes (%v), %.0f per 100 tool calls; run %s; one PreToolUse hook %s, so about %s added",
			total, n, by, float64(n)*100/float64(total), res.Elapsed.Round(time.Millisecond), perSpawn["codex"].Round(time.Millisecond),
			(time.Duration(n) * perSpawn["codex"]).Round(time.Millisecond))
	})
	// The seed team's Python hook: one interpreter per tool call (pre and
	// post, unscoped), reading the event JSON.
	{
		py := agenttest.Python3(t)
		d := medianRun(t, 9, []byte(`{"toolName":"bash","toolArgs":{"command":"git status"}}`), os.Environ(), t.TempDir(), py, "-c", "import json,sys; json.load(sys.stdin)")
		t.Logf("python3 hook doing nothing but reading the event: %s per spawn; 2 per tool call + 4 per session = %d processes for these %d tool calls, about %s (at the seed team's ~250 ms per spawn on Windows: %s)",
			d.Round(time.Millisecond), 2*total+4, total, (time.Duration(2*total+4) * d).Round(time.Millisecond), time.Duration(2*total+4)*250*time.Millisecond)
	}
}
