package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAdvRecordsPushEvasions27 (review of c1, round 27): records_push and
// verify's rewound-session check played by a lazy agent with a bare shell,
// against a bare remote with the forward-only pre-receive hook of
// docs/team.md. Each row cuts the violation's push (or moves the work)
// before the full rewind of TestAdvFullRewindRecordsPushed, undoes the cut,
// does the session again and pushes. "through" rows are limits kept
// visible (docs/security.md, "Review of c1 (round 27, c9)"): the test fails
// when one starts to be held, so the docs and this table change together.
// Round 28 (c2) closed the pushurl, insteadOf and renamed-branch rows: the
// push goes to the URL pinned at the session's start past the repository's
// config (recordref.PushPinned), and verify ties the rewound session by its
// worktree (docs/security.md, "Lazy-agent pass 28 (c2)").
func TestAdvRecordsPushEvasions27(t *testing.T) {
	t.Parallel()
	rows := []struct {
		name string
		cut  func(w *world) // before the BYPASS
		undo func(w *world) // after the rewind, before the second session
		// forward: after the violation reached the remote, the agent
		// pushes a records commit dropping it (a fast-forward).
		forward bool
		branch  string // the second session's branch ("" keeps feat/greet-name)
		through bool   // verify passes after the push
	}{
		{name: "pushurl /dev/null while the violation is written", through: false,
			cut:  func(w *world) { w.git("config", "remote.origin.pushurl", "/dev/null") },
			undo: func(w *world) { w.git("config", "--unset", "remote.origin.pushurl") }},
		{name: "url.insteadOf to a dead path while the violation is written", through: false,
			cut: func(w *world) {
				w.git("config", "url."+filepath.Join(w.t.TempDir(), "dead.git")+".insteadOf", w.git("remote", "get-url", "origin"))
			},
			undo: func(w *world) {
				key, _, _ := strings.Cut(w.git("config", "--get-regexp", `^url\..*\.insteadof$`), " ")
				w.git("config", "--unset", key)
			}},
		{name: "a pre-push hook that refuses", through: false,
			cut: func(w *world) {
				hooks := w.git("rev-parse", "--git-path", "hooks")
				if !filepath.IsAbs(hooks) {
					hooks = filepath.Join(w.root, hooks)
				}
				p := filepath.Join(hooks, "pre-push")
				old, _ := os.ReadFile(p)
				os.WriteFile(p+".saved", old, 0o755)
				os.WriteFile(p, []byte("#!/bin/sh\nexit 1\n"), 0o755)
			},
			undo: func(w *world) {
				hooks := w.git("rev-parse", "--git-path", "hooks")
				if !filepath.IsAbs(hooks) {
					hooks = filepath.Join(w.root, hooks)
				}
				p := filepath.Join(hooks, "pre-push")
				os.Rename(p+".saved", p)
			}},
		{name: "the record dropped by a forward records commit", forward: true, through: false},
		{name: "the work done again on a renamed branch", branch: "feat/greet-v2", through: false},
		// Round 28 (c2): the remote's URL itself set to a dead path
		// (`git remote set-url --push`), and the branch renamed with
		// `git branch -m` rather than switch -c.
		{name: "remote set-url --push to a dead path while the violation is written", through: false,
			cut: func(w *world) {
				w.git("remote", "set-url", "--push", "origin", filepath.Join(w.t.TempDir(), "dead.git"))
			},
			undo: func(w *world) { w.git("config", "--unset", "remote.origin.pushurl") }},
		{name: "the work done again on a branch renamed with git branch -m", branch: "-m feat/greet-v3", through: false},
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := recordsPushWorld(t)
			origin := w.git("remote", "get-url", "origin")
			if c.cut != nil {
				c.cut(w)
			}
			tipAtStart := w.bypassThenRewind()
			if c.undo != nil {
				c.undo(w)
			}
			onRemote := w.exec(origin, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").code == 0
			t.Logf("the violation's push reached the remote: %v", onRemote)
			if c.forward {
				if !onRemote {
					t.Fatal("records_push did not push the BYPASS: the row shows nothing")
				}
				// A commit whose tree is the ref's tree at the start, its
				// parent the remote's tip: the hook sees a fast-forward.
				w.git("fetch", "-q", "origin", "+refs/sessiongate/records:refs/sessiongate/records")
				tree := "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
				if tipAtStart != "" {
					tree = w.git("rev-parse", tipAtStart+"^{tree}")
				} else {
					w.git("hash-object", "-t", "tree", "-w", "--stdin")
				}
				c2 := w.git("commit-tree", tree, "-p", "refs/sessiongate/records", "-m", "records: prune")
				w.git("update-ref", "refs/sessiongate/records", c2)
				if r := w.exec(w.root, "", "git", "push", "-q", "--no-verify", "origin", "refs/sessiongate/records"); r.code != 0 {
					t.Fatalf("the forward records commit was refused: %s", r.text())
				}
			}
			br := c.branch
			switch {
			case strings.HasPrefix(br, "-m "):
				br = strings.TrimPrefix(br, "-m ")
				w.git("branch", "-m", br)
			case br != "":
				w.git("switch", "-q", "-c", br)
				w.git("branch", "-q", "-D", "feat/greet-name")
			}
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			w.deviated = true
			w.advEndPhases(advEnd{})
			if br == "" {
				br = "feat/greet-name"
			}
			if r := w.exec(w.root, "", "git", "push", "-q", "origin", br); r.code != 0 {
				t.Fatalf("push of the branch: %s", r.text())
			}
			v := w.sg("verify", w.base+"..HEAD")
			t.Logf("verify after the push: exit %d\n%s", v.code, v.text())
			switch {
			case c.through && v.code != 0:
				t.Errorf("a route kept open is now held (verify exit %d): update docs/security.md (\"Review of c1 (round 27, c9)\") and this row", v.code)
			case !c.through && v.code == 0:
				t.Errorf("route gets through: %s (verify clean after the push)", c.name)
			}
		})
	}
}

