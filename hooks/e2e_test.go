package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests run the real `git commit` and `git push` with the installed
// hooks, which exec the binary built in TestMain.

func TestCommitGates(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(r *repo) // before the commit
		code    int           // 0: the commit lands
		stderr  []string
		trailer bool
	}{
		{name: "no session", setup: func(r *repo) {}, code: 1,
			stderr: []string{"commit blocked (pre-commit hook)", "require_session: true", "sessiongate session start --objective", "SESSIONGATE_BYPASS"}},
		{name: "start gate not passed", setup: func(r *repo) {
			r.sg(r.root, "session", "start", "--objective", "x")
		}, code: 1, stderr: []string{"gate:    CONTEXT_RETRIEVAL", "sessiongate session evidence --phase CONTEXT_RETRIEVAL --type tool_output", "advance --to WORKING", "(INIT)"}},
		{name: "gates passed", setup: func(r *repo) { r.startWorking(r.root) }, code: 0, trailer: true},
		{name: "staged file fails a pre-commit gate", setup: func(r *repo) {
			r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "bad.txt"), "FORBIDDEN\n")
			r.git("add", "bad.txt")
		}, code: 1, stderr: []string{"gate:    QUALITY_CHECKS", "command exited 1", "| bad.txt holds FORBIDDEN", "fix the staged change"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
			r.git("add", "a.txt")
			tc.setup(r)
			before := r.head(r.root)
			res := r.commit(r.root, nil, "-m", "change")
			if res.code != tc.code {
				t.Fatalf("git commit exit %d, want %d\n%s%s", res.code, tc.code, res.out, res.err)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(res.err, s) {
					t.Errorf("stderr lacks %q:\n%s", s, res.err)
				}
			}
			landed := r.head(r.root) != before
			if landed != (tc.code == 0) {
				t.Errorf("commit landed=%v with exit %d", landed, res.code)
			}
			if tc.trailer {
				ids := r.git("log", "-1", "--format=%(trailers:key=Session-Id,valueonly)")
				if len(strings.Fields(ids)) != 1 {
					t.Fatalf("want one Session-Id trailer, got %q", ids)
				}
				// Amending keeps one trailer.
				if res := r.commit(r.root, nil, "--amend", "-m", "change\n\nSession-Id: "+ids); res.code != 0 {
					t.Fatalf("amend: %s", res.err)
				}
				if res := r.commit(r.root, nil, "--amend", "--no-edit"); res.code != 0 {
					t.Fatalf("amend: %s", res.err)
				}
				again := r.git("log", "-1", "--format=%(trailers:key=Session-Id,valueonly)")
				if again != ids {
					t.Errorf("after amend trailers %q, want %q", again, ids)
				}
			}
		})
	}
}

func TestStagedList(t *testing.T) {
	r := newRepo(t)
	writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
	writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	r.sg(r.root, "install")
	r.startWorking(r.root)
	out := filepath.Join(t.TempDir(), "staged")
	env := []string{"SG_STAGED_OUT=" + out}

	tests := []struct {
		name   string
		change func()
		args   []string
		want   string
		code   int
	}{
		{name: "plain commit sees the index", change: func() {
			writeFile(t, filepath.Join(r.root, "a.txt"), "a2\n")
			writeFile(t, filepath.Join(r.root, "b.txt"), "FORBIDDEN\n") // not staged: not checked
			r.git("add", "a.txt")
		}, args: []string{"-m", "a only"}, want: "a.txt\n"},
		{name: "commit -a sees every tracked change", change: func() {
			writeFile(t, filepath.Join(r.root, "a.txt"), "a3\n")
		}, args: []string{"-a", "-m", "all"}, want: "a.txt\nb.txt\n", code: 1},
		{name: "commit <path> sees only the path", change: func() {
			writeFile(t, filepath.Join(r.root, "b.txt"), "b fixed\n")
			writeFile(t, filepath.Join(r.root, "c.txt"), "FORBIDDEN\n")
			r.git("add", "c.txt") // staged, but not part of `git commit b.txt`
		}, args: []string{"-m", "b only", "b.txt"}, want: "b.txt\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(out)
			tc.change()
			res := r.commit(r.root, env, tc.args...)
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, tc.code, res.err)
			}
			if got := readFile(t, out); got != tc.want {
				t.Errorf("staged list %q, want %q", got, tc.want)
			}
		})
	}
}

