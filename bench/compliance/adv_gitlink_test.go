package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// gitlinkSession adds a submodule from a repository "upstream" during the
// session; local: then moves it to a commit made only here (no clone can
// fetch it: CI checks out the superproject and fails on it, or runs
// without the code it names). It returns the end's and verify's words.
func gitlinkSession(t *testing.T, local bool) (w *world, clean bool, said string) {
	w = advWorld(t, true)
	up := filepath.Join(t.TempDir(), "lib")
	w.gitIn(filepath.Dir(up), "init", "-q", "-b", "main", up)
	w.write(filepath.Join(up, "lib.sh"), "echo lib\n")
	w.gitIn(up, "add", "-A")
	w.gitIn(up, "commit", "-q", "-m", "lib")
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", up, "lib")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "build(deps): add lib as a submodule"); r.code != 0 {
		t.Fatalf("the submodule's commit was refused: %s", r.text())
	}
	if local {
		w.deviate()
		w.write("lib/lib.sh", "echo lib v2\n")
		w.gitIn(filepath.Join(w.root, "lib"), "commit", "-q", "-am", "lib v2, here only")
		w.git("add", "lib")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "build(deps): lib v2"); r.code != 0 {
			t.Fatalf("the gitlink's move was refused: %s", r.text())
		}
	}
	w.advWork()
	clean, said = w.advEndPhases(advEnd{})
	return w, clean, said
}

// TestAdvGitlinkUnfetchable: a gitlink moved to a commit that only this
// clone holds ended COMPLETE: clean before; now the end records a
// REVIEW_FLAG (LOW): whether the URL serves it takes the network.
func TestAdvGitlinkUnfetchable(t *testing.T) {
	t.Parallel()
	w, _, said := gitlinkSession(t, true)
	if strings.Contains(said, "COMPLETE: clean") {
		t.Errorf("route gets through: a gitlink to a commit no clone can fetch; COMPLETE: clean\n%s", said)
	} else if show := w.sgOK("session", "show", w.id); !strings.Contains(show, "submodule lib") {
		t.Errorf("not clean, but the submodule is not named:\n%s\n%s", said, show)
	}
}

// TestAdvGitlinkHonest: a submodule added at its upstream's commit (its
// clone's origin/main holds it) ends clean.
func TestAdvGitlinkHonest(t *testing.T) {
	t.Parallel()
	if _, clean, said := gitlinkSession(t, false); !clean {
		t.Errorf("an honest session that adds a published submodule did not end clean (a false block)\n%s", said)
	}
}
