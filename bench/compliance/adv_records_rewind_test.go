package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAdvFullRewindBeforeFirstPush: a session commits with the hooks
// skipped (`git commit --no-verify`: a CRITICAL BYPASS, on the records ref
// at once). Before anything is pushed, the lazy agent erases every trace
// sessiongate keeps on the machine and does the session again:
//
//	git reset --hard <base>                                # HEAD past every session commit
//	git update-ref refs/sessiongate/records <tip at start> # or -d when there was none
//	rm -r .git/sessiongate                                 # the database, its events, event.key
//	sessiongate session start ...                          # a new, clean session
//
// Without records_push (the default), nothing the repository pushes names
// the first session: its commits, pins and violations are gone, and the
// first push carries only the second session. Every local witness (the
// database, the records ref, its reflog, a log of the hooks) is a file the
// agent's user can rewrite or delete. Under an agent whose tool calls pass
// sessiongate's agent hooks, the commands are denied (update-ref of the
// records ref, writes under .git/sessiongate: shellline.TouchesRecords,
// scriptrun's needles); with a bare shell, nothing on the machine can
// witness it. The test keeps that limit visible (docs/security.md, "A full
// rewind before the first push"): it fails when something starts to see
// the rewind without a remote, so the docs and this test are updated
// together. With records_push: TestAdvFullRewindRecordsPushed.
func TestAdvFullRewindBeforeFirstPush(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	tipAtStart := w.bypassThenRewind()

	// The session again, done as the protocol asks.
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	clean, said := w.advEndPhases(advEnd{})
	if !clean {
		t.Fatalf("something now witnesses a full rewind before the first push: update docs/security.md (\"A full rewind before the first push\") and turn this test into the route's closing test\n%s", said)
	}
	// Pushed, the rewound ref is all the remote gets: verify stays clean.
	w.git("push", "-q", "origin", "feat/greet-name")
	if v := w.sg("verify", w.base+"..HEAD"); v.code != 0 {
		t.Fatalf("verify after the push failed without records_push (tip at start %q): update the docs with this test\n%s", tipAtStart, v.text())
	}
}