// sessionJSON is the part of `session show --json` the tests read.
type sessionJSON struct {
	Violations []struct {
		Code      string `json:"code"`
		Severity  string `json:"severity"`
		Window    string `json:"window"`
		DecayRuns int    `json:"decay_runs"`
	} `json:"violations"`
	Events []struct {
		Token string `json:"token"`
	} `json:"events"`
}

func (r *repo) show(id string) sessionJSON {
	r.t.Helper()
	var s sessionJSON
	if err := json.Unmarshal([]byte(r.sg(r.root, "session", "show", id, "--json")), &s); err != nil {
		r.t.Fatal(err)
	}
	return s
}

func TestNoVerifyRecordsBypass(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "bad.txt"), "FORBIDDEN\n")
	r.git("add", "bad.txt")
	before := r.head(r.root)
	res := r.commit(r.root, nil, "--no-verify", "-m", "skip the hooks")
	if res.code != 0 || r.head(r.root) == before {
		t.Fatalf("--no-verify commit did not land: %s", res.err)
	}
	if !strings.Contains(res.err, "CRITICAL BYPASS violation recorded") {
		t.Errorf("post-commit did not say so:\n%s", res.err)
	}
	s := r.show(id)
	if len(s.Violations) != 1 || s.Violations[0].Code != "BYPASS" || s.Violations[0].Severity != "CRITICAL" ||
		s.Violations[0].Window != "cross_session_decay" || s.Violations[0].DecayRuns != 3 {
		t.Fatalf("violations %+v", s.Violations)
	}
	// The next session_start shows it.
	var start struct {
		Carried []struct {
			Code string `json:"code"`
		} `json:"carried_violations"`
	}
	if err := json.Unmarshal([]byte(r.sg(r.root, "session", "start", "--objective", "next", "--json")), &start); err != nil {
		t.Fatal(err)
	}
	if len(start.Carried) == 0 || start.Carried[0].Code != "BYPASS" {
		t.Errorf("next session_start carried %+v, want the BYPASS", start.Carried)
	}
}

func TestEscapeHatch(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "bad.txt"), "FORBIDDEN\n")
	r.git("add", "bad.txt")
	res := r.commit(r.root, []string{"SESSIONGATE_BYPASS=release hotfix"}, "-m", "escape")
	if res.code != 0 {
		t.Fatalf("escape hatch: exit %d\n%s", res.code, res.err)
	}
	if !strings.Contains(res.err, "HIGH ESCAPE_HATCH violation recorded") {
		t.Errorf("stderr:\n%s", res.err)
	}
	s := r.show(id)
	if len(s.Violations) != 1 || s.Violations[0].Code != "ESCAPE_HATCH" {
		t.Errorf("want only the ESCAPE_HATCH violation (no BYPASS), got %+v", s.Violations)
	}
}

func TestPushBlockedThenAllowed(t *testing.T) {
	r := newRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.gitIn(filepath.Dir(remote), "init", "-q", "--bare", remote)
	r.git("remote", "add", "origin", remote)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "work\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-m", "work"); res.code != 0 {
		t.Fatal(res.err)
	}
	res := r.run(r.root, nil, "git", "push", "-q", "origin", "main")
	if res.code == 0 {
		t.Fatal("push went through before QA passed")
	}
	for _, s := range []string{"push blocked (pre-push hook)", "gate:    QA_VALIDATION", "session end --summary"} {
		if !strings.Contains(res.err, s) {
			t.Errorf("stderr lacks %q:\n%s", s, res.err)
		}
	}
	if out := r.run(r.root, nil, "git", "ls-remote", remote); strings.Contains(out.out, "refs/heads/main") {
		t.Fatal("the remote got main")
	}
	r.sg(r.root, "session", "evidence", "--session", id, "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 12 tests")
	r.sg(r.root, "session", "end", "--session", id, "--summary", "done")
	// Round 33: git would send the push with GitLab's ci.skip (config or
	// -c): no pipeline, so verify never sees it. The remote takes push
	// options, so only the hook can refuse the push.
	r.gitIn(remote, "config", "receive.advertisePushOptions", "true")
	for _, args := range [][]string{
		{"-c", "push.pushOption=ci.skip", "push", "-q", "origin", "main"},
		{"push", "-q", "origin", "main"}, // after `git config push.pushOption ci.skip`
	} {
		if args[0] == "push" {
			r.git("config", "--add", "push.pushOption", "ci.skip")
		}
		res := r.run(r.root, nil, "git", args...)
		if res.code == 0 || !strings.Contains(res.err, "gate:    CI") || !strings.Contains(res.err, "ci.skip") {
			t.Fatalf("git %v: exit %d, want blocked at gate CI naming ci.skip:\n%s", args, res.code, res.err)
		}
		if out := r.run(r.root, nil, "git", "ls-remote", remote); strings.Contains(out.out, "refs/heads/main") {
			t.Fatalf("git %v: the remote got main", args)
		}
	}
	r.git("config", "--unset-all", "push.pushOption")
	if res := r.run(r.root, nil, "git", "-c", "push.pushOption=merge_request.create", "push", "-q", "origin", "main"); res.code != 0 {
		t.Fatalf("push after QA: exit %d\n%s", res.code, res.err)
	}
	if out := r.run(r.root, nil, "git", "ls-remote", remote); !strings.Contains(out.out, "refs/heads/main") {
		t.Fatal("the remote lacks main after the allowed push")
	}
}

