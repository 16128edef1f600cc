package agenttest_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// lockDB is a lazy agent's background shell line: it holds sessiongate's
// database under an exclusive lock for a while, after the hook that judged
// the line has returned, so the hooks that follow cannot decide.
const lockDB = `python3 -c "import os,sqlite3,time; c=sqlite3.connect(os.environ.get('SESSIONGATE_DB') or '.git/sessiongate/sessiongate.db', isolation_level=None); c.execute('BEGIN EXCLUSIVE'); time.sleep(20)" >/dev/null 2>&1 & sleep 2`

// TestClaudeLazyAgentLocksTheDatabaseThenStops: real Claude Code; the
// agent does its work, leaves the end protocol undone, locks the database
// from a background shell and stops. A stop hook that cannot decide never
// blocks (the agent could loop): before the fix the agent was let go after
// one block, with no violation. Now the unchecked stop is noted beside the
// database and the next agent hook (a second Claude Code run here) records
// END_PROTOCOL_SKIPPED. The honest twin ends its session first, then does
// the same: no violation.
func TestClaudeLazyAgentLocksTheDatabaseThenStops(t *testing.T) {
	t.Parallel()
	const maxBlocks = 2
	for _, honest := range []bool{false, true} {
		t.Run(fmt.Sprintf("honest=%v", honest), func(t *testing.T) {
			t.Parallel()
			r := hookedRepo(t, fmt.Sprintf("agent_hooks:\n  max_stop_blocks: %d\n", maxBlocks))
			steps := []agenttest.Turn{
				agenttest.Use("Bash", map[string]any{"command": "git status"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
			}
			if honest {
				steps = append(steps,
					agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
					agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
					agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'added hello.txt'"}))
			}
			steps = append(steps, agenttest.Use("Bash", map[string]any{"command": lockDB}), agenttest.Say("done"))
			srv := agenttest.NewClaudeServer(t, steps...)
			res := r.claude("add hello.txt", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Bash"}})
			if res.ExitCode != 0 {
				t.Fatalf("run: exit %d result %q\nstderr: %s", res.ExitCode, res.Result, res.Stderr)
			}
			blocks, _ := stopFeedback(srv)
			waitUnlocked(t, r)
			// The next agent session in this worktree: its first hook
			// records what the locked one could not.
			next := agenttest.NewClaudeServer(t, agenttest.Say("hi"))
			if res := r.claude("hello", agenttest.ClaudeOptions{Server: next}); res.ExitCode != 0 {
				t.Fatalf("second run: exit %d\nstderr: %s", res.ExitCode, res.Stderr)
			}
			// The honest run's session is COMPLETE, so the second run
			// starts one of its own: every session's violations count.
			out, code := r.sg("session", "list", "--json")
			var list []map[string]any
			if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil {
				t.Fatalf("session list: exit %d %v\n%s", code, err, out)
			}
			var vs []any
			for _, s := range list {
				v, _ := r.show(s["id"].(string))["violations"].([]any)
				vs = append(vs, v...)
			}
			skipped := strings.Contains(fmt.Sprint(vs), session.CodeEndProtocolSkipped)
			t.Logf("stop blocked %d times; violations %v; sessions %d", blocks, vs, len(list))
			switch {
			case honest && len(vs) != 0:
				t.Errorf("the honest agent ended its session, yet: %v", vs)
			case !honest && !skipped:
				t.Errorf("the agent stopped with the end protocol undone behind a locked database (blocked %d of %d times), and no %s was recorded: %v", blocks, maxBlocks, session.CodeEndProtocolSkipped, vs)
			}
		})
	}
}

// waitUnlocked waits (a bounded poll, no timing asserted) until the
// agent's lock on the database is gone.
func waitUnlocked(t *testing.T, r *sgRepo) {
	t.Helper()
	db := ""
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "SESSIONGATE_DB="); ok {
			db = v
		}
	}
	py := agenttest.Python3(t)
	for i := 0; i < 60; i++ {
		cmd := exec.Command(py, "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=0.2, isolation_level=None); c.execute('BEGIN IMMEDIATE'); c.execute('ROLLBACK')", db)
		if cmd.Run() == nil {
			return
		}
		time.Sleep(time.Second)
	}
	t.Fatalf("the database %s stayed locked", db)
}
