package compliance_test

import (
	"strings"
	"testing"
)

// TestAdvRevertRelandInInit: the feature was committed before the session
// with the hooks off (no session, no trailers), then, in INIT, before the
// start gates pass, reverted and re-landed with git's replays, which run
// no pre-commit:
//
//	git -c core.hooksPath=/dev/null commit -m "feat(scripts): ..."   # before session start
//	sessiongate session start ...
//	git revert --no-edit HEAD && git revert --no-edit HEAD           # in INIT
//
// so the work reaches the session's branch as the session's own commits
// without any pre-commit having examined it. Each replay landing in INIT
// is a CRITICAL BYPASS (session/replay.go; a re-land's patch equals a
// commit from before the session, but its original here is the revert,
// made in the session), so the session does not end clean.
func TestAdvRevertRelandInInit(t *testing.T) {
	w := advWorld(t, true)
	w.deviate()
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.git("add", "-A")
	w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "feat(scripts): greet takes an optional name")
	w.advStart("Add a name argument to the greeting script")
	for i := 0; i < 2; i++ {
		if r := w.exec(w.root, "", "git", "revert", "--no-edit", "HEAD"); r.code != 0 {
			t.Logf("revert %d refused in INIT: %s", i+1, r.text())
			return
		}
	}
	w.advStartPhases()
	clean, said := w.advEndPhases(advEnd{})
	if clean || strings.Contains(said, "COMPLETE: clean") {
		t.Errorf("route gets through: a change made outside the session, reverted and re-landed in INIT; COMPLETE, clean\n%s", said)
	}
	t.Logf("%s", said)
}