func TestLinkedWorktreeSessions(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	wt := filepath.Join(filepath.Dir(r.root), "feature")
	r.git("worktree", "add", "-q", "-b", "feature", wt)
	wt = r.gitIn(wt, "rev-parse", "--show-toplevel")

	mainID := r.startWorking(r.root)
	// The linked worktree shares the hooks and the database, not the session.
	writeFile(t, filepath.Join(wt, "f.txt"), "feature\n")
	r.gitIn(wt, "add", "f.txt")
	res := r.commit(wt, nil, "-m", "feature")
	if res.code != 1 || !strings.Contains(res.err, "no active session in worktree "+wt) {
		t.Fatalf("worktree without its own session: exit %d\n%s", res.code, res.err)
	}
	wtID := r.startWorking(wt)
	if res := r.commit(wt, nil, "-m", "feature"); res.code != 0 {
		t.Fatalf("worktree commit: %s", res.err)
	}
	writeFile(t, filepath.Join(r.root, "m.txt"), "main\n")
	r.git("add", "m.txt")
	if res := r.commit(r.root, nil, "-m", "main"); res.code != 0 {
		t.Fatalf("main commit: %s", res.err)
	}
	if got := r.gitIn(wt, "log", "-1", "--format=%(trailers:key=Session-Id,valueonly)"); got != wtID {
		t.Errorf("worktree commit trailer %q, want %q", got, wtID)
	}
	if got := r.git("log", "-1", "--format=%(trailers:key=Session-Id,valueonly)"); got != mainID {
		t.Errorf("main commit trailer %q, want %q", got, mainID)
	}
	for _, id := range []string{mainID, wtID} {
		if s := r.show(id); len(s.Violations) != 0 {
			t.Errorf("session %s has violations %+v", id, s.Violations)
		}
	}
}

func TestDatabaseUnusable(t *testing.T) {
	tests := []struct {
		name     string
		db       func(dir string) string
		failMode string
		code     int
		stderr   string
	}{
		{name: "folder is a file", db: func(dir string) string {
			writeFile(t, filepath.Join(dir, "plain"), "x")
			return filepath.Join(dir, "plain", "sg.db")
		}, failMode: "closed", code: 1, stderr: "sessiongate doctor"},
		{name: "not a database", db: func(dir string) string {
			p := filepath.Join(dir, "junk.db")
			writeFile(t, p, strings.Repeat("this is not sqlite\n", 300))
			return p
		}, failMode: "closed", code: 1, stderr: "file is not a database"},
		{name: "fail open", db: func(dir string) string {
			p := filepath.Join(dir, "junk.db")
			writeFile(t, p, strings.Repeat("this is not sqlite\n", 300))
			return p
		}, failMode: "open", code: 0, stderr: "allowed without checks (fail_mode: open)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), strings.Replace(testConfig, "fail_mode: closed", "fail_mode: "+tc.failMode, 1))
			r.git("commit", "-q", "--allow-empty", "-am", "fail mode")
			r.sg(r.root, "install")
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			res := r.commit(r.root, []string{"SESSIONGATE_DB=" + tc.db(t.TempDir())}, "-m", "x")
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, tc.code, res.err)
			}
			if !strings.Contains(res.err, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, res.err)
			}
		})
	}
}

