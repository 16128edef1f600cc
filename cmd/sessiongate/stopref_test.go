package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/stopnote"
)

// mcpServer is `sessiongate mcp` over stdio, started (and past its own
// start, which folds a waiting note) before the stop it outlives.
type mcpServer struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
	cmd *exec.Cmd
	id  int
}

// withOrigin gives w a bare origin with main pushed, as a team's clone
// has: the stop records go to the shared ref there.
func withOrigin(t *testing.T, w *hintWorld) string {
	t.Helper()
	remote := filepath.Join(t.TempDir(), "origin.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v %s", err, out)
	}
	w.git("remote", "add", "origin", remote)
	if code, out := w.git("push", "-q", "origin", "main"); code != 0 {
		t.Fatalf("push main: %s", out)
	}
	return remote
}

func startMCP(t *testing.T, w *hintWorld) *mcpServer {
	t.Helper()
	cmd := exec.Command(w.bin, "mcp")
	cmd.Dir = w.dir
	cmd.Env = sgEnv(w.env)
	in, out := startPiped(t, cmd)
	m := &mcpServer{t: t, in: in, out: bufio.NewReader(out), cmd: cmd}
	t.Cleanup(m.close)
	m.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
	m.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return m
}

func (m *mcpServer) send(v any) {
	m.t.Helper()
	b, _ := json.Marshal(v)
	if _, err := m.in.Write(append(b, '\n')); err != nil {
		m.t.Fatalf("write to sessiongate mcp: %v", err)
	}
}

