package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestOrderConcurrentShells: two or more shells run sessiongate on one
// session at once (an agent's shell and a person's, or parallel tool
// calls). With the real binary and its SQLite database: six observed runs
// recorded at once are six evidence rows and six events (none lost), and
// four `session advance --to WORKING` at once pass the start gates once:
// one advance wins, each other is told the session moved and to retry
// (it read the session before the winner wrote) or that WORKING is not
// ahead of WORKING (it read it after: under load one process can finish
// before another starts, so which of the two each loser hears is not the
// test's to choose), and the gates' pass events are recorded once each.
func TestOrderConcurrentShells(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary concurrently")
	}
	w := newHintWorld(t, "")
	w.mustSG("session", "start", "--objective", "orders nobody tested")
	parallel := func(n int, args ...string) []string {
		var mu sync.Mutex
		var wg sync.WaitGroup
		var outs []string
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, out := w.sg("", args...)
				mu.Lock()
				outs = append(outs, fmt.Sprintf("exit %d: %s", code, out))
				mu.Unlock()
			}()
		}
		wg.Wait()
		return outs
	}
	show := func() (evidence int, tokens []string, state string) {
		t.Helper()
		var d struct {
			Session  struct{ State string }
			Evidence []json.RawMessage
			Events   []struct{ Token string }
		}
		if err := json.Unmarshal([]byte(w.mustSG("session", "show", "--json")), &d); err != nil {
			t.Fatal(err)
		}
		for _, e := range d.Events {
			tokens = append(tokens, e.Token)
		}
		return len(d.Evidence), tokens, d.Session.State
	}
	count := func(tokens []string, tok string) int {
		n := 0
		for _, x := range tokens {
			if x == tok {
				n++
			}
		}
		return n
	}

	for _, out := range parallel(6, "run", "--phase", "CONTEXT_RETRIEVAL", "--", "git", "log", "--oneline") {
		if !strings.HasPrefix(out, "exit 0") {
			t.Errorf("an observed run beside five others failed: %s", out)
		}
	}
	if n, tokens, _ := show(); n != 6 || count(tokens, "observed:run") != 6 {
		t.Fatalf("6 observed runs at once: %d evidence rows, %d observed:run events, want 6 and 6 (events %q)", n, count(tokens, "observed:run"), tokens)
	}

	w.mustSG("run", "--phase", "GIT_STATE", "--", "git", "status")
	won := 0
	for _, out := range parallel(4, "session", "advance", "--to", "WORKING") {
		switch {
		case strings.HasPrefix(out, "exit 0"):
			won++
		case strings.Contains(out, "moved while its gates ran") && strings.Contains(out, "retry"):
		case strings.HasPrefix(out, "exit 2") && strings.Contains(out, "target WORKING is not ahead of the current position WORKING"):
		default:
			t.Errorf("an advance beside three others neither won nor was told to retry or that WORKING is not ahead: %s", out)
		}
	}
	_, tokens, state := show()
	if won != 1 || state != "WORKING" {
		t.Errorf("4 advances at once: %d won, state %s; want 1 and WORKING", won, state)
	}
	for _, tok := range []string{"gate:CONTEXT_RETRIEVAL:pass", "gate:GIT_STATE:pass", "tool:advance_phase"} {
		if n := count(tokens, tok); n != 1 {
			t.Errorf("%s recorded %d times after 4 concurrent advances, want once (events %q)", tok, n, tokens)
		}
	}
}

// TestOrderLinkedWorktree: a session belongs to the worktree it started
// in. The agent's work in a linked worktree (`git worktree add`) while the
// session was started in the main one, and the reverse, is not that
// session's: the pre-commit hook blocks the agent's commit there (exit 1,
// "no active session in worktree ..."), so work cannot be slipped past
// the session's gates through another checkout of the same repository.
// The honest twin: the agent's commit in the session's own worktree,
// after the start gates, passes.
func TestOrderLinkedWorktree(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary and git hooks")
	}
	for _, startInLinked := range []bool{false, true} {
		name := map[bool]string{false: "started in the main worktree", true: "started in the linked worktree"}[startInLinked]
		t.Run(name, func(t *testing.T) {
			w := newHintWorld(t, "")
			linked := filepath.Join(t.TempDir(), "linked")
			w.git("worktree", "add", "-q", "-b", "side", linked)
			session, other := w.dir, linked
			if startInLinked {
				session, other = linked, w.dir
			}
			sgIn := func(dir string, args ...string) string {
				t.Helper()
				old := w.dir
				w.dir = dir
				defer func() { w.dir = old }()
				return w.mustSG(args...)
			}
			sgIn(session, "session", "start", "--objective", "orders: worktrees")
			sgIn(session, "run", "--phase", "CONTEXT_RETRIEVAL", "--", "git", "log", "--oneline")
			sgIn(session, "run", "--phase", "GIT_STATE", "--", "git", "status")
			sgIn(session, "session", "advance", "--to", "WORKING")
			agentCommit := func(dir, file string) (int, string) {
				t.Helper()
				writeHintFile(t, dir, file, "work\n")
				cmd := exec.Command("git", "add", file)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git add: %v %s", err, out)
				}
				cmd = exec.Command("git", "commit", "-q", "-m", "feat: "+file)
				cmd.Dir = dir
				cmd.Env = append(append(os.Environ(), w.env...), "CLAUDECODE=1")
				out, err := cmd.CombinedOutput()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				return code, string(out)
			}
			if code, out := agentCommit(other, "elsewhere.txt"); code != 1 || !strings.Contains(out, "no active session in worktree") {
				t.Errorf("the agent's commit in the other worktree: exit %d, want 1 naming the worktree without a session:\n%s", code, out)
			}
			if code, out := agentCommit(session, "here.txt"); code != 0 {
				t.Errorf("the agent's commit in the session's worktree after its start gates: exit %d (a false block):\n%s", code, out)
			}
		})
	}
}
