package agenthook_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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
			s := r.active()
			hook := func(event string, p map[string]any) string {
				t.Helper()
				b, _ := json.Marshal(p)
				name, args := wrapper, []string{binary, "agent-hook", "claude", event}
				if c.nested {
					// The outer CLI's tool call: a shell that runs the wrapper.
					name, args = outer, append([]string{"sh", "-c", `"$0" "$@"; exit $?`, wrapper}, args...)
				}
				res := r.run(r.root, b, nil, name, args...)
				if res.code != 0 {
					t.Fatalf("%s: exit %d\n%s%s", event, res.code, res.out, res.err)
				}
				return string(res.out)
			}
			hook("PreToolUse", golden(t, r, "claude", "PreToolUse-Bash", sid))
			out := hook("PostToolUse", golden(t, r, "claude", "PostToolUse-Bash", sid))
			evs, err := r.db().ListEvidence(context.Background(), s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1 || evs[0].Command != "true" || evs[0].ExitCode == nil {
				t.Fatalf("evidence %+v, want the one run of true (answer %s)", evs, out)
			}
			got := *evs[0].ExitCode
			if c.nested {
				if got != -1 || !strings.Contains(out, "not taken as observed") {
					t.Errorf("nested: exit %d, ref %q, answer %s; want -1, said", got, evs[0].Ref, out)
				}
			} else if got != 0 || strings.Contains(out, "not taken") {
				t.Errorf("honest: exit %d, ref %q, answer %s; want 0, nothing said", got, evs[0].Ref, out)
			}
		})
	}
}
