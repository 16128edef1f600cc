package agenthook_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR58H343WrapperScriptNamedLikeCLI (helper 343): a person's wrapper
// script named like the CLI (~/bin/claude: `#!/bin/sh`, set the
// environment, run the real one without exec; a version manager's shim)
// is a process named claude (Linux names a script's process after the
// script) above the real CLI, so nestedAgent read every honest hook as
// a nested CLI's, and since round 58 each run was kept with its status
// unknown. The wrapper is the same CLI's (a shell running a script named
// as the CLI, right above it), not a second agent. Lazy twin: the same
// wrapper started from an agent's shell is still nested.
func TestR58H343WrapperScriptNamedLikeCLI(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is nested", p.Name)
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "claude")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaude(t, real)
	wrapper := filepath.Join(dir, "bin", "claude")
	if err := os.MkdirAll(filepath.Dir(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	// Not exec: the shell stays, as a wrapper that cleans up after does.
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexport CLAUDE_WRAPPED=1\n'"+real+"' \"$@\"\nexit $?\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	outer := filepath.Join(dir, "outer", "claude")
	if err := os.MkdirAll(filepath.Dir(outer), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaude(t, outer)
	for _, c := range []struct {
		name   string
		nested bool
	}{
		{"honest: the CLI started by a wrapper script named claude", false},
		{"lazy: the wrapper started from an agent's shell", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff2343"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			name := wrapper
			if c.nested {
				name = outer
			}
			playPairUnder(t, r, sid, c.nested, name, func(event string) []string {
				args := []string{binary, "agent-hook", "claude", event}
				if c.nested {
					args = append([]string{"sh", "-c", `"$0" "$@"; exit $?`, wrapper}, args...)
				}
				return args
			})
		})
	}
}