// bypassThenRewind plays the first session (a --no-verify commit,
// reconciled into a BYPASS) and the rewind; it returns the records ref's
// tip at the start ("" for none).
func (w *world) bypassThenRewind() string {
	t := w.t
	t.Helper()
	tipAtStart := strings.TrimSpace(w.exec(w.root, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").out)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
		t.Fatalf("commit --no-verify: %s", r.text())
	}
	t0 := time.Now()
	if r := w.sg("session", "status"); r.code != 0 { // reconciliation records the BYPASS
		t.Fatalf("session status after the BYPASS: exit %d\n%s", r.code, r.text())
	}
	t.Logf("session status recording the BYPASS: %v", time.Since(t0).Round(time.Millisecond))
	if after := strings.TrimSpace(w.exec(w.root, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").out); after == tipAtStart {
		t.Fatalf("the records ref did not move with the session (at %q): the set-up does not show a rewind", after)
	}
	w.git("reset", "-q", "--hard", w.base)
	if tipAtStart == "" {
		w.git("update-ref", "-d", "refs/sessiongate/records")
	} else {
		w.git("update-ref", "refs/sessiongate/records", tipAtStart)
	}
	gitDir := w.git("rev-parse", "--git-common-dir")
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(w.root, gitDir)
	}
	if err := os.RemoveAll(filepath.Join(gitDir, "sessiongate")); err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(filepath.Join(gitDir, "logs", "refs", "sessiongate"))
	return tipAtStart
}

// recordsOnlyForward is the pre-receive hook docs/team.md ("Trust") gives a
// self-hosted remote: the records ref is only ever added to. git's own
// receive.denyNonFastForwards and receive.denyDeletes guard refs/heads/
// only (receive-pack), so they do not cover it.
const recordsOnlyForward = `#!/bin/sh
# Refuse deleting or rewinding refs/sessiongate/records: records are only added.
while read old new ref; do
	[ "$ref" = refs/sessiongate/records ] || continue
	[ -n "$(printf %s "$old" | tr -d 0)" ] || continue # created
	if [ -z "$(printf %s "$new" | tr -d 0)" ]; then
		echo "pre-receive: $ref cannot be deleted" >&2; exit 1
	fi
	if ! git merge-base --is-ancestor "$old" "$new"; then
		echo "pre-receive: $ref only moves forward (a non-fast-forward update refused)" >&2; exit 1
	fi
done
`

// recordsPushWorld is advWorld with `records_push: origin` committed in
// sessiongate.yaml, and an origin whose pre-receive hook refuses deleting
// or rewinding the records ref (recordsOnlyForward).
func recordsPushWorld(t *testing.T) *world {
	t.Helper()
	p := advProject{files: [][2]string{{"scripts/greet.sh", greetScript}, {"scripts/test.sh", strings.Replace(greetTest,
		"for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)}},
		afterInit: func(w *world) {
			w.write("sessiongate.yaml", w.read("sessiongate.yaml")+"records_push: origin\n")
		},
		afterInitKey: "records_push: origin",
	}
	w := advProjectWorld(t, p)
	origin := w.git("remote", "get-url", "origin")
	if err := os.WriteFile(filepath.Join(origin, "hooks", "pre-receive"), []byte(recordsOnlyForward), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestAdvFullRewindRecordsPushed (issue 25 item 8): the full rewind with
// `records_push: origin`. The BYPASS is pushed to the remote the moment
// reconciliation writes it onto the records ref; the rewind then erases
// only the local copies. The agent's force push of the remote's ref back
// is refused by the host, and the second session's first push, which
// sends the records ref with the code (pre-push), merges the remote's
// records first, so the first session's record comes back. verify then
// fails the range: a session of its branch recorded BYPASS and none of
// its commits is in the branch's history. Honest twins: the same session
// done without a violation pushes nothing and verifies clean
// (TestAdvRecordsPushHonest), and an unreachable remote never blocks.
func TestAdvFullRewindRecordsPushed(t *testing.T) {
	t.Parallel()
	w := recordsPushWorld(t)
	origin := w.git("remote", "get-url", "origin")
	w.bypassThenRewind()
	onRemote := w.gitIn(origin, "rev-parse", "-q", "--verify", "refs/sessiongate/records")
	if onRemote == "" {
		t.Fatal("records_push: the remote holds no records ref after the BYPASS")
	}
	// The agent rewinds the remote's ref too: refused by the host.
	if r := w.exec(w.root, "", "git", "push", "-q", "--no-verify", "-f", "origin", ":refs/sessiongate/records"); r.code == 0 {
		t.Fatalf("the remote let the records ref be deleted (pre-receive): %s", r.text())
	}
	if r := w.exec(w.root, "", "git", "push", "-q", "--no-verify", "-f", "origin", w.base+":refs/sessiongate/records"); r.code == 0 {
		t.Fatalf("the remote let the records ref be rewound (pre-receive): %s", r.text())
	}
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviated = true // the first session's BYPASS is the route
	clean, said := w.advEndPhases(advEnd{})
	if !clean {
		t.Logf("the second session was not clean before the push: %s", said)
	}
	if r := w.exec(w.root, "", "git", "push", "-q", "origin", "feat/greet-name"); r.code != 0 {
		t.Fatalf("push of the branch: %s", r.text())
	}
	v := w.sg("verify", w.base+"..HEAD")
	if v.code == 0 || !strings.Contains(v.text(), "never ended") || !strings.Contains(v.text(), "BYPASS") {
		t.Errorf("route gets through: a full rewind before the first push with records_push; verify after the push:\nexit %d\n%s", v.code, v.text())
	}
}

// TestAdvRecordsPushHonest: records_push is set and the session is done as
// the protocol asks: no violation, so nothing is pushed before the code
// push, and verify passes after it. With the remote unreachable, a BYPASS's
// push fails quietly: the hook still answers at once and nothing blocks.
func TestAdvRecordsPushHonest(t *testing.T) {
	t.Parallel()
	t.Run("honest session, remote reachable", func(t *testing.T) {
		t.Parallel()
		w := recordsPushWorld(t)
		origin := w.git("remote", "get-url", "origin")
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.advWork()
		if clean, said := w.advEndPhases(advEnd{}); !clean {
			t.Fatalf("an honest session with records_push did not end clean (a false block)\n%s", said)
		}
		if r := w.exec(origin, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records"); r.code == 0 {
			t.Errorf("records_push pushed the records ref without a violation: %s", r.out)
		}
		w.git("push", "-q", "origin", "feat/greet-name")
		if v := w.sg("verify", w.base+"..HEAD"); v.code != 0 {
			t.Errorf("verify failed an honest session after the push (a false FAIL)\n%s", v.text())
		}
	})
	t.Run("another branch's open BYPASS session, pushed", func(t *testing.T) {
		// A teammate's (here: a second worktree's) session on another
		// branch recorded a BYPASS, pushed at once; this branch's honest
		// session merges it onto its records ref at push time and must
		// not answer for it.
		t.Parallel()
		w := recordsPushWorld(t)
		origin := w.git("remote", "get-url", "origin")
		other := filepath.Join(t.TempDir(), "other")
		w.git("worktree", "add", "-q", "-b", "feat/other", other, w.base)
		main := w.root
		w.root = other
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
			t.Fatalf("commit --no-verify: %s", r.text())
		}
		w.sg("session", "status")
		if r := w.exec(origin, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records"); r.code != 0 {
			t.Fatalf("records_push: the other branch's BYPASS is not on the remote")
		}
		w.root = main
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.advWork()
		if clean, said := w.advEndPhases(advEnd{}); !clean {
			t.Fatalf("an honest session beside another branch's BYPASS did not end clean (a false block)\n%s", said)
		}
		w.git("push", "-q", "origin", "feat/greet-name")
		if v := w.sg("verify", w.base+"..HEAD"); v.code != 0 {
			t.Errorf("verify failed an honest branch for another branch's open BYPASS session (a false FAIL)\n%s", v.text())
		}
	})
	t.Run("remote unreachable", func(t *testing.T) {
		t.Parallel()
		w := recordsPushWorld(t)
		w.git("remote", "set-url", "origin", filepath.Join(t.TempDir(), "gone.git"))
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.advWork()
		if clean, said := w.advEndPhases(advEnd{}); !clean {
			t.Fatalf("an honest session with records_push and no reachable remote did not end clean (a false block)\n%s", said)
		}
	})
	t.Run("a BYPASS with the remote unreachable", func(t *testing.T) {
		t.Parallel()
		w := recordsPushWorld(t)
		w.git("remote", "set-url", "origin", filepath.Join(t.TempDir(), "gone.git"))
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
			t.Fatalf("commit --no-verify: %s", r.text())
		}
		t0 := time.Now()
		r := w.sg("session", "status")
		if r.code != 0 {
			t.Fatalf("session status with the remote unreachable: exit %d\n%s", r.code, r.text())
		}
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("session status took %v with the remote unreachable", d)
		} else {
			t.Logf("session status with the BYPASS and the remote unreachable: %v", d.Round(time.Millisecond))
		}
		if tip := strings.TrimSpace(w.exec(w.root, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").out); tip == "" {
			t.Errorf("the BYPASS is not on the local records ref when the push failed")
		}
	})
}

// TestAdvDatabaseRestoredFromCopy: the lazy agent copies sessiongate's
// folder after the start gates, commits its work with the hooks skipped
// (a CRITICAL BYPASS), then puts the older copy back, so the database
// holds no BYPASS and no commit, and commits again through the hooks:
//
//	cp -r .git/sessiongate /tmp/sg-copy
//	git commit --no-verify -m "feat(scripts): ..."
//	rm -r .git/sessiongate && cp -r /tmp/sg-copy .git/sessiongate
//
// The records ref and the pins on it are not in the copy: they must bring
// the violation back (issue 25 item 8, "violations cannot be laundered").
// Closed before this pass: the next pre-commit compares the database with
// the session's pin on the records ref and blocks with EVENTS_REWRITTEN;
// with the ref moved back too, TestAdvFullRewindBeforeFirstPush.
func TestAdvDatabaseRestoredFromCopy(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.deviate()
	gitDir := w.git("rev-parse", "--git-common-dir")
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(w.root, gitDir)
	}
	folder := filepath.Join(gitDir, "sessiongate")
	copyDir := filepath.Join(t.TempDir(), "sg-copy")
	if r := w.exec(w.root, "", "cp", "-r", folder, copyDir); r.code != 0 {
		t.Fatalf("copy: %s", r.text())
	}
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
		t.Fatalf("commit --no-verify: %s", r.text())
	}
	w.sg("session", "status") // reconciliation records the BYPASS
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	if r := w.exec(w.root, "", "cp", "-r", copyDir, folder); r.code != 0 {
		t.Fatalf("restore: %s", r.text())
	}
	// The next commit is where the pins are compared with the database.
	w.write("README.md", "# greet\n\n`sh scripts/greet.sh NAME` greets NAME.\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs: the name argument"); r.code != 0 {
		if !strings.Contains(r.text(), "events were rewritten") {
			t.Errorf("the commit after the restore was refused, but not for the rewritten events:\n%s", r.text())
		}
		return // EVENTS_REWRITTEN, on the records ref: closed
	}
	clean, said := w.advEndPhases(advEnd{})
	if clean || strings.Contains(said, "COMPLETE: clean") {
		t.Errorf("route gets through: the database put back from a copy made before a BYPASS; COMPLETE, clean\n%s", said)
	}
}
