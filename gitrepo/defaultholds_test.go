package gitrepo

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestDefaultHolds: the session's commits the local default branch holds
// (lazy pass 29: `git branch -f main HEAD` after the work, or the work
// committed on main and the feature branch reset onto it), and none for a
// person's fast-forward of main to the remote's.
func TestDefaultHolds(t *testing.T) {
	for _, tc := range []struct {
		name string
		// move runs after the session's two commits on feat/x (start: the
		// commit the session started from; dir: the clone).
		move func(t *testing.T, dir, origin string)
		want int
	}{
		{"main untouched", func(*testing.T, string, string) {}, 0},
		{"git branch -f main HEAD", func(t *testing.T, dir, _ string) { gittest.Git(t, dir, "branch", "-f", "main", "HEAD") }, 2},
		{"git update-ref to the first commit", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "update-ref", "refs/heads/main", "HEAD~1")
		}, 1},
		{"main fast-forwarded to origin's main (a person's commit)", func(t *testing.T, dir, origin string) {
			other := filepath.Join(t.TempDir(), "person")
			gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
			gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, other, "push", "-q", "origin", "main")
			gittest.Git(t, dir, "fetch", "-q", "origin", "main:main")
		}, 0},
		{"the work pushed to origin's main and fetched", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "push", "-q", "origin", "HEAD:main")
			gittest.Git(t, dir, "fetch", "-q", "origin", "main:main")
		}, 0}, // the remote's: its branch protection's and records_push's to judge
		{"a teammate's commit on local main merged into the branch (git merge main)", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "docs: describe", map[string]string{"README.md": "# x\n\nmore\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			gittest.Git(t, dir, "merge", "-q", "--no-edit", "main")
		}, 0},
		{"work committed on main, the branch reset onto it", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "feat: c", map[string]string{"c.txt": "c\n"})
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			gittest.Git(t, dir, "reset", "-q", "--hard", "main")
		}, 1},
		{"no local main", func(t *testing.T, dir, _ string) { gittest.Git(t, dir, "branch", "-D", "main") }, 0},
		{"the branch pushed to origin, then git branch -f main HEAD", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "push", "-q", "origin", "feat/x")
			gittest.Git(t, dir, "branch", "-f", "main", "HEAD")
		}, 2}, // only a remote's branch of the default's name holds the remote's
		// Review 29 (c10): honest rebases onto an updated main.
		{"main fast-forwarded to origin's main, the branch rebased onto it", func(t *testing.T, dir, origin string) {
			other := filepath.Join(t.TempDir(), "person")
			gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
			gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, other, "push", "-q", "origin", "main")
			gittest.Git(t, dir, "fetch", "-q", "origin", "main:main")
			gittest.Git(t, dir, "rebase", "-q", "main")
		}, 0},
		{"a fork: main pulled from upstream (origin/main behind), the branch rebased onto it", func(t *testing.T, dir, origin string) {
			up := filepath.Join(t.TempDir(), "upstream.git")
			gittest.Git(t, filepath.Dir(up), "clone", "-q", "--bare", origin, up)
			other := filepath.Join(t.TempDir(), "maintainer")
			gittest.Git(t, filepath.Dir(other), "clone", "-q", up, other)
			gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, other, "push", "-q", "origin", "main")
			gittest.Git(t, dir, "remote", "add", "upstream", up)
			gittest.Git(t, dir, "fetch", "-q", "upstream")
			gittest.Git(t, dir, "fetch", "-q", "upstream", "main:main")
			gittest.Git(t, dir, "rebase", "-q", "main")
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := gittest.New(t, map[string]string{"README.md": "# x\n"})
			origin := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
			dir := filepath.Join(t.TempDir(), "clone")
			gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
			gittest.Commit(t, dir, "feat: a", map[string]string{"a.txt": "a\n"})
			gittest.Commit(t, dir, "feat: b", map[string]string{"b.txt": "b\n"})
			tc.move(t, dir, origin)
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.DefaultHolds(context.Background(), "main", start, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Errorf("DefaultHolds = %d commits %v, want %d", len(got), got, tc.want)
			}
		})
	}
}

