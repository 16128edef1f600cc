package agenthook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitHookBinaryWrite: the git hooks exec the binary they were
// installed from by absolute path (the `sg=` line of .git/hooks/pre-commit).
// When that binary is not on PATH and is not the one the agent hook runs
// as, an agent could overwrite it with a script that exits 0 and then
// commit with every pre-commit gate skipped. Before hookbinary.go the
// deny rows below were allowed (the gap the hooks helper of issue 25
// named). Writing beside it, reading it and a file of the same name
// elsewhere stay allowed. Under core.hooksPath (a relative folder, and
// one given only by `git -c` in the environment) the pre-commit git runs
// is in that folder: before the check read it there, the deny rows of the
// hooksPath layouts were allowed.
func TestGitHookBinaryWrite(t *testing.T) {
	for _, layout := range []struct {
		name      string
		hooksPath string // core.hooksPath in the repository config
		envPath   bool   // core.hooksPath given by GIT_CONFIG_* instead
	}{
		{name: ".git/hooks"},
		{name: "core.hooksPath relative", hooksPath: ".githooks"},
		{name: "core.hooksPath from the environment", hooksPath: "shared-hooks", envPath: true},
	} {
		t.Run(layout.name, func(t *testing.T) {
			testGitHookBinaryWrite(t, layout.hooksPath, layout.envPath)
		})
	}
}

func testGitHookBinaryWrite(t *testing.T, hooksPath string, envPath bool) {
	r := newRepo(t, "")
	hooksDir := filepath.Join(r.root, ".git", "hooks")
	if hooksPath != "" {
		hooksDir = filepath.Join(r.root, hooksPath)
		if envPath {
			// Only the agent's environment names it, as a CI or a
			// wrapper script that exports it would.
			r.env = append(r.env, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.hooksPath", "GIT_CONFIG_VALUE_0="+hooksPath)
		} else {
			r.git("config", "core.hooksPath", hooksPath)
		}
	}
	base := filepath.Dir(r.root)
	opt := filepath.Join(base, "opt", "sg")
	if err := os.MkdirAll(opt, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	hookBin := filepath.Join(opt, "sessiongate")
	if err := os.WriteFile(hookBin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if res := r.run(r.root, nil, nil, hookBin, "install"); res.code != 0 {
		t.Fatalf("install from %s: exit %d\n%s%s", hookBin, res.code, res.out, res.err)
	}
	pc, err := os.ReadFile(filepath.Join(hooksDir, "pre-commit"))
	if err != nil || !strings.Contains(string(pc), hookBin) {
		t.Fatalf("pre-commit does not exec %s (err %v):\n%s", hookBin, err, pc)
	}
	// A link to the hooks' binary: writing through it writes the binary.
	link := filepath.Join(base, "sg-link")
	if err := os.Symlink(hookBin, link); err != nil {
		t.Fatal(err)
	}
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", "claude-hookbin"))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	bash := golden(t, r, "claude", "PreToolUse-Bash", "claude-hookbin")
	write := golden(t, r, "claude", "PreToolUse-Write", "claude-hookbin")
	shell := func(c string) map[string]any { return with(bash, "tool_input", map[string]any{"command": c}) }
	cases := []struct {
		name    string
		payload map[string]any
		deny    bool
	}{
		{"cp over the hooks' binary", shell(`cp /bin/true ` + hookBin), true},
		{"redirect over the hooks' binary", shell(`printf '#!/bin/sh\nexit 0\n' > ` + hookBin), true},
		{"Write tool over the hooks' binary", with(write, "tool_input", map[string]any{"file_path": hookBin, "content": "#!/bin/sh\nexit 0\n"}), true},
		{"through a link to it", shell(`cp /bin/true ` + link), true},
		{"honest: reads the hooks' binary", shell(`sha256sum ` + hookBin + ` && ls -la ` + opt), false},
		{"honest: a file beside it", shell(`echo hi > ` + filepath.Join(opt, "notes.txt")), false},
		{"honest: a file called sessiongate elsewhere", shell(`mkdir -p tools && echo x > tools/sessiongate`), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, res := r.hook("claude", "PreToolUse", c.payload)
			if denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"; denied != c.deny {
				t.Fatalf("denied %v, want %v: %v\nstderr: %s", denied, c.deny, out, res.err)
			}
			if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); c.deny && !strings.Contains(why, "git hooks") {
				t.Errorf("denied for another reason: %s", why)
			}
		})
	}
}
