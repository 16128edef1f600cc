package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestMergesWithOwnChanges: a merge whose tree holds work git's merge of
// its parents did not make is returned (lazy pass 42, C1 and C2); a clean
// merge, or one whose only difference is a conflict's resolution about
// the conflict's size, is not; the work written as a resolution is.
func TestMergesWithOwnChanges(t *testing.T) {
	gittest.Require(t)
	mergeNoCommit := func(t *testing.T, dir, branch string) {
		// Exit 1 on a conflict: the test resolves it.
		exec.Command("git", "-C", dir, "merge", "-q", "--no-ff", "--no-commit", branch).Run()
	}
	for _, tc := range []struct {
		name string
		make func(t *testing.T, dir string)
		want []string // the subjects returned
	}{
		{"lazy: the work staged into a --no-ff merge of an empty commit (C1)", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "-c", "side")
			gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "docs: plan")
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			mergeNoCommit(t, dir, "side")
			gittest.Write(t, dir, "greet.sh", "echo hello $1\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "wip")
		}, []string{"wip"}},
		{"lazy: the work staged into a merge of main under git's subject (C2)", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			mergeNoCommit(t, dir, "main")
			gittest.Write(t, dir, "greet.sh", "echo hello $1\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "--no-edit")
		}, []string{"Merge branch 'main' into feat/x"}},
		{"honest: main merged in, no conflict", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			gittest.Git(t, dir, "merge", "-q", "--no-edit", "main")
		}, nil},
		{"honest: main merged in, a conflict resolved with lines of both sides and a new one", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "docs: main's line", map[string]string{"README.md": "# x\nmain's line\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			mergeNoCommit(t, dir, "main")
			gittest.Write(t, dir, "README.md", "# x\nmain's line\nthe branch's line, reworded\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "--no-edit")
		}, nil},
		{"lazy: a conflict resolved, and work staged beside it in another file", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "docs: main's line", map[string]string{"README.md": "# x\nmain's line\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			mergeNoCommit(t, dir, "main")
			gittest.Write(t, dir, "README.md", "# x\nmain's line\n")
			gittest.Write(t, dir, "greet.sh", "echo hello $1\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "--no-edit")
		}, []string{"Merge branch 'main' into feat/x"}},
		{"lazy: the work written as a conflict's resolution (re-check 42, M1)", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "docs: main's line", map[string]string{"README.md": "# x\nmain's line\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			mergeNoCommit(t, dir, "main")
			gittest.Write(t, dir, "README.md", "# x\nmain's line\n\n## Usage\n\nsh greet.sh [name]\n\nGreets name, or the world.\nExits 2 on a bad name.\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "wip")
		}, []string{"wip"}},
		{"honest: a conflict resolved by keeping both sides' lines, reindented", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "docs: main's lines", map[string]string{"README.md": "# x\nmain 1\nmain 2\nmain 3\nmain 4\nmain 5\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			mergeNoCommit(t, dir, "main")
			gittest.Write(t, dir, "README.md", "# x\n  the branch's line\nmain 1\nmain 2\n  main 3\nmain 4\nmain 5\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "--no-edit")
		}, nil},
		{"honest: a three-line conflict joined into three lines of the merger's", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "docs: main's lines", map[string]string{"README.md": "# x\nmain a\nmain b\nmain c\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			gittest.Commit(t, dir, "docs: the branch's lines", map[string]string{"README.md": "# x\nbranch a\nbranch b\nbranch c\n"})
			mergeNoCommit(t, dir, "main")
			gittest.Write(t, dir, "README.md", "# x\nboth a\nboth b\nboth c\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "--no-edit")
		}, nil},
		{"lazy: an octopus merge with the work staged", func(t *testing.T, dir string) {
			for _, b := range []string{"s1", "s2"} {
				gittest.Git(t, dir, "switch", "-q", "-c", b, "feat/x")
				gittest.Commit(t, dir, "docs: "+b, map[string]string{b + ".md": b + "\n"})
			}
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			gittest.Git(t, dir, "merge", "-q", "--no-ff", "--no-commit", "s1", "s2")
			gittest.Git(t, dir, "commit", "-q", "-m", "Merge s1 and s2")
		}, []string{"Merge s1 and s2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.New(t, map[string]string{"README.md": "# x\n", "greet.sh": "echo hello\n"})
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
			gittest.Commit(t, dir, "docs: the branch's line", map[string]string{"README.md": "# x\nthe branch's line\n"})
			tc.make(t, dir)
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.MergesWithOwnChanges(context.Background(), start, nil)
			if err != nil {
				t.Fatal(err)
			}
			var subjects []string
			for _, c := range got {
				subjects = append(subjects, c.Subject)
				if c.EvilMerge == "" || !c.FirstParent {
					t.Errorf("%s: EvilMerge %q, FirstParent %v", c.Subject, c.EvilMerge, c.FirstParent)
				}
			}
			if !slices.Equal(subjects, tc.want) {
				t.Errorf("MergesWithOwnChanges = %q, want %q\n%s", subjects, tc.want, strings.TrimSpace(gittest.Git(t, dir, "log", "--oneline", "--graph", "-8")))
			}
		})
	}
}

// TestHoldsRemoteVersion: a person's edit of a file the session must not
// change, fetched from origin's main and merged or rebased in, is main's
// (lazy pass 42, HN27); the session's own edit is not, nor one vouched
// for only by a remote-tracking ref moved by hand, a FETCH_HEAD written
// by hand (re-check 42, R2) or a remote repointed after the start. Only
// the remote's answer vouches: offline, a pulled edit is not vouched for.
func TestHoldsRemoteVersion(t *testing.T) {
	gittest.Require(t)
	const path = "HANDOFF.md"
	person := func(t *testing.T, origin string) {
		other := filepath.Join(t.TempDir(), "person")
		gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
		gittest.Commit(t, other, "docs: queue a task", map[string]string{path: "# Handoff\n\n- the README task\n"})
		gittest.Git(t, other, "push", "-q", "origin", "main")
	}
	// forged makes the session's own edit of path as a dangling commit on
	// HEAD and returns it.
	forged := func(t *testing.T, dir string) string {
		gittest.Write(t, dir, path, "# Handoff\n\n- nothing\n")
		gittest.Git(t, dir, "add", "-A")
		c := gittest.Git(t, dir, "commit-tree", gittest.Git(t, dir, "write-tree"), "-p", "HEAD", "-m", "docs: queue")
		gittest.Git(t, dir, "reset", "-q", "--hard")
		return c
	}
	// fakeOrigin is a bare copy of origin whose main holds a forged edit
	// (lastForged).
	var lastForged string
	fakeOrigin := func(t *testing.T, dir, origin string) string {
		fake := filepath.Join(t.TempDir(), "fake.git")
		gittest.Git(t, filepath.Dir(fake), "clone", "-q", "--bare", origin, fake)
		lastForged = forged(t, dir)
		gittest.Git(t, dir, "push", "-q", fake, lastForged+":refs/heads/main")
		return fake
	}
	type row = struct {
		name   string
		before func(t *testing.T, dir, origin string) // before the start
		move   func(t *testing.T, dir, origin string)
		want   bool
	}
	pass45 := []row{
		{name: "lazy: origin/HEAD repointed at a branch the agent pushed its edit to (pass 45, RA1)", move: func(t *testing.T, dir, origin string) {
			gittest.Git(t, dir, "push", "-q", "origin", forged(t, dir)+":refs/heads/side")
			gittest.Git(t, dir, "fetch", "-q", "origin")
			gittest.Git(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/side")
			gittest.Git(t, dir, "checkout", "origin/side", "--", path)
		}},
		{name: "lazy: origin/main forged before the start (pass 45, RA3)", before: func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", forged(t, dir))
		}, move: func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "checkout", "origin/main", "--", path)
			gittest.Git(t, dir, "commit", "-qm", "docs: queue")
		}},
		{name: "lazy: origin's url a copy of the agent's before the start, insteadOf to the real one (pass 45, RA4)", before: func(t *testing.T, dir, origin string) {
			fake := fakeOrigin(t, dir, origin)
			gittest.Git(t, dir, "config", "remote.origin.url", fake)
			gittest.Git(t, dir, "config", "url."+origin+".insteadOf", fake)
		}, move: func(t *testing.T, dir, _ string) {
			// The edit is in the clone already: the dangling commit the
			// fake's main names.
			gittest.Git(t, dir, "checkout", lastForged, "--", path)
			gittest.Git(t, dir, "commit", "-qm", "docs: queue")
		}},
		{name: "lazy: origin's url a copy of the agent's before the start, pushurl the real one (pass 45, RA6)", before: func(t *testing.T, dir, origin string) {
			fake := fakeOrigin(t, dir, origin)
			gittest.Git(t, dir, "config", "remote.origin.url", fake)
			gittest.Git(t, dir, "config", "remote.origin.pushurl", origin)
			gittest.Git(t, dir, "fetch", "-q", "origin")
		}, move: func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "checkout", "origin/main", "--", path)
			gittest.Git(t, dir, "commit", "-qm", "docs: queue")
		}},
	}
	for _, tc := range append(pass45, []row{
		{"honest: a person's edit pulled with a merge", nil, func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
		}, true},
		{"honest: a person's edit, the branch rebased onto it", nil, func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "fetch", "-q", "origin")
			gittest.Git(t, dir, "rebase", "-q", "origin/main")
		}, true},
		{"lazy: the session's own edit", nil, func(t *testing.T, dir, _ string) {
			gittest.Commit(t, dir, "docs: queue nothing", map[string]string{path: "# Handoff\n\n- nothing\n"})
		}, false},
		{"lazy: a person's edit merged, then the session's own edit over it", nil, func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
			gittest.Commit(t, dir, "docs: queue more", map[string]string{path: "# Handoff\n\n- the README task\n- more\n"})
		}, false},
		{"lazy: a person's edit merged, the work tree changed after", nil, func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
			gittest.Write(t, dir, path, "# Handoff\n\n- mine\n")
		}, false},
		{"lazy: the session's edit on a side commit, origin/main moved to it by update-ref", nil, func(t *testing.T, dir, _ string) {
			gittest.Commit(t, dir, "docs: queue nothing", map[string]string{path: "# Handoff\n\n- nothing\n"})
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, false},
		{"lazy: the session's edit in a dangling commit named by a FETCH_HEAD written by hand, the tracking ref moved too", nil, func(t *testing.T, dir, origin string) {
			gittest.Write(t, dir, path, "# Handoff\n\n- nothing\n")
			gittest.Git(t, dir, "add", "-A")
			c := gittest.Git(t, dir, "commit-tree", gittest.Git(t, dir, "write-tree"), "-p", "HEAD", "-m", "docs: queue")
			gittest.Write(t, dir, ".git/FETCH_HEAD", c+"\t\tbranch 'main' of "+origin+"\n")
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", c)
			gittest.Git(t, dir, "commit", "-qm", "docs: queue")
		}, false},
		{"lazy: origin pointed at a clone of the agent's holding its edit on main, fetched", nil, func(t *testing.T, dir, origin string) {
			fake := filepath.Join(t.TempDir(), "fake.git")
			gittest.Git(t, filepath.Dir(fake), "clone", "-q", "--bare", origin, fake)
			gittest.Commit(t, dir, "docs: queue nothing", map[string]string{path: "# Handoff\n\n- nothing\n"})
			gittest.Git(t, dir, "push", "-q", fake, "HEAD:main")
			gittest.Git(t, dir, "remote", "set-url", "origin", fake)
			gittest.Git(t, dir, "fetch", "-q", "origin")
		}, false},
		{"honest: a fork, a person's edit pulled from upstream (honest pass 47, R13)", func(t *testing.T, dir, origin string) {
			fork := filepath.Join(t.TempDir(), "fork.git")
			gittest.Git(t, filepath.Dir(fork), "clone", "-q", "--bare", origin, fork)
			gittest.Git(t, dir, "remote", "set-url", "origin", fork)
			gittest.Git(t, dir, "remote", "add", "upstream", origin)
			gittest.Git(t, dir, "fetch", "-q", "upstream")
		}, func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "upstream", "main")
		}, true},
		{"lazy: a remote added after the start, a copy of the agent's holding its edit", nil, func(t *testing.T, dir, origin string) {
			fake := fakeOrigin(t, dir, origin)
			gittest.Git(t, dir, "remote", "add", "upstream", fake)
			gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "upstream", "main")
		}, false},
		{"honest but not vouched: a person's edit pulled, the remote gone since (offline)", nil, func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
			if err := os.Rename(origin, origin+".away"); err != nil {
				t.Fatal(err)
			}
		}, false},
	}...) {
		t.Run(tc.name, func(t *testing.T) {
			src := gittest.New(t, map[string]string{"README.md": "# x\n", path: "# Handoff\n"})
			origin := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
			dir := filepath.Join(t.TempDir(), "clone")
			gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
			if tc.before != nil {
				tc.before(t, dir, origin)
			}
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			atStart, err := r.RemoteTips(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
			gittest.Commit(t, dir, "feat: a", map[string]string{"a.txt": "a\n"})
			tc.move(t, dir, origin)
			if r, err = Open(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			got, err := r.HoldsRemoteVersion(context.Background(), path, start, atStart)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("HoldsRemoteVersion = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestLayoutOnly: a commit that changes only whitespace and blank lines is
// layout; a change of a word, a mode or a root commit is not.
func TestLayoutOnly(t *testing.T) {
	gittest.Require(t)
	dir := gittest.New(t, map[string]string{"greet.sh": "echo  hello\n\n\n"})
	root := gittest.Git(t, dir, "rev-parse", "HEAD")
	layout := gittest.Commit(t, dir, "style: code cleanup", map[string]string{"greet.sh": "echo hello\n"})
	word := gittest.Commit(t, dir, "style: code cleanup", map[string]string{"greet.sh": "echo hello $1\n"})
	gittest.Git(t, dir, "update-index", "--chmod=+x", "greet.sh")
	gittest.Git(t, dir, "commit", "-q", "-m", "style: mode")
	mode := gittest.Git(t, dir, "rev-parse", "HEAD")
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for sha, want := range map[string]bool{root: false, layout: true, word: false, mode: false, "HEAD": false} {
		if got, err := r.LayoutOnly(context.Background(), sha); err != nil || got != want {
			t.Errorf("LayoutOnly(%s) = %v, %v; want %v", sha, got, err, want)
		}
	}
}

// TestMergesWithOwnChangesSides (pass 45): a conflict between two of the
// session's own branches buys no lines (M1: a three-line side manufactured
// on a branch of its own bought the feature's two lines); one with another's
// work (main merged in) allows the conflict's size and a little more (HM1:
// a helper variable and a comment joining a person's change).
func TestMergesWithOwnChangesSides(t *testing.T) {
	gittest.Require(t)
	const id = "0b9c2c5e-8e0a-4a35-9a0f-1d2e3f4a5b6c"
	commit := func(t *testing.T, dir, subject, body string, own bool) {
		gittest.Write(t, dir, "greet.sh", body)
		gittest.Git(t, dir, "add", "-A")
		args := []string{"commit", "-q", "-m", subject}
		if own {
			args = append(args, "--trailer", session.TrailerKey+": "+id)
		}
		gittest.Git(t, dir, args...)
	}
	feature := "# greet, to $1 when given\necho \"hello${1:+ $1}\"\n"
	for _, tc := range []struct {
		name                 string
		theirs, ours, merged string
		theirsOwn            bool
		want                 []string
	}{
		{"lazy: the feature resolved into a conflict with a 3-line side of the session's (M1)",
			"# greet prints\n# a greeting\n# in POSIX sh\necho hello\n", "# greet prints a greeting on stdout\necho hello\n", feature, true, []string{"wip"}},
		{"honest: a person's change on main joined with a helper variable and a comment (HM1)",
			"# greet\necho \"${GREETING:-hello}\"\n", "# greet\necho \"hello${1:+ $1}\"\n",
			"# greet, to $1 when given, with GREETING's word\ngreeting=${GREETING:-hello}\necho \"$greeting${1:+ $1}\"\n", false, nil},
		{"lazy: two lines of the feature in a one-line conflict with a person's change, committed wip (pass 46, M1)",
			"# greet prints a greeting, POSIX\necho hello\n", "# greet prints a greeting on stdout\necho hello\n", feature, false, []string{"wip"}},
		{"lazy: the feature resolved into a one-line conflict with a person's change",
			"# greet prints a greeting, POSIX\necho hello\n", "# greet prints a greeting on stdout\necho hello\n",
			feature + "name=${1:-}\n[ -n \"$name\" ] || name=world\nprintf '%s\\n' \"$name\"\nexit 0\n", false, []string{"wip"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.New(t, map[string]string{"greet.sh": "# greet prints a greeting\necho hello\n"})
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "side")
			commit(t, dir, "docs: theirs", tc.theirs, tc.theirsOwn)
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x", start)
			commit(t, dir, "docs: ours", tc.ours, true)
			exec.Command("git", "-C", dir, "merge", "-q", "--no-ff", "--no-commit", "side").Run()
			gittest.Write(t, dir, "greet.sh", tc.merged)
			gittest.Git(t, dir, "add", "-A")
			if tc.want == nil {
				gittest.Git(t, dir, "commit", "-q", "--no-edit") // git's own subject
			} else {
				gittest.Git(t, dir, "commit", "-q", "-m", "wip")
			}
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.MergesWithOwnChanges(context.Background(), start, map[string]string{session.StartSessionKey: id})
			if err != nil {
				t.Fatal(err)
			}
			var subjects []string
			for _, c := range got {
				subjects = append(subjects, c.Subject)
				t.Logf("%s: %s", c.Subject, c.EvilMerge)
			}
			if !slices.Equal(subjects, tc.want) {
				t.Errorf("MergesWithOwnChanges = %q, want %q", subjects, tc.want)
			}
		})
	}
}

// TestRemoteTipsURLRelative: the start records a local remote's path
// relative to the work tree (no machine-local path in the record), and
// it resolves back to the remote.
func TestRemoteTipsURLRelative(t *testing.T) {
	gittest.Require(t)
	src := gittest.New(t, map[string]string{"README.md": "# x\n"})
	origin := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	tips, err := r.RemoteTips(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	u := tips["remote.origin.url"]
	if u == "" || filepath.IsAbs(u) {
		t.Fatalf("remote.origin.url recorded as %q: want a path relative to the work tree", u)
	}
	if got := r.askedRemoteTip(context.Background(), u); got != gittest.Git(t, dir, "rev-parse", "origin/main") {
		t.Fatalf("askedRemoteTip(%q) = %q: want origin's main", u, got)
	}
}

// TestRemoteHolds (honest pass 47's R12): a person's commit pulled by URL
// (no remote-tracking ref moved) is held by the remote the start recorded,
// as it answers now; the session's own commit is not, nor is anything
// when the record names no remote URL.
func TestRemoteHolds(t *testing.T) {
	gittest.Require(t)
	src := gittest.New(t, map[string]string{"README.md": "# x\n"})
	origin := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	atStart, err := r.RemoteTips(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
	own := gittest.Commit(t, dir, "feat: a", map[string]string{"a.txt": "a\n"})
	other := filepath.Join(t.TempDir(), "person")
	gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
	persons := gittest.Commit(t, other, "docs: queue a task", map[string]string{"HANDOFF.md": "- x\n"})
	gittest.Git(t, other, "push", "-q", "origin", "main")
	gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", origin, "main")
	if r, err = Open(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	noURL := map[string]string{}
	for k, v := range atStart {
		if !strings.HasPrefix(k, "remote.") {
			noURL[k] = v
		}
	}
	for _, c := range []struct {
		name    string
		sha     string
		remotes map[string]string
		want    bool
	}{
		{"a person's commit pulled by URL", persons, atStart, true},
		{"the session's own commit", own, atStart, false},
		{"a record without remote URLs", persons, noURL, false},
		{"no record", persons, nil, false},
	} {
		if got := r.RemoteHolds(context.Background(), []string{c.sha}, c.remotes)[c.sha]; got != c.want {
			t.Errorf("%s: RemoteHolds = %v, want %v", c.name, got, c.want)
		}
	}
	// Asked together (one question to the remotes), each is answered.
	if got := r.RemoteHolds(context.Background(), []string{own, persons}, atStart); !got[persons] || got[own] || len(got) != 1 {
		t.Errorf("RemoteHolds of both = %v, want only the person's commit", got)
	}
}
