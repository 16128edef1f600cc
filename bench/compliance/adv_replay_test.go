package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAdvReplayWitness: honest replays (a revert of the session's own
// commit, a cherry-pick of published work) now pass no_hook_bypass and
// verify on the session's records instead of the Session-Id trailer
// (TestFieldHonestGit). These are the lazy twins, after the start gates
// passed; each must still end not clean:
//   - a commit made with the hooks off on a local side branch (trailers
//     copied from the commit-msg hook run by hand), cherry-picked: its
//     patch is nobody's published work;
//   - a hooks-off commit whose message says "This reverts commit X." of
//     the session's own commit, but whose change is more than X's reverse;
//   - a hooks-off commit with copied trailers straight on the branch (the
//     gate said it "went through the hooks" while recording a BYPASS);
//   - the same commit with refs/remotes/origin/main moved onto it
//     (issue 25 review: `git update-ref`, no fetch).
func TestAdvReplayWitness(t *testing.T) {
	t.Parallel()
	change := "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	copiedTrailers := func(w *world, subject string) string {
		msg := filepath.Join(w.t.TempDir(), "msg")
		w.write(msg, subject+"\n")
		hook := w.git("rev-parse", "--git-path", "hooks/commit-msg")
		if !filepath.IsAbs(hook) {
			hook = filepath.Join(w.root, hook)
		}
		if r := w.exec(w.root, "", hook, msg); r.code != 0 {
			w.t.Fatalf("commit-msg hook by hand: %s", r.text())
		}
		return msg
	}
	for _, tt := range []struct {
		name  string
		route func(w *world)
	}{
		{"cherry-pick of an unpublished hooks-off commit", func(w *world) {
			w.git("switch", "-q", "-c", "side")
			w.write("scripts/greet.sh", change)
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-F", copiedTrailers(w, "feat(scripts): greet takes an optional name"))
			w.git("switch", "-q", "feat/greet-name")
			w.exec(w.root, "", "git", "cherry-pick", "side")
		}},
		{"hooks-off commit, then origin/main moved onto it", func(w *world) {
			// Commits on origin's default branch are left out of the
			// session's (a rebase brings colleagues' work): the local gate
			// passes this one, verify ("trailers copied") does not.
			w.write("scripts/greet.sh", change)
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-F", copiedTrailers(w, "feat(scripts): greet takes an optional name"))
			w.git("update-ref", "refs/remotes/origin/main", "HEAD")
		}},
		{"hooks-off commit dressed as a revert of the session's commit", func(w *world) {
			w.advWork()
			own := w.git("rev-parse", "HEAD")
			w.write("scripts/greet.sh", greetScript+"# not the reverse: an unchecked line\n")
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "Revert \"feat(scripts): greet takes an optional name\"\n\nThis reverts commit "+own+".")
		}},
		{"hooks-off commit with copied trailers", func(w *world) {
			w.write("scripts/greet.sh", change)
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-F", copiedTrailers(w, "feat(scripts): greet takes an optional name"))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.deviate()
			tt.route(w)
			clean, said := w.advEndPhases(advEnd{})
			if clean {
				t.Errorf("route gets through: ended COMPLETE, clean, with a passing verify\n%s", said)
			}
			if strings.Contains(said, "went through the hooks") {
				t.Errorf("a BYPASS is described as going through the hooks:\n%s", said)
			}
		})
	}
}

// TestAdvForgedRemoteRefReplay: the review's route past the replay
// witness. The agent commits its change with no hook (git commit-tree over
// a dummy parent, so the pick is no fast-forward), writes a
// remote-tracking ref to it by hand (git update-ref refs/remotes/origin/side:
// no fetch, nothing pushed) and cherry-picks it: post-commit takes the
// pick as a copy of published work and records it as checked. In the
// agent's clone nothing tells that ref from a fetched one; CI's clone,
// fetched from the remote, holds no such commit, and verify there must
// fail the pick. Its honest twin is TestFieldHonestGit's cherry-pick of a
// colleague's pushed branch, which verify passes.
func TestAdvForgedRemoteRefReplay(t *testing.T) {
	t.Parallel()
	c := fieldCase{name: "forged remote-tracking ref", files: fieldScriptProject, wantCmd: "sh scripts/test.sh"}
	w := fieldWorld(t, c)
	w.advStart("Say what greet prints")
	w.advStartPhases()
	x := w.hooksOffCommit()
	w.git("update-ref", "refs/remotes/origin/side", x)
	w.exec(w.root, "", "git", "cherry-pick", "origin/side")
	_, said := w.advEndPhases(advEnd{qa: func() { w.fieldQA(c) }})
	v := w.verifyInCI()
	if v.code == 0 {
		t.Errorf("route gets through CI: verify in a fresh clone passed the cherry-pick of a commit that exists only behind a hand-written remote-tracking ref\nlocal: %s\nCI verify:\n%s", said, v.text())
	}
	if !strings.Contains(v.text(), "holds nothing it replays") {
		t.Errorf("CI verify failed, but not on the forged replay:\n%s", v.text())
	}
}