// TestForgedReplayMark: post-commit takes a commit for a replay (rebase,
// cherry-pick: no pre-commit ran, no BYPASS) by marks in the git
// directory, which the agent can make. The adversarial pass of issue 25 ran
// `mkdir .git/rebase-merge`, then `git commit --no-verify` from a script the
// agent hooks do not read: the commit landed with no violation. A mark
// now counts only under a git that replays; an honest cherry-pick in the
// session is still a replay.
func TestForgedReplayMark(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	// An honest cherry-pick of the session's own commit from a branch.
	r.git("switch", "-q", "-c", "side")
	writeFile(t, filepath.Join(r.root, "side.txt"), "side\n")
	r.git("add", "side.txt")
	if res := r.commit(r.root, nil, "-m", "side work"); res.code != 0 {
		t.Fatalf("commit on side: %s", res.err)
	}
	r.git("switch", "-q", "main")
	if res := r.run(r.root, nil, "git", "cherry-pick", "side"); res.code != 0 {
		t.Fatalf("cherry-pick: %s", res.err)
	}
	if v := r.show(id).Violations; len(v) != 0 {
		t.Fatalf("an honest cherry-pick gave violations %+v", v)
	}
	for _, mark := range []string{"rebase-merge", "CHERRY_PICK_HEAD", "sequencer"} {
		p := filepath.Join(r.root, ".git", mark)
		if mark == "CHERRY_PICK_HEAD" {
			writeFile(t, p, r.head(r.root)+"\n")
		} else if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(r.root, mark+".txt"), "work\n")
		r.git("add", mark+".txt")
		res := r.commit(r.root, nil, "--no-verify", "-m", "skip the hooks under "+mark)
		os.RemoveAll(p)
		if res.code != 0 {
			t.Fatalf("--no-verify commit under a forged %s did not land: %s", mark, res.err)
		}
		if !strings.Contains(res.err, "CRITICAL BYPASS violation recorded") {
			t.Errorf("a forged %s let --no-verify through unflagged:\n%s", mark, res.err)
		}
	}
	if n := len(r.show(id).Violations); n != 3 {
		t.Errorf("%d violations, want one BYPASS per forged mark", n)
	}
}

// TestReplayedCommits: a replay is the session's clean work only when its
// change is one the session's pre-commit checked (adversarial pass of issue 25, route 1).
// A rebase of the session's own commits onto other work changes their
// trees, not their patches: clean. A hooks-off commit cherry-picked in
// the session: BYPASS.
func TestReplayedCommits(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	// Upstream work the session's branch will be rebased onto.
	r.git("switch", "-q", "-c", "up")
	writeFile(t, filepath.Join(r.root, "up.txt"), "up\n")
	r.git("add", "up.txt")
	r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "upstream work")
	r.git("update-ref", "refs/remotes/origin/up", "up") // fetched: not the session's
	r.git("switch", "-q", "main")
	id := r.startWorking(r.root)
	for _, f := range []string{"a.txt", "b.txt"} {
		writeFile(t, filepath.Join(r.root, f), f+"\n")
		r.git("add", f)
		if res := r.commit(r.root, nil, "-m", "work "+f); res.code != 0 {
			t.Fatalf("commit %s: %s", f, res.err)
		}
	}
	if res := r.run(r.root, nil, "git", "rebase", "origin/up"); res.code != 0 {
		t.Fatalf("rebase: %s%s", res.out, res.err)
	}
	r.sg(r.root, "session", "status") // reconciles
	if v := r.show(id).Violations; len(v) != 0 {
		t.Fatalf("a rebase of the session's checked commits gave violations %+v", v)
	}
	// The lazy route: a hooks-off commit on a side branch, cherry-picked.
	r.git("switch", "-q", "-c", "side")
	writeFile(t, filepath.Join(r.root, "c.txt"), "unchecked\n")
	r.git("add", "c.txt")
	r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "unchecked work")
	r.git("switch", "-q", "main")
	res := r.run(r.root, nil, "git", "cherry-pick", "side")
	if res.code != 0 {
		t.Fatalf("cherry-pick: %s", res.err)
	}
	if !strings.Contains(res.err, "BYPASS") {
		t.Errorf("a cherry-pick of a hooks-off commit was not flagged:\n%s", res.err)
	}
	if v := r.show(id).Violations; len(v) != 1 || v[0].Code != "BYPASS" {
		t.Errorf("violations %+v, want one BYPASS", v)
	}
}

