package agenthook_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR59H344ExecedUnderNpmCLI (helper 344): an agent CLI run by a
// JavaScript runtime (`node .../@anthropic-ai/claude-code/cli.js`, an npm
// install) is taken for the npm launcher of a native CLI process under
// it (nestedAgent's launcher), so a native-named fake the tool call's
// shell exec'd (`exec ./claude`: no shell left between) had no agent
// above it; and since the conversation's CLI is its own parent, every
// ancestor's start reads no later than that CLI's, so round 59's rule
// never fires. Playing a conversation of its own, its made-up passing
// run was kept as observed. Now a CLI kept for the session above the
// hook's CLI makes it no witness (session.EarlierLiveCLI, Below): the
// launcher of a native CLI never sends a hook, so it is never kept.
func TestR59H344ExecedUnderNpmCLI(t *testing.T) {
	needOwnAncestry(t)
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	py := strings.TrimSpace(string(out))
	if err != nil || py == "" {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	// The conversation's CLI as npm runs it: node .../claude-code/cli.js.
	lines := filepath.Join(dir, "lines")
	writeFakeClaudeLines(t, lines)
	body, err := os.ReadFile(lines)
	if err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(dir, "bin", "node")
	cliJS := filepath.Join(dir, "@anthropic-ai", "claude-code", "cli.js")
	for _, d := range []string{filepath.Dir(node), filepath.Dir(cliJS)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(py, node); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cliJS, body, 0o644); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "fake", "claude")
	if err := os.MkdirAll(filepath.Dir(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaudeLines(t, fake)

	r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
	tmp := t.TempDir()
	sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff4344"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	file := payloadFiles(t, tmp)
	fsid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff5344"
	hook := func(event, in string) string {
		return fmt.Sprintf("'%s' agent-hook claude %s < '%s'", binary, event, in)
	}
	own := filepath.Join(tmp, "own")
	if err := os.WriteFile(own, []byte(strings.Join([]string{
		hook("SessionStart", file("start", golden(t, r, "claude", "SessionStart", fsid))) + " > /dev/null",
		hook("UserPromptSubmit", file("fprompt", golden(t, r, "claude", "UserPromptSubmit", fsid))) + " > /dev/null",
		hook("PreToolUse", file("pre", golden(t, r, "claude", "PreToolUse-Bash", fsid))) + " > /dev/null",
		hook("PostToolUse", file("post", golden(t, r, "claude", "PostToolUse-Bash", fsid)))}, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(tmp, "post.out")
	sc := filepath.Join(tmp, "script")
	if err := os.WriteFile(sc, []byte(strings.Join([]string{
		fmt.Sprintf("'%s' agent-hook claude UserPromptSubmit < '%s' > /dev/null", binary, file("prompt", golden(t, r, "claude", "UserPromptSubmit", sid))),
		fmt.Sprintf("exec '%s' '%s' > '%s'", fake, own, outFile),
	}, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := r.run(r.root, nil, nil, node, cliJS, sc)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.out, res.err)
	}
	ans, _ := os.ReadFile(outFile)
	evs, err := r.db().ListEvidence(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 {
		t.Fatalf("no evidence: the lazy run was not played (answer %s; stderr %s)", ans, res.err)
	}
	for _, e := range evs {
		if e.Command == "true" && e.ExitCode != nil && *e.ExitCode == 0 {
			t.Errorf("a made-up passing run was kept as observed: %+v (answer %s)", e, ans)
		}
	}
}