// call sends a request and returns its response's line.
func (m *mcpServer) call(method string, params any) string {
	m.t.Helper()
	m.id++
	m.send(map[string]any{"jsonrpc": "2.0", "id": m.id, "method": method, "params": params})
	for {
		line, err := m.out.ReadString('\n')
		if err != nil {
			m.t.Fatalf("sessiongate mcp %s: %v", method, err)
		}
		var r struct {
			ID int `json:"id"`
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.ID == m.id {
			return line
		}
	}
}

func (m *mcpServer) close() {
	if m.cmd != nil {
		m.in.Close()
		m.cmd.Wait()
		m.cmd = nil
	}
}

// TestUncheckedStopSurvivesNoteDeletion: a Codex CLI stop (its recorded
// payload, the real binary) comes while the database is held locked, so
// the hook lets it through and writes it down. The note beside the
// database was the only copy: deleting it by a path only run time knows
// (a background shell started before the stop that reads the path from a
// file, a script file that builds the path), which the agent hook cannot
// read, laundered the stop. Before this change each lazy row passed:
// `verify` said OK and no END_PROTOCOL_SKIPPED was recorded. Now the stop
// is also on the records ref: `session end` records it locally, and
// `verify`, with the database deleted, fails the session's commit naming
// the stop on the ref. The MCP server (started before the stop, so its
// own start folded nothing) ends the session without reading the ref, so
// `verify` alone catches that row. Honest twin: a turn that changed
// nothing. (A stop let through while a person's tool held the lock, then
// a COMPLETE end over MCP, was an honest row here: it is now
// END_PROTOCOL_SKIPPED on both surfaces, TestUncheckedStopThenCompleteOneVerdict.)
func TestUncheckedStopSurvivesNoteDeletion(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary, git hooks and a database lock")
	}
	const note = ".git/sessiongate/" + stopnote.File
	rows := []struct {
		name string
		// background runs before the stop, after runs once it returned.
		background, after   string
		endByMCP, unchanged bool
		honest              bool
		// locks: the background shell holds the records ref's and
		// packed-refs' locks through the stop (paths read from files);
		// pushFirst: a git push (the pre-push hook) comes before the end.
		locks, pushFirst bool
	}{
		{name: "background shell holds the records ref's lock through the stop, ended over MCP",
			background: holdLocks, locks: true, endByMCP: true},
		{name: "background shell holds the records ref's lock, git push first, ended by session end",
			background: holdLocks, locks: true, pushFirst: true},
		{name: "background shell reads the path from a file, ended over MCP",
			background: `i=0; while [ ! -f "$(cat p)" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; rm -f "$(cat p)"`, endByMCP: true},
		{name: "background shell, ended by session end",
			background: `i=0; while [ ! -f "$(cat p)" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; rm -f "$(cat p)"`},
		{name: "script file builds the path, ended over MCP", after: "sh del.sh", endByMCP: true},
		{name: "honest: the turn changed nothing", unchanged: true, honest: true},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			w := newHintWorld(t, "")
			remote := withOrigin(t, w)
			db := filepath.Join(w.dir, ".git", "sessiongate", "sessiongate.db")
			id := codexWorkAtQA(t, w, db, "work.txt", "work\n")
			if r.unchanged {
				codexHook(t, w.dir, w.env, "UserPromptSubmit") // a new turn that will change nothing
			}
			var mcp *mcpServer
			if r.endByMCP {
				mcp = startMCP(t, w)
			}
			if !r.honest {
				writeHintFile(t, w.dir, "l", ".git/refs/sessiongate/records.lock\n")
				writeHintFile(t, w.dir, "k", ".git/packed-refs.lock\n")
				writeHintFile(t, w.dir, "p", note+"\n")
				writeHintFile(t, w.dir, "del.sh", "d=$(git rev-parse --git-common-dir)\nrm -f \"$d/sessiongate/unchecked-$(printf stops).jsonl\"\n")
			}
			var bg *exec.Cmd
			if r.background != "" {
				bg = exec.Command("sh", "-c", r.background)
				bg.Dir = w.dir
				bg.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
				if err := bg.Start(); err != nil {
					t.Fatal(err)
				}
				for i := 0; r.locks && !fileExists(filepath.Join(w.dir, "ready")); i++ {
					if i == 300 {
						t.Fatal("the background shell never took the locks")
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			release := lockedDB(t, db)
			// The stop on the records ref, or on a ref of its own.
			onRef := func() string {
				_, out := w.git("ls-tree", "-r", "--name-only", "refs/sessiongate/records", "--", "stops/")
				_, own := w.git("for-each-ref", "--format=%(refname)", "refs/sessiongate/records-stops/")
				return strings.TrimSpace(out + own)
			}
			// On a loaded machine the hook can pass its time limit before
			// it knows the database (nothing is noted then): the agent
			// stops again, as it would.
			for i := 0; i < 3 && (i == 0 || !r.honest && onRef() == ""); i++ {
				stop := exec.Command(w.bin, "agent-hook", "codex", "Stop")
				stop.Dir = w.dir
				stop.Env = sgEnv(w.env)
				stop.Stdin = strings.NewReader(string(codexPayload(t, "Stop.first", w.dir, "")))
				out, err := stop.CombinedOutput()
				if err != nil {
					t.Fatalf("agent-hook codex Stop: %v\n%s", err, out)
				}
				t.Logf("the stop hook said: %s", out)
			}
			release()
			noted := stopnote.Pending(db)
			refStops := onRef() // while the locks are held
			writeHintFile(t, w.dir, "stopped", "")
			if bg != nil {
				bg.Wait()
			}
			if r.after != "" {
				cmd := exec.Command("sh", "-c", r.after)
				cmd.Dir, cmd.Env = w.dir, append(os.Environ(), "TMPDIR="+t.TempDir())
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v %s", r.after, err, out)
				}
			}
			if !r.honest && stopnote.Pending(db) {
				t.Fatalf("the note beside the database survived the deletion (%s)", r.background+r.after)
			}
			t.Logf("noted beside the database: %v; on the records ref: %q", noted, refStops)
			if !r.unchanged && !strings.Contains(refStops, "stops/") {
				t.Errorf("the unchecked stop is not on the records ref")
			}
			for _, f := range []string{"p", "l", "k", "ready", "stopped", "del.sh"} {
				os.Remove(filepath.Join(w.dir, f))
			}
			if r.pushFirst {
				// The pre-push hook records the stop no fold judged, as
				// `records push` does, whether it then allows the push.
				code, out := w.git("push", "-q", "origin", "feat/hints")
				if n := skippedCount(t, db); n != 1 {
					t.Errorf("after git push (exit %d): %d END_PROTOCOL_SKIPPED recorded, want 1\n%s", code, n, out)
				}
			}
			if r.endByMCP {
				resp := mcp.call("tools/call", map[string]any{"name": "session_end", "arguments": map[string]any{"session_id": id, "summary": "done"}})
				if !strings.Contains(resp, "COMPLETE") {
					t.Fatalf("session_end over MCP: %s", resp)
				}
				mcp.close()
			} else if code, out := w.sg("", "session", "end", "--summary", "done"); code != 0 {
				t.Fatalf("session end: exit %d\n%s", code, out)
			}
			if code, out := w.git("push", "-q", "origin", "feat/hints"); code != 0 {
				t.Fatalf("push: %s", out)
			}
			local := skippedCount(t, db)
			// CI sees the pushed refs and no database.
			if err := os.RemoveAll(filepath.Dir(db)); err != nil {
				t.Fatal(err)
			}
			code, out := w.sg("", "verify")
			t.Logf("local END_PROTOCOL_SKIPPED: %d; verify exit %d:\n%s", local, code, out)
			caught := code != 0 && strings.Contains(out, "END_PROTOCOL_SKIPPED")
			switch {
			case r.honest && (code != 0 || local != 0):
				t.Errorf("honest: verify exit %d, %d END_PROTOCOL_SKIPPED recorded:\n%s", code, local, out)
			case !r.honest && !caught:
				t.Errorf("the stop let through a locked database, its note deleted, passed verify (exit %d):\n%s", code, out)
			case !r.honest && local != 1:
				t.Errorf("session end (MCP: %v) recorded %d END_PROTOCOL_SKIPPED from the stop on git, want 1", r.endByMCP, local)
			}
			if left, _ := recordrefStopRefs(w); left != "" {
				t.Errorf("stop refs left after the session ended and the push: %s", left)
			}
			// A CI checkout: a fresh clone and the records ref fetched as
			// the action fetches it, no database, no stop refs.
			ci := filepath.Join(t.TempDir(), "ci")
			if out, err := exec.Command("git", "clone", "-q", "-b", "feat/hints", remote, ci).CombinedOutput(); err != nil {
				t.Fatalf("clone: %v %s", err, out)
			}
			wc := *w
			wc.dir = ci
			if code, out := wc.git("fetch", "-q", "--no-tags", "origin", "+refs/sessiongate/records:refs/sessiongate/records"); code != 0 {
				t.Fatalf("fetch the records ref: %s", out)
			}
			code, out = wc.sg("", "verify")
			t.Logf("CI checkout: verify exit %d:\n%s", code, out)
			switch ciCaught := code != 0 && strings.Contains(out, "END_PROTOCOL_SKIPPED"); {
			case r.honest && code != 0:
				t.Errorf("honest: verify on a CI checkout: exit %d\n%s", code, out)
			case !r.honest && !ciCaught:
				t.Errorf("verify on a CI checkout passed the stop (exit %d):\n%s", code, out)
			}
		})
	}
}

