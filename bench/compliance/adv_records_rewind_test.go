package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// Nothing the repository pushes names the first session: its commits,
// pins and violations are gone, and the first push carries only the
// second session. Every local witness (the database, the records ref, its
// reflog, a log of the hooks) is a file the agent's user can rewrite or
// delete. Under an agent whose tool calls pass sessiongate's agent hooks,
// the commands are denied (update-ref of the records ref, writes under
// .git/sessiongate: shellline.TouchesRecords, scriptrun's needles); with a
// bare shell, nothing on the machine can witness it and nothing pushed
// holds it. The test keeps that limit visible (docs/security.md, "A full
// rewind before the first push"): it fails when something starts to see
// the rewind, so the docs and this test are updated together.
func TestAdvFullRewindBeforeFirstPush(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	tipAtStart := strings.TrimSpace(w.exec(w.root, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").out)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
		t.Fatalf("commit --no-verify: %s", r.text())
	}
	w.sg("session", "status") // reconciliation records the BYPASS
	if after := strings.TrimSpace(w.exec(w.root, "", "git", "rev-parse", "-q", "--verify", "refs/sessiongate/records").out); after == tipAtStart {
		t.Fatalf("the records ref did not move with the session (at %q): the set-up does not show a rewind", after)
	}

	// The rewind.
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

	// The session again, done as the protocol asks.
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	clean, said := w.advEndPhases(advEnd{})
	if !clean {
		t.Fatalf("something now witnesses a full rewind before the first push: update docs/security.md (\"A full rewind before the first push\") and turn this test into the route's closing test\n%s", said)
	}
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