// TestRebaseInInitOfOwnCommits: `git pull --rebase` while the session is
// still in its start protocol replays the branch's own unpushed commits
// from before the session onto upstream work. Their patches equal commits
// reachable from the session's start commit: no new work landed, so no
// BYPASS (honest). A genuinely new commit landed in INIT, by a replay of a
// hooks-off commit, stays a BYPASS (lazy).
func TestRebaseInInitOfOwnCommits(t *testing.T) {
	r := newRepo(t)
	base := filepath.Dir(r.root)
	remote := filepath.Join(base, "remote.git")
	r.gitIn(base, "init", "-q", "--bare", remote)
	r.git("remote", "add", "origin", remote)
	r.git("push", "-q", "-u", "origin", "main")
	// Someone else pushes upstream work.
	other := filepath.Join(base, "other")
	r.gitIn(base, "clone", "-q", remote, other)
	writeFile(t, filepath.Join(other, "up.txt"), "up\n")
	r.gitIn(other, "add", "up.txt")
	r.gitIn(other, "commit", "-q", "-m", "upstream work")
	r.gitIn(other, "push", "-q", "origin", "main")
	r.sg(r.root, "install")
	// The branch's own unpushed commits, made before any session.
	for _, f := range []string{"a.txt", "b.txt"} {
		writeFile(t, filepath.Join(r.root, f), f+"\n")
		r.git("add", f)
		r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "earlier work "+f)
	}
	out := r.sg(r.root, "session", "start", "--objective", "rebase first")
	id := ""
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "export SESSIONGATE_SESSION="); ok {
			id = v
		}
	}
	if res := r.run(r.root, nil, "git", "pull", "-q", "--rebase"); res.code != 0 {
		t.Fatalf("pull --rebase: %s%s", res.out, res.err)
	}
	r.sg(r.root, "session", "status") // reconciles
	if v := r.show(id).Violations; len(v) != 0 {
		t.Fatalf("pull --rebase in INIT of the branch's own earlier commits gave violations %+v", v)
	}
	// The lazy route in INIT: new work, hooks off on a side branch, replayed.
	r.git("switch", "-q", "-c", "side")
	writeFile(t, filepath.Join(r.root, "c.txt"), "unchecked\n")
	r.git("add", "c.txt")
	r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "new unchecked work")
	r.git("switch", "-q", "main")
	if res := r.run(r.root, nil, "git", "cherry-pick", "side"); res.code != 0 {
		t.Fatalf("cherry-pick: %s", res.err)
	}
	r.sg(r.root, "session", "status")
	if v := r.show(id).Violations; len(v) != 1 || v[0].Code != "BYPASS" {
		t.Fatalf("violations %+v, want one BYPASS for the new commit landed in INIT", v)
	}
}

