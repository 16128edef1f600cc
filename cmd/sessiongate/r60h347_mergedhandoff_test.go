package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR60H347MergedHandoffIsNotTheSessions: under the v3.0-style protocol
// an honest session merges main, which brings in a teammate's handoff
// (.agents/handoffs/...-02.md), and writes its own (-03). The HANDOFF gate
// judged the teammate's file as this session's: "names nothing this
// session did", and the session could not end (fixing it would rewrite the
// teammate's notes). A version main wrote is main's; the session's own
// handoff is still judged (a template left unfilled fails), and a merged
// handoff the session then edits is its own again.
func TestR60H347MergedHandoffIsNotTheSessions(t *testing.T) {
	t.Parallel()
	bin := realBinary(t)
	root := t.TempDir()
	origin, dir := filepath.Join(root, "origin.git"), filepath.Join(root, "dev")
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e",
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")}
	agent := append(append([]string{}, env...), "CLAUDECODE=1")
	run := func(e []string, name string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if name == "git" {
			cmd.Env = append(os.Environ(), e...)
		} else {
			cmd.Env = sgEnv(e)
		}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return 0, string(out)
	}
	must := func(e []string, name string, args ...string) string {
		t.Helper()
		code, out := run(e, name, args...)
		if code != 0 {
			t.Fatalf("%s %v: exit %d\n%s", name, args, code, out)
		}
		return out
	}
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", "--bare", "-b", "main", origin).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v %s", err, out)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	must(env, "git", "init", "-q", "-b", "main")
	write("SESSION-PROTOCOL.md", string(doc))
	write(".agents/HANDOFF.md", "# Handoff\n\nShared notes.\n")
	write("scripts/greet.sh", "#!/bin/sh\necho hello\n")
	write("scripts/test.sh", "#!/bin/sh\ntest \"$(sh scripts/greet.sh)\" = hello\n")
	must(env, "git", "add", "-A")
	must(env, "git", "commit", "-q", "-m", "feat: greet")
	must(env, bin, "init")
	must(env, "git", "add", "-A")
	must(env, "git", "commit", "-q", "-m", "chore: adopt sessiongate")
	must(env, "git", "remote", "add", "origin", origin)
	must(env, "git", "push", "-q", "-u", "origin", "main")
	must(env, bin, "install")
	must(env, "git", "switch", "-q", "-c", "feat/name")
	// main moves on in a teammate's clone: their handoff lands there.
	mate := filepath.Join(root, "mate")
	if out, err := exec.Command("git", "clone", "-q", origin, mate).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v %s", err, out)
	}
	p := filepath.Join(mate, ".agents", "handoffs", "2026-12-07-02.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("# Handoff 2026-12-07-02\n\n## Done\n\nThe teammate's CI tweak.\n\n## Next\n\nNothing.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "docs: teammate's handoff"}, {"push", "-q", "origin", "main"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = mate, append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v in the teammate's clone: %v %s", args, err, out)
		}
	}

	out := must(agent, bin, "session", "start", "--objective", "greet takes a name")
	id := ""
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "export SESSIONGATE_SESSION="); ok {
			id = v
		}
	}
	if id == "" {
		t.Fatalf("no session id in %q", out)
	}
	agent = append(agent, "SESSIONGATE_SESSION="+id)
	must(agent, bin, "run", "--phase", "CONTEXT_RETRIEVAL", "--", "cat", ".agents/HANDOFF.md")
	must(agent, bin, "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", "manual", "--value", "task: greet takes a name")
	must(agent, bin, "session", "advance")
	must(agent, bin, "run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "git", "branch", "--show-current")
	must(agent, bin, "session", "advance")
	must(agent, bin, "session", "advance", "--to", "WORKING")
	write("scripts/greet.sh", "#!/bin/sh\necho \"hello${1:+ $1}\"\n")
	must(agent, "git", "commit", "-q", "-am", "feat: greet takes a name")
	must(agent, "git", "fetch", "-q", "origin")
	must(agent, "git", "merge", "-q", "--no-edit", "origin/main")

	gate := func() (int, string) {
		t.Helper()
		return run(agent, bin, "session", "gate", "--phase", "HANDOFF")
	}
	const own = ".agents/handoffs/2026-12-07-03.md"
	const filled = "# Handoff 2026-12-07-03\n\n## Done\n\nscripts/greet.sh takes a name; main merged in.\n\n## Next\n\nNothing.\n"
	for _, step := range []struct {
		name   string
		do     func()
		code   int
		want   string
		reject string
	}{
		// Lazy twin: no handoff of its own, the teammate's merged one
		// offered as the session's (round 60 review).
		{"no own handoff, the teammate's offered as evidence", func() {
			run(agent, bin, "session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", "file_path", "--value", ".agents/handoffs/2026-12-07-02.md")
		}, 1, "", ""},
		{"own handoff filled, the teammate's merged in", func() {
			write(own, filled)
			must(agent, bin, "session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", "file_path", "--value", own)
		}, 0, "PASS", ""},
		{"own handoff back to the template", func() {
			write(own, "# Handoff YYYY-MM-DD-NN\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n")
		}, 1, "2026-12-07-03.md", "2026-12-07-02.md"},
		{"the teammate's handoff edited after the merge", func() {
			write(own, filled)
			write(".agents/handoffs/2026-12-07-02.md", "# Handoff 2026-12-07-02\n\n## Done\n\n[what was completed]\n\n## Next\n\nNothing.\n")
		}, 1, "2026-12-07-02.md", ""},
	} {
		step.do()
		code, out := gate()
		if code != step.code || !strings.Contains(out, step.want) || step.reject != "" && strings.Contains(out, step.reject) {
			t.Fatalf("%s: exit %d, want %d with %q (and not %q):\n%s", step.name, code, step.code, step.want, step.reject, out)
		}
	}
}