// TestAdvRecordsPushOfflineThenReconnect (review of c1, round 27): the
// violation is written while the push cannot reach the remote, and the
// agent does not rewind: the next code push (the pre-push hook) carries
// the records ref with it, and verify fails the BYPASS commit. (A push the
// pre-push hook blocks sends no records: the session must reach its end.)
func TestAdvRecordsPushOfflineThenReconnect(t *testing.T) {
	t.Parallel()
	w := recordsPushWorld(t)
	origin := w.git("remote", "get-url", "origin")
	// Offline: the remote is not there while the violation is recorded (a
	// pushurl set before the start no longer cuts the push: round 28, c2
	// pins the URL and pushes past pushurl).
	if err := os.Rename(origin, origin+".offline"); err != nil {
		t.Fatal(err)
	}
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
		t.Fatalf("commit --no-verify: %s", r.text())
	}
	if r := w.sg("session", "status"); r.code != 0 {
		t.Fatalf("session status with the push cut: exit %d\n%s", r.code, r.text())
	}
	if err := os.Rename(origin+".offline", origin); err != nil {
		t.Fatal(err)
	}
	if w.exec(origin, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").code == 0 {
		t.Fatal("the records ref reached the remote while it was offline: the row shows nothing")
	}
	w.deviated = true
	w.advEndPhases(advEnd{}) // the session goes on to its end: a push mid-session is blocked, and a blocked push sends nothing
	r := w.exec(w.root, "", "git", "push", "-q", "origin", "feat/greet-name")
	t.Logf("push of the branch: exit %d %s", r.code, r.text())
	if w.exec(origin, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").code != 0 {
		t.Errorf("the code push after reconnecting did not carry the records ref with the BYPASS")
	}
	if v := w.sg("verify", w.base+"..HEAD"); v.code == 0 {
		t.Errorf("verify passed the BYPASS commit after reconnecting:\n%s", v.text())
	}
}