// TestDefaultHoldsNotIn: a person's unpushed commit on local main before
// the session, the branch rebased onto it, is held by a tip the start
// recorded (round 29's merged CI: TestRebaseOntoLocalMainAtStart26); the
// session's own commits moved onto main are no tip's.
func TestDefaultHoldsNotIn(t *testing.T) {
	for _, tc := range []struct {
		name       string
		landOnMain bool
		notIn      bool
		want       int
	}{
		{"person's commit on main, rebased onto, start tips given", false, true, 0},
		{"person's commit on main, rebased onto, no start tips", false, false, 1},
		{"lazy: then git branch -f main HEAD, start tips given", true, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := gittest.New(t, map[string]string{"README.md": "# x\n"})
			origin := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
			dir := filepath.Join(t.TempDir(), "clone")
			gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
			gittest.Git(t, dir, "branch", "feat/x")
			gittest.Commit(t, dir, "docs: person", map[string]string{"README.md": "# x\n\nmore\n"})
			tips := []string{gittest.Git(t, dir, "rev-parse", "main")} // the start's record of main
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Commit(t, dir, "feat: a", map[string]string{"a.txt": "a\n"})
			gittest.Git(t, dir, "rebase", "-q", "main")
			if tc.landOnMain {
				gittest.Git(t, dir, "branch", "-f", "main", "HEAD")
			}
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			var notIn []string
			if tc.notIn {
				notIn = tips
			}
			got, err := r.DefaultHolds(context.Background(), "main", start, notIn, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Errorf("DefaultHolds = %d commits %v, want %d", len(got), got, tc.want)
			}
		})
	}
}

// TestDefaultHoldsRemotesAtStart (round 30, lazy pass 29's open row): the
// agent moves the remote-tracking origin/main along with local main
// (`git update-ref refs/remotes/origin/main HEAD`), a local ref, so the
// work read as the remote's. With the start's record of the
// remote-tracking tips, origin/main holds what it held then and what a
// real fetch of main brought since (FETCH_HEAD). Honest twins: a real
// `git fetch` of a person's commit from the bare remote, the session's
// pull request fast-forwarded on the host and pulled, a fork's upstream
// added and fetched mid-session.
func TestDefaultHoldsRemotesAtStart(t *testing.T) {
	person := func(t *testing.T, remote string) {
		other := filepath.Join(t.TempDir(), "person")
		gittest.Git(t, filepath.Dir(other), "clone", "-q", remote, other)
		gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
		gittest.Git(t, other, "push", "-q", "origin", "main")
	}
	for _, tc := range []struct {
		name string
		move func(t *testing.T, dir, origin string)
		want int
	}{
		{"lazy: main and origin/main both moved to the work by update-ref", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "branch", "-f", "main", "HEAD")
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, 2},
		{"lazy: the same after an honest fetch of a person's commit (FETCH_HEAD older than the move)", func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "fetch", "-q", "origin")
			gittest.Git(t, dir, "rebase", "-q", "origin/main")
			gittest.Git(t, dir, "branch", "-f", "main", "HEAD")
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, 2},
		{"lazy: the branch pushed and fetched (FETCH_HEAD names feat/x), then both moved", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "push", "-q", "origin", "feat/x")
			gittest.Git(t, dir, "fetch", "-q", "origin")
			gittest.Git(t, dir, "branch", "-f", "main", "HEAD")
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, 2},
		{"honest: a person's commit fetched for real, main fast-forwarded, the branch rebased onto it", func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "fetch", "-q", "origin", "main:main")
			gittest.Git(t, dir, "rebase", "-q", "main")
		}, 0},
		{"honest: git pull on main after a person's commit, the branch rebased onto it", func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Git(t, dir, "pull", "-q", "--ff-only")
			gittest.Git(t, dir, "switch", "-q", "feat/x")
			gittest.Git(t, dir, "rebase", "-q", "main")
		}, 0},
		{"honest: the pull request fast-forwarded on the host, main fetched", func(t *testing.T, dir, origin string) {
			gittest.Git(t, dir, "push", "-q", "origin", "feat/x")
			gittest.Git(t, origin, "update-ref", "refs/heads/main", "refs/heads/feat/x")
			gittest.Git(t, dir, "fetch", "-q", "origin", "main:main")
		}, 0},
		{"honest: a fork's upstream added mid-session, its main fetched, the branch rebased onto it", func(t *testing.T, dir, origin string) {
			up := filepath.Join(t.TempDir(), "upstream.git")
			gittest.Git(t, filepath.Dir(up), "clone", "-q", "--bare", origin, up)
			person(t, up)
			gittest.Git(t, dir, "remote", "add", "upstream", up)
			gittest.Git(t, dir, "fetch", "-q", "upstream", "main:main")
			gittest.Git(t, dir, "rebase", "-q", "main")
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
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
			if err != nil || atStart["refs/remotes/origin/main"] == "" {
				t.Fatalf("RemoteTips = %v, %v: want origin/main", atStart, err)
			}
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
			gittest.Commit(t, dir, "feat: a", map[string]string{"a.txt": "a\n"})
			gittest.Commit(t, dir, "feat: b", map[string]string{"b.txt": "b\n"})
			tc.move(t, dir, origin)
			if r, err = Open(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			got, err := r.DefaultHolds(context.Background(), "main", start, nil, atStart)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Errorf("DefaultHolds = %d commits %v, want %d", len(got), got, tc.want)
			}
		})
	}
}