// holdLocks is a background shell started before the stop: it holds the
// records ref's lock and packed-refs' (paths read from files the hook
// does not read) until the stop hook answered, then deletes the note and
// the locks.
const holdLocks = `mkdir -p "$(dirname "$(cat l)")"; : > "$(cat l)"; : > "$(cat k)"; : > ready; i=0; while [ ! -f stopped ] && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done; rm -f "$(cat p)" "$(cat l)" "$(cat k)"`

// recordrefStopRefs lists the stop refs of the default records ref.
func recordrefStopRefs(w *hintWorld) (string, int) {
	code, out := w.git("for-each-ref", "--format=%(refname)", "refs/sessiongate/records-stops/")
	return strings.TrimSpace(out), code
}

// TestUncheckedStopInParallelWorktrees: two sessions of one clone run at
// once in two worktrees (one database, one records ref), each bound to
// its own Codex conversation. A's stop is let through a locked database
// and its note deleted by a script; B ends COMPLETE. The stop on the
// shared ref is A's alone: `verify` fails A's branch and passes B's
// (the honest twin beside a lazy neighbour).
func TestUncheckedStopInParallelWorktrees(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary, git hooks and a database lock")
	}
	w := newHintWorld(t, "")
	_ = withOrigin(t, w)
	wt := filepath.Join(t.TempDir(), "b")
	if code, out := w.git("worktree", "add", "-q", "-b", "feat/b", wt, "main"); code != 0 {
		t.Fatalf("worktree add: %s", out)
	}
	wb := *w
	wb.dir = wt
	db := filepath.Join(w.dir, ".git", "sessiongate", "sessiongate.db")
	// Each worktree's session, bound to its conversation, past its start
	// gates, with a commit and its QA run.
	for _, s := range []struct {
		w    *hintWorld
		conv string
	}{{w, ""}, {&wb, "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"}} {
		for i := 0; ; i++ {
			if i == 5 {
				t.Fatalf("%s: the conversation was never bound (5 tries)", s.w.dir)
			}
			codexHookAs(t, s.w.dir, s.w.env, "SessionStart", s.conv)
			codexHookAs(t, s.w.dir, s.w.env, "UserPromptSubmit", s.conv)
			if code, _ := s.w.sg("", "session", "status"); code == 0 {
				break
			}
		}
		s.w.mustSG("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
		s.w.mustSG("session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "clean")
		s.w.mustSG("session", "advance", "--to", "WORKING")
		writeHintFile(t, s.w.dir, "work.txt", "work\n")
		s.w.git("add", "work.txt")
		if code, out := s.w.git("commit", "-q", "-m", "feat: work"); code != 0 {
			t.Fatalf("commit in %s: %s", s.w.dir, out)
		}
		s.w.mustSG("run", "--phase", "QA_VALIDATION", "--", "sh", "checks/readme_check.sh")
	}
	if n := sqlCount(t, db, "SELECT count(*) FROM agent_bindings"); n != 2 {
		t.Fatalf("%d conversations bound, want 2", n)
	}
	// B ends COMPLETE; A stops behind a locked database, deletes the
	// note, and ends over MCP (a server started before the stop).
	wb.mustSG("session", "end", "--summary", "done")
	id := currentSessionID(t, w)
	mcp := startMCP(t, w)
	writeHintFile(t, w.dir, "more.txt", "more\n")
	release := lockedDB(t, db)
	for i := 0; i < 3; i++ {
		codexStop(t, w.dir, w.env)
		if _, out := w.git("ls-tree", "-r", "--name-only", "refs/sessiongate/records", "--", "stops/"); strings.TrimSpace(out) != "" {
			break
		}
	}
	release()
	del := exec.Command("sh", "-c", `d=$(git rev-parse --git-common-dir); rm -f "$d/sessiongate/unchecked-$(printf stops).jsonl"`)
	del.Dir, del.Env = w.dir, append(os.Environ(), "TMPDIR="+t.TempDir())
	if out, err := del.CombinedOutput(); err != nil {
		t.Fatalf("delete the note: %v %s", err, out)
	}
	os.Remove(filepath.Join(w.dir, "more.txt"))
	if resp := mcp.call("tools/call", map[string]any{"name": "session_end", "arguments": map[string]any{"session_id": id, "summary": "done"}}); !strings.Contains(resp, "COMPLETE") {
		t.Fatalf("session_end over MCP: %s", resp)
	}
	mcp.close()
	for _, x := range []*hintWorld{w, &wb} {
		if code, out := x.git("push", "-q", "origin", "HEAD"); code != 0 {
			t.Fatalf("push from %s: %s", x.dir, out)
		}
	}
	if err := os.RemoveAll(filepath.Dir(db)); err != nil {
		t.Fatal(err)
	}
	codeA, outA := w.sg("", "verify")
	codeB, outB := wb.sg("", "verify")
	t.Logf("A: exit %d\n%s\nB: exit %d\n%s", codeA, outA, codeB, outB)
	if codeA == 0 || !strings.Contains(outA, "END_PROTOCOL_SKIPPED") {
		t.Errorf("A stopped unchecked and deleted the note, yet verify: exit %d\n%s", codeA, outA)
	}
	if codeB != 0 || strings.Contains(outB, "END_PROTOCOL_SKIPPED") {
		t.Errorf("B ended COMPLETE beside A, yet verify: exit %d\n%s", codeB, outB)
	}
}

// TestRecordsPushCarriesStopRefs: `sessiongate records push` in a clone
// where an unchecked stop waits on a ref of its own (the Codex CLI's
// recorded Stop payload, the real binary, the database held locked) folds
// it, carries it onto the records ref with its outcome, removes its ref
// and pushes: the remote's records ref holds the stop and its outcome, the
// clone no stop ref. Rows: the note beside the database intact (its fold
// judges the stop), and deleted (the fold of the refs judges it); both
// record one END_PROTOCOL_SKIPPED and exit 0.
func TestRecordsPushCarriesStopRefs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary and a database lock")
	}
	for _, deleteNote := range []bool{false, true} {
		t.Run(map[bool]string{false: "note intact", true: "note deleted"}[deleteNote], func(t *testing.T) {
			w := newHintWorld(t, "")
			remote := filepath.Join(t.TempDir(), "origin.git")
			if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
				t.Fatalf("git init --bare: %v %s", err, out)
			}
			w.git("remote", "add", "origin", remote)
			db := filepath.Join(w.dir, ".git", "sessiongate", "sessiongate.db")
			bindCodexConversation(t, w, db)
			writeHintFile(t, w.dir, "work.txt", "work\n")
			release := lockedDB(t, db)
			for i := 0; i < 3; i++ {
				codexStop(t, w.dir, w.env)
				if left, _ := recordrefStopRefs(w); left != "" {
					break
				}
			}
			release()
			left, _ := recordrefStopRefs(w)
			if left == "" {
				t.Fatal("the unchecked stop is not on a ref of its own")
			}
			if deleteNote {
				os.Remove(filepath.Join(filepath.Dir(db), stopnote.File))
			}
			out := w.mustSG("records", "push")
			t.Logf("records push: %s", out)
			if left, _ := recordrefStopRefs(w); left != "" {
				t.Errorf("stop refs left after records push: %s", left)
			}
			if n := skippedCount(t, db); n != 1 {
				t.Errorf("%d END_PROTOCOL_SKIPPED recorded, want 1", n)
			}
			ls, err := exec.Command("git", "-C", remote, "ls-tree", "-r", "--name-only", "refs/sessiongate/records", "--", "stops/").CombinedOutput()
			if err != nil {
				t.Fatalf("the remote's records ref: %v %s", err, ls)
			}
			if !strings.Contains(string(ls), ".json") || !strings.Contains(string(ls), ".folded") {
				t.Errorf("the remote's records ref lacks the stop or its outcome:\n%s", ls)
			}
		})
	}
}