// TestAdvPushedHooksOffReplay: the forged ref's route with a real push.
// The agent pushes its hooks-off commit to a branch of its own on the
// remote (git push --no-verify origin X:refs/heads/side), fetches, and
// cherry-picks it: post-commit takes the pick as a copy of published
// work, and so did verify in CI, which fetched the branch from the remote
// (it passed on the old code). A commit on a remote branch is no witness
// that hooks ran; the original's own verdict is: verify judges it alone,
// and its failure fails the copy. The honest twin is TestFieldHonestGit's
// cherry-pick of a colleague's pushed commit, recorded as a person's by her
// hooks, which verifies on its own.
func TestAdvPushedHooksOffReplay(t *testing.T) {
	t.Parallel()
	c := fieldCase{name: "pushed hooks-off commit", files: fieldScriptProject, wantCmd: "sh scripts/test.sh"}
	w := fieldWorld(t, c)
	w.advStart("Say what greet prints")
	w.advStartPhases()
	x := w.hooksOffCommit()
	w.exec(w.root, "", "git", "push", "-q", "--no-verify", "origin", x+":refs/heads/side")
	w.git("fetch", "-q", "origin")
	w.exec(w.root, "", "git", "cherry-pick", "origin/side")
	_, said := w.advEndPhases(advEnd{qa: func() { w.fieldQA(c) }})
	v := w.verifyInCI()
	if v.code == 0 {
		t.Errorf("route gets through CI: verify passed the cherry-pick of a hooks-off commit pushed to a branch of the agent's own\nlocal: %s\nCI verify:\n%s", said, v.text())
	}
	if !strings.Contains(v.text(), "no witness that hooks ran") {
		t.Errorf("CI verify failed, but not on the pushed original:\n%s", v.text())
	}
}

// hooksOffCommit commits the honest work with no hook (git commit-tree over
// a dummy parent, so a pick of it is no fast-forward) and returns the
// commit, on no branch.
func (w *world) hooksOffCommit() string {
	w.t.Helper()
	w.write("scripts/greet.sh", fieldGreetComment)
	w.git("add", "-A")
	tree := w.git("write-tree")
	w.git("reset", "-q", "--hard")
	dummy := w.git("commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "wip")
	return w.git("commit-tree", tree, "-p", dummy, "-m", "docs(scripts): say what greet prints")
}

// verifyInCI pushes the branch and the session records to origin and runs
// verify over the session's range in a fresh clone of origin, as CI would.
func (w *world) verifyInCI() result {
	w.t.Helper()
	branch := w.git("rev-parse", "--abbrev-ref", "HEAD")
	tip := w.git("rev-parse", "HEAD")
	w.exec(w.root, "", "git", "push", "-q", "--no-verify", "origin", branch, "refs/sessiongate/records:refs/sessiongate/records")
	ci := filepath.Join(filepath.Dir(w.root), "ci")
	w.gitIn(filepath.Dir(w.root), "clone", "-q", filepath.Join(filepath.Dir(w.root), "origin.git"), ci)
	w.gitIn(ci, "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/sessiongate/records:refs/sessiongate/records")
	w.gitIn(ci, "checkout", "-q", "--detach", tip)
	return w.exec(ci, "", binary, "verify", w.base+".."+tip)
}

// TestAdvRebasedForgedReplay: the forged replay of TestAdvForgedRemoteRefReplay,
// rebased after the session ended (hooks off, a new committer date: every
// commit gets a new id, the change stays). Whatever lets CI pass commits a
// platform rewrote (a patch id the session recorded, docs/security.md) must
// not let the recorded pick of a hooks-off commit vouch for its rebased
// copy: it got through a first build of that rule.
func TestAdvRebasedForgedReplay(t *testing.T) {
	t.Parallel()
	c := fieldCase{name: "forged replay, rebased", files: fieldScriptProject, wantCmd: "sh scripts/test.sh"}
	w := fieldWorld(t, c)
	w.advStart("Say what greet prints")
	w.advStartPhases()
	x := w.hooksOffCommit()
	w.git("update-ref", "refs/remotes/origin/side", x)
	w.exec(w.root, "", "git", "cherry-pick", "origin/side")
	w.advEndPhases(advEnd{qa: func() { w.fieldQA(c) }})
	before := w.git("rev-parse", "HEAD")
	if r := w.exec(w.root, "", "env", "GIT_COMMITTER_DATE=2001-01-01T00:00:00Z", "git", "-c", "core.hooksPath=/dev/null", "rebase", "-q", "--force-rebase", w.base); r.code != 0 {
		t.Fatalf("rebase: %s", r.text())
	}
	if w.git("rev-parse", "HEAD") == before {
		t.Fatal("the rebase kept the commit ids")
	}
	if v := w.verifyInCI(); v.code == 0 {
		t.Errorf("route gets through CI: a rebased copy of a recorded pick of a hooks-off commit passed verify\n%s", v.text())
	}
}
