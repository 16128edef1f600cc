package agenthook_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestR59SecondTerminalWitnessed: the honest twin of a detached CLI that
// plays a conversation of its own (TestR58H343DetachedCLINoWitness). A
// person's second CLI in the same worktree, started while the session's
// first CLI runs, hangs from something older than that CLI (here the
// test process, as a terminal or multiplexer would be), so it is a
// witness of its own conversation's runs: exit 0 is kept as observed.
func TestR59SecondTerminalWitnessed(t *testing.T) {
	needOwnAncestry(t)
	dir := t.TempDir()
	cli := filepath.Join(dir, "claude")
	writeFakeClaudeLines(t, cli)
	r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
	first, second := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0359", "0199aaaa-bbbb-7ccc-8ddd-eeeeffff1359"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", first))
	s := r.active()
	tmp := t.TempDir()
	file := payloadFiles(t, tmp)
	hook := func(event, in string) string {
		return fmt.Sprintf("'%s' agent-hook claude %s < '%s' > /dev/null", binary, event, in)
	}
	script := func(name string, lines ...string) string {
		f := filepath.Join(tmp, name)
		if err := os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	ready, done := filepath.Join(tmp, "ready"), filepath.Join(tmp, "done")
	// The first terminal's CLI: its prompt, then a long tool call.
	one := exec.Command(cli, script("one", hook("UserPromptSubmit", file("prompt1", golden(t, r, "claude", "UserPromptSubmit", first))),
		fmt.Sprintf("touch '%s'; i=0; while [ ! -e '%s' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done", ready, done)))
	one.Dir, one.Env = r.root, r.env
	var oneOut strings.Builder
	one.Stdout, one.Stderr = &oneOut, &oneOut
	if err := one.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = os.WriteFile(done, nil, 0o644)
		if err := one.Wait(); err != nil {
			t.Errorf("first CLI: %v\n%s", err, oneOut.String())
		}
	}()
	for i := 0; ; i++ {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if i > 600 {
			t.Fatalf("the first CLI never reached its tool call:\n%s", oneOut.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The second terminal's CLI, while the first runs: a conversation of
	// its own, one passing run.
	res := r.run(r.root, nil, nil, cli, script("two",
		hook("SessionStart", file("start2", golden(t, r, "claude", "SessionStart", second))),
		hook("UserPromptSubmit", file("prompt2", golden(t, r, "claude", "UserPromptSubmit", second))),
		hook("PreToolUse", file("pre2", golden(t, r, "claude", "PreToolUse-Bash", second))),
		fmt.Sprintf("'%s' agent-hook claude PostToolUse < '%s'", binary, file("post2", golden(t, r, "claude", "PostToolUse-Bash", second)))))
	if res.code != 0 {
		t.Fatalf("second CLI: exit %d\n%s%s", res.code, res.out, res.err)
	}
	if r.active().ID != s.ID {
		t.Fatalf("the second conversation started another session")
	}
	evs, err := r.db().ListEvidence(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].ExitCode == nil || *evs[0].ExitCode != 0 || strings.Contains(res.out, "not taken") {
		t.Fatalf("evidence %+v, answer %s: want the second terminal's run kept as observed, exit 0", evs, res.out)
	}
}
