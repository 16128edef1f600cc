//go:build unix

package mcppeer_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/server/mcpserver"
)

// gitBudget is how many git processes one validate_gate call on an
// unchanged repository may start. A gate call's git processes were 60% of
// its cost when a change made every call run `git log` and `git rev-list`
// again (ec7915f, found only by profiling: the figure was already stale).
// Counting them is deterministic where a timing is not, so this test
// guards the figure in docs/benchmarks.md ("MCP validate_gate over stdio").
const gitBudget = 1

// TestValidateGateGitProcesses counts the git processes a warm
// validate_gate call starts over stdio, through a counting git first on
// PATH that runs the real one.
func TestValidateGateGitProcesses(t *testing.T) {
	countGateGitProcesses(t, 2500*time.Millisecond, gitBudget)
}

// TestValidateGateGitProcessesFreshIndex: the same calls right after the
// session's commit, the index younger than gitrepo's racy window (as it
// is after every git add or commit an agent makes): the staged protected
// files were asked of git on every call until the index aged (a `git diff
// --cached` per call, 1,092 in the first round of StdioVsPeer); the index
// read in process answers now.
func TestValidateGateGitProcessesFreshIndex(t *testing.T) {
	countGateGitProcesses(t, 0, 0)
}

// countGateGitProcesses makes a commit, waits age, and fails when five
// warm validate_gate calls start more than budget git processes each.
func countGateGitProcesses(t *testing.T, age time.Duration, budget int) {
	real, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git not found (CI=true: required)")
		}
		t.Skip("git not found: counts git processes")
	}
	// Not under a temp folder: gate commands run with a PATH that drops them.
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.MkdirTemp(cache, "sessiongate-gitcount-")
	if err != nil {
		if err = os.MkdirAll(cache, 0o755); err == nil {
			bin, err = os.MkdirTemp(cache, "sessiongate-gitcount-")
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(bin) })
	log := filepath.Join(bin, "calls.log")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	f := newFixture(t)
	// The session's own commit: HEAD past the start commit is where gate
	// calls had to work out where the session's work starts (ec7915f).
	if err := os.WriteFile(filepath.Join(f.root, "work.txt"), []byte("work\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "work.txt"}, {"commit", "-q", "-m", "feat: work\n\nSession-Id: " + f.id}} {
		if out, err := exec.Command(real, append([]string{"-C", f.root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", args[0], err, out)
		}
	}
	// Age the index past git's racy window (gitrepo keeps no answer about
	// an index younger than 2 s, which may still change within its clock
	// tick): a session's index is older than that when the agent calls.
	time.Sleep(age)
	sg := stdioClient(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpserver.RunStdio(ctx, f.srv, in, out)
	})
	call := toolCall(sg, "validate_gate", "passed", map[string]any{"session_id": f.id})
	for range 3 { // warm: the first calls fill the caches a server keeps
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const n = 5
	for range n {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(bytes.TrimSpace(b)) == 0 {
		lines = nil
	}
	t.Logf("%d git processes in %d warm validate_gate calls:\n%s", len(lines), n, b)
	if len(lines) > budget*n {
		t.Errorf("%d warm validate_gate calls started %d git processes (budget %d per call):\n%s", n, len(lines), budget, strings.Join(lines, "\n"))
	}
}