// TestRebaseMidSessionOfEarlierCommits: the same `git pull --rebase` after
// the start gates passed. Session A committed on the branch and ended
// before pushing; session B, started on top, pulls a teammate's push with
// --rebase and so replays A's commits, which B's pre-commit never saw.
// They were a CRITICAL BYPASS (helper 350), though the same pull in INIT
// was clean: no new work lands either way. A hooks-off commit made during
// the session and replayed stays a BYPASS (lazy).
func TestRebaseMidSessionOfEarlierCommits(t *testing.T) {
	r := newRepo(t)
	base := filepath.Dir(r.root)
	remote := filepath.Join(base, "remote.git")
	r.gitIn(base, "init", "-q", "--bare", remote)
	r.git("remote", "add", "origin", remote)
	r.git("push", "-q", "-u", "origin", "main")
	r.sg(r.root, "install")
	// The earlier session's commit, made through the hooks, not pushed.
	a := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-m", "feat: a"); res.code != 0 {
		t.Fatalf("commit: %s", res.err)
	}
	r.sg(r.root, "session", "terminate", "--session", a, "--reason", "done")
	// A teammate pushes meanwhile.
	other := filepath.Join(base, "other")
	r.gitIn(base, "clone", "-q", remote, other)
	writeFile(t, filepath.Join(other, "up.txt"), "up\n")
	r.gitIn(other, "add", "up.txt")
	r.gitIn(other, "commit", "-q", "-m", "upstream work")
	r.gitIn(other, "push", "-q", "origin", "main")
	id := r.startWorking(r.root)
	if res := r.run(r.root, nil, "git", "pull", "-q", "--rebase"); res.code != 0 {
		t.Fatalf("pull --rebase: %s%s", res.out, res.err)
	}
	r.sg(r.root, "session", "status") // reconciles
	if v := r.show(id).Violations; len(v) != 0 {
		t.Fatalf("pull --rebase mid-session of the branch's earlier commits gave violations %+v", v)
	}
	// The lazy route: new work, hooks off on a side branch, replayed.
	r.git("switch", "-q", "-c", "side")
	writeFile(t, filepath.Join(r.root, "c.txt"), "unchecked\n")
	r.git("add", "c.txt")
	r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "new unchecked work")
	r.git("switch", "-q", "main")
	if res := r.run(r.root, nil, "git", "cherry-pick", "side"); res.code != 0 {
		t.Fatalf("cherry-pick: %s", res.err)
	}
	r.sg(r.root, "session", "status")
	if v := r.show(id).Violations; len(v) != 1 || v[0].Code != "BYPASS" {
		t.Fatalf("violations %+v, want one BYPASS for the new commit", v)
	}
}

// TestPostMergeRecordsTheMerge: install writes post-merge and
// post-rewrite; a merge in a session is recorded by post-merge when git
// makes it, not at the next sessiongate call. An install without them
// (older) is outdated for doctor, a warning, never a failure.
func TestPostMergeRecordsTheMerge(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	for _, n := range []string{"post-merge", "post-rewrite"} {
		if b, err := os.ReadFile(filepath.Join(r.root, ".git", "hooks", n)); err != nil || !strings.Contains(string(b), "sessiongate-managed-hook") {
			t.Fatalf("install did not write %s: %v", n, err)
		}
	}
	id := r.startWorking(r.root)
	r.git("switch", "-q", "-c", "feat/x")
	writeFile(t, filepath.Join(r.root, "x.txt"), "x\n")
	r.git("add", "x.txt")
	if res := r.commit(r.root, nil, "-m", "feat: x"); res.code != 0 {
		t.Fatalf("commit: %s", res.err)
	}
	r.git("switch", "-q", "main")
	// Work on main too, so the merge's tree is one no pre-commit checked.
	writeFile(t, filepath.Join(r.root, "m.txt"), "m\n")
	r.git("add", "m.txt")
	if res := r.commit(r.root, nil, "-m", "feat: m"); res.code != 0 {
		t.Fatalf("commit: %s", res.err)
	}
	res := r.run(r.root, nil, "git", "merge", "--no-ff", "--no-edit", "feat/x")
	if res.code != 0 {
		t.Fatalf("merge: %s%s", res.out, res.err)
	}
	if !strings.Contains(res.err, "post-merge recorded 1 commit(s)") {
		t.Errorf("post-merge did not record the merge when git made it:\n%s", res.err)
	}
	if v := r.show(id).Violations; len(v) != 0 {
		t.Errorf("an honest merge gave violations %+v", v)
	}
	// An older install: no post-merge, no post-rewrite. Outdated, not broken.
	for _, n := range []string{"post-merge", "post-rewrite"} {
		os.Remove(filepath.Join(r.root, ".git", "hooks", n))
	}
	out := r.run(r.root, nil, binary, "doctor")
	for _, n := range []string{"post-merge", "post-rewrite"} {
		line := ""
		for _, l := range strings.Split(out.out+out.err, "\n") {
			if strings.Contains(l, "hooks/"+n) {
				line = l
			}
		}
		if line == "" || !strings.Contains(line, "older than it") || strings.Contains(strings.ToLower(line), "fail") {
			t.Errorf("doctor on an install without %s: %q, want an outdated-install warning\n%s", n, line, out.out)
		}
	}
}
