//go:build linux

package mcppeer_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sessiongate/sessiongate/server/mcpserver"
)

// statBudget is how many stat-family system calls one warm validate_gate
// call on an unchanged repository may make. Each guards a file an agent
// could change between two calls (the protected files, the index, HEAD
// and its ref, packed-refs, the places git reads config from), and each
// costs a path walk in the kernel: 18 a call in round 24 (the index was
// stamped twice, once for the staged files' cache and once for the
// skip-worktree entries), 17 in round 25, 12 since round 26 (git is asked
// once which system config file it reads; five of six places were another
// build's). Counted, it fails here without timing
// (docs/benchmarks.md, "MCP validate_gate over stdio").
const statBudget = 12

// statMark is stat'ed (it does not exist) to mark the counted calls in the
// trace.
const statMark = "/sessiongate-statcount-mark"

// statCall matches a stat-family call in strace's output (one per line,
// with -f a pid first; an interrupted call's resumption is not a new one).
var statCall = regexp.MustCompile(`^(\d+ +)?(stat|lstat|fstat|newfstatat|fstatat64|statx|stat64|lstat64|fstat64)\(`)

// TestValidateGateStats counts the stat calls of warm validate_gate calls
// over stdio: the test binary runs itself under strace, and the calls
// between two stats of statMark are counted.
func TestValidateGateStats(t *testing.T) {
	if os.Getenv("SESSIONGATE_STATCOUNT_CHILD") == "1" {
		statCountChild(t)
		return
	}
	st, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("strace not found (CI=true: required)")
		}
		t.Skip("strace not found: counts stat calls")
	}
	out := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(st, "-f", "-qq", "-e", "trace=%%stat", "-o", out,
		os.Args[0], "-test.run", "^TestValidateGateStats$", "-test.count", "1")
	cmd.Env = append(os.Environ(), "SESSIONGATE_STATCOUNT_CHILD=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(b), "PTRACE_TRACEME") || strings.Contains(string(b), "Operation not permitted") {
			if os.Getenv("CI") != "true" {
				t.Skipf("strace cannot trace here: %s", b)
			}
		}
		t.Fatalf("strace %s: %v\n%s", os.Args[0], err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var marks int
	var counted []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, statMark) {
			marks++
			continue
		}
		if marks == 1 && statCall.MatchString(line) && !strings.Contains(line, "resumed>") {
			counted = append(counted, line)
		}
	}
	if marks != 2 {
		t.Fatalf("the trace holds %d marks, want 2 (did the child run?)", marks)
	}
	const n = 5
	t.Logf("%d stat calls in %d warm validate_gate calls (%.1f per call):\n%s", len(counted), n, float64(len(counted))/n, strings.Join(counted, "\n"))
	if len(counted) > statBudget*n {
		t.Errorf("%d warm validate_gate calls made %d stat calls (budget %d per call)", n, len(counted), statBudget)
	}
}

// statCountChild makes the counted calls (run under strace by the test).
func statCountChild(t *testing.T) {
	f := newFixture(t)
	// Past gitrepo's racy window, as a session's index is when the agent
	// calls (younger answers are not kept, which is not what is counted).
	time.Sleep(2500 * time.Millisecond)
	sg := stdioClient(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpserver.RunStdio(ctx, f.srv, in, out)
	})
	call := toolCall(sg, "validate_gate", "passed", map[string]any{"session_id": f.id})
	for range 3 {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	var st unix.Stat_t
	unix.Stat(statMark, &st)
	for range 5 {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	unix.Stat(statMark, &st)
}
