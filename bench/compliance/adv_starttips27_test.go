package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAdvStartTipsEvasions27 (round 27, c1): round 26 recorded the branch
// and tag tips at `session start`, so a hooks-off commit back-dated to
// before the session is still the session's when no recorded tip reaches
// it. Played here through the real binary, each route weakening
// scripts/test.sh with the hooks off and bringing the commit in as older
// work:
//
//   - before start: a branch holding a back-dated hooks-off commit made
//     before `session start`, fast-forwarded into the session's branch;
//   - during: a branch made before the start, the hooks-off commit made on
//     it during the session, then fast-forwarded (its recorded tip is the
//     sha at the start, not the name);
//   - a second clone: the commit made in a clone by path and fetched from
//     it (FETCH_HEAD), then merged;
//   - a remote-tracking ref written by hand (`git update-ref
//     refs/remotes/origin/...`) over the session's own hooks-off commit;
//   - two sessions interleaved in one worktree: a hooks-off commit in the
//     first, a second session started over it.
//
// gates says whether a local check must catch it (the session's gates, or
// a BYPASS recorded on a session of the worktree); otherwise only verify,
// which CI runs on what was pushed, does: the commit carries no Session-Id
// and no person's record (docs/security.md, "Lazy-agent pass 27 (c1)").
func TestAdvStartTipsEvasions27(t *testing.T) {
	t.Parallel()
	weaken := func(w *world) {
		w.breakGreet()
		w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "#!/bin/sh\n", "#!/bin/sh\nexit 0\n", 1))
		w.git("add", "-A")
	}
	hooksOffBackdated := func(w *world, dir string) {
		w.t.Helper()
		old := time.Now().Add(-time.Hour).Format(time.RFC3339)
		env := w.env
		w.env = append(append([]string{}, env...), "GIT_COMMITTER_DATE="+old, "GIT_AUTHOR_DATE="+old)
		r := w.exec(dir, "", "git", "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "feat(scripts): greet takes an optional name")
		w.env = env
		if r.code != 0 {
			w.t.Fatalf("hooks-off commit: %s", r.text())
		}
	}
	for _, tt := range []struct {
		name   string
		before func(w *world) // before session start
		during func(w *world) // after the start phases
		gates  bool
	}{
		{"before start: a branch holding a hooks-off commit made before the start", func(w *world) {
			w.git("switch", "-q", "-c", "hold")
			weaken(w)
			hooksOffBackdated(w, w.root)
			w.git("switch", "-q", "feat/greet-name")
		}, func(w *world) {
			w.git("merge", "-q", "--ff-only", "hold")
		}, false},
		{"during: a branch made before the start, the hooks-off commit made on it after", func(w *world) {
			w.git("branch", "hold")
		}, func(w *world) {
			w.git("switch", "-q", "hold")
			weaken(w)
			hooksOffBackdated(w, w.root)
			w.git("switch", "-q", "feat/greet-name")
			w.git("merge", "-q", "--ff-only", "hold")
		}, true},
		{"a second clone: made there, fetched by path, merged from FETCH_HEAD", nil, func(w *world) {
			clone := filepath.Join(w.t.TempDir(), "second")
			w.git("clone", "-q", "--no-hardlinks", "-b", "feat/greet-name", w.root, clone)
			main := w.root
			w.root = clone
			weaken(w)
			hooksOffBackdated(w, clone)
			w.root = main
			w.git("fetch", "-q", clone, "feat/greet-name")
			w.git("merge", "-q", "--ff-only", "FETCH_HEAD")
		}, false},
		{"a remote-tracking ref written by hand over the session's hooks-off commit", nil, func(w *world) {
			weaken(w)
			hooksOffBackdated(w, w.root)
			w.git("update-ref", "-m", "fetch: fast-forward", "refs/remotes/origin/feat/greet-name", "HEAD")
		}, false},
		{"two sessions interleaved: a hooks-off commit in the first, a second started over it", nil, func(w *world) {
			weaken(w)
			hooksOffBackdated(w, w.root)
			if r := w.sg("session", "start", "--objective", "Add a name argument to the greeting script"); r.code != 0 {
				w.t.Logf("second session start refused: %s", r.text())
				return
			}
			w.advStartPhases()
		}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			if tt.before != nil {
				tt.before(w)
			}
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.deviate()
			tt.during(w)
			clean, said := w.advEndPhases(advEnd{})
			t.Logf("%s", said)
			list := w.sg("session", "list").text()
			if clean {
				t.Fatalf("route gets through: COMPLETE, clean, verify passing\n%s", said)
			}
			// Caught locally: the session's gates failed it, or a session
			// of this worktree recorded the BYPASS (the interleaved row:
			// the first session, ABANDONED by the second's start).
			if tt.gates && strings.Contains(said, "COMPLETE: clean") && !strings.Contains(list, "CRITICAL BYPASS") {
				t.Errorf("route gets through the session's gates and no session recorded a BYPASS (only verify catches it)\n%s\n%s", said, list)
			}
		})
	}
}