// TestCommitSubjectsFork: the commits a session's commit checks judge
// (no_hook_bypass, commit_messages) leave out what any remote's branch of
// the default's name holds: a fork's main pulled from upstream while
// origin/main lags, the branch rebased onto it, listed upstream's commit
// as the session's (review 29 c10's open row, TestAdvReview29ForkRebase).
// The session's own commits, pushed to a feature branch of origin, stay.
func TestCommitSubjectsFork(t *testing.T) {
	for _, tc := range []struct {
		name string
		move func(t *testing.T, dir, origin string)
		want []string
	}{
		{"honest: a fork: main pulled from upstream (origin/main behind), the branch rebased onto it", func(t *testing.T, dir, origin string) {
			up := filepath.Join(t.TempDir(), "upstream.git")
			gittest.Git(t, filepath.Dir(up), "clone", "-q", "--bare", origin, up)
			other := filepath.Join(t.TempDir(), "maintainer")
			gittest.Git(t, filepath.Dir(other), "clone", "-q", up, other)
			gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, other, "push", "-q", "origin", "main")
			gittest.Git(t, dir, "remote", "add", "upstream", up)
			gittest.Git(t, dir, "fetch", "-q", "upstream", "main:main")
			gittest.Git(t, dir, "rebase", "-q", "main")
		}, []string{"feat: a", "feat: b"}},
		{"lazy twin: the branch pushed to origin's feat/x", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "push", "-q", "origin", "feat/x")
		}, []string{"feat: a", "feat: b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := gittest.New(t, map[string]string{"README.md": "# x\n"})
			origin := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
			dir := filepath.Join(t.TempDir(), "clone")
			gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
			gittest.Commit(t, dir, "feat: a", map[string]string{"a.txt": "a\n"})
			gittest.Commit(t, dir, "feat: b", map[string]string{"b.txt": "b\n"})
			tc.move(t, dir, origin)
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.CommitSubjects(context.Background(), start)
			if err != nil {
				t.Fatal(err)
			}
			var subjects []string
			for _, c := range got {
				subjects = append(subjects, c.Subject)
			}
			if !slices.Equal(subjects, tc.want) {
				t.Errorf("CommitSubjects = %q, want %q", subjects, tc.want)
			}
		})
	}
}
