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
