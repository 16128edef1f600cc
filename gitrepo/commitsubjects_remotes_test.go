package gitrepo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestCommitSubjectsRemotesAtStart: the commits no_hook_bypass and
// commit_message judge are counted from what the start recorded of the
// remote-tracking refs (round 30, c9). A remote-tracking ref is local:
// after a hooks-off commit, `git update-ref refs/remotes/x/main HEAD` (or
// origin/main) made the commit a remote's and it left the listing. Honest
// twins: a fork's upstream added and fetched mid-session with the branch
// rebased onto it (TestCommitSubjectsFork), a person's commit fetched for
// real from origin and rebased onto; their commits arrive by a real fetch
// (FETCH_HEAD) and stay out.
func TestCommitSubjectsRemotesAtStart(t *testing.T) {
	person := func(t *testing.T, remote string) {
		other := filepath.Join(t.TempDir(), "person")
		gittest.Git(t, filepath.Dir(other), "clone", "-q", remote, other)
		gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
		gittest.Git(t, other, "push", "-q", "origin", "main")
	}
	own := []string{"feat: a", "wip"}
	for _, tc := range []struct {
		name string
		move func(t *testing.T, dir, origin string)
		want []string
	}{
		{"lazy: a new remote-tracking ref x/main moved to the work by update-ref", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "update-ref", "refs/remotes/x/main", "HEAD")
		}, own},
		{"lazy: origin/main moved to the work by update-ref", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, own},
		{"lazy: an honest fetch of a person's commit and a rebase, then origin/main moved to the work", func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "fetch", "-q", "origin")
			gittest.Git(t, dir, "rebase", "-q", "origin/main")
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
		}, own},
		{"lazy: the branch pushed and fetched (FETCH_HEAD names feat/x), then upstream/main moved to it", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "push", "-q", "origin", "feat/x")
			gittest.Git(t, dir, "fetch", "-q", "origin")
			gittest.Git(t, dir, "update-ref", "refs/remotes/upstream/main", "HEAD")
		}, own},
		{"honest: a fork's upstream added mid-session, its main fetched, the branch rebased onto it", func(t *testing.T, dir, origin string) {
			up := filepath.Join(t.TempDir(), "upstream.git")
			gittest.Git(t, filepath.Dir(up), "clone", "-q", "--bare", origin, up)
			person(t, up)
			gittest.Git(t, dir, "remote", "add", "upstream", up)
			gittest.Git(t, dir, "fetch", "-q", "upstream", "main:main")
			gittest.Git(t, dir, "rebase", "-q", "main")
		}, own},
		{"honest: a person's commit fetched from origin, the branch rebased onto origin/main", func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "fetch", "-q", "origin")
			gittest.Git(t, dir, "rebase", "-q", "origin/main")
		}, own},
		{"honest: git pull --rebase of origin's main onto the branch", func(t *testing.T, dir, origin string) {
			person(t, origin)
			gittest.Git(t, dir, "pull", "-q", "--rebase", "origin", "main")
		}, own},
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
			// The hooks-off commit: no hook ran, only the listing sees it.
			gittest.Write(t, dir, "b.txt", "b\n")
			gittest.Git(t, dir, "add", "b.txt")
			gittest.Git(t, dir, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--no-verify", "-m", "wip")
			tc.move(t, dir, origin)
			if r, err = Open(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			got, err := r.CommitSubjectsAtStart(context.Background(), start, atStart)
			if err != nil {
				t.Fatal(err)
			}
			var subjects []string
			for _, c := range got {
				subjects = append(subjects, c.Subject)
			}
			if !slices.Equal(subjects, tc.want) {
				t.Errorf("CommitSubjectsAtStart = %q, want %q", subjects, tc.want)
			}
		})
	}
}

// TestCommitSubjectsFetchedOwn: FETCH_HEAD's tips count as the remote's
// only when they reach none of the session's own commits (round 43, R5):
// a FETCH_HEAD written by hand naming HEAD took the session's `wip` out of
// the listing. A person's commit fetched by URL (no remote-tracking ref)
// and rebased onto still stays out.
func TestCommitSubjectsFetchedOwn(t *testing.T) {
	const id = "0b9c2c5e-8e0a-4a35-9a0f-1d2e3f4a5b6c"
	for _, tc := range []struct {
		name string
		move func(t *testing.T, dir, origin string)
		want []string
	}{
		{"lazy: FETCH_HEAD written by hand naming HEAD", func(t *testing.T, dir, origin string) {
			gittest.Write(t, dir, ".git/FETCH_HEAD", gittest.Git(t, dir, "rev-parse", "HEAD")+"\t\tbranch 'main' of "+origin+"\n")
		}, []string{"feat: a", "wip"}},
		{"lazy: FETCH_HEAD naming HEAD beside a real tip of main", func(t *testing.T, dir, origin string) {
			main := gittest.Git(t, dir, "rev-parse", "origin/main")
			gittest.Write(t, dir, ".git/FETCH_HEAD", main+"\t\tbranch 'main' of "+origin+"\n"+gittest.Git(t, dir, "rev-parse", "HEAD")+"\t\tbranch 'main' of "+origin+"\n")
		}, []string{"feat: a", "wip"}},
		{"lazy: FETCH_HEAD naming 5001 empty commits stacked on HEAD (pass 46, FH1)", func(t *testing.T, dir, origin string) {
			var in strings.Builder
			head := gittest.Git(t, dir, "rev-parse", "HEAD")
			for i := 0; i < 5001; i++ {
				fmt.Fprintf(&in, "commit refs/pad\ncommitter p <p@x> %d +0000\ndata 2\np\n", 4102444800+i)
				if i == 0 {
					fmt.Fprintf(&in, "from %s\n", head)
				}
				in.WriteString("\n")
			}
			cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet")
			cmd.Stdin = strings.NewReader(in.String())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("fast-import: %v\n%s", err, out)
			}
			tip := gittest.Git(t, dir, "rev-parse", "refs/pad")
			gittest.Git(t, dir, "update-ref", "-d", "refs/pad")
			gittest.Write(t, dir, ".git/FETCH_HEAD", tip+"\t\tbranch 'main' of "+origin+"\n")
		}, []string{"feat: a", "wip"}},
		{"honest: a person's commit fetched by URL and rebased onto", func(t *testing.T, dir, origin string) {
			other := filepath.Join(t.TempDir(), "person")
			gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
			gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, other, "push", "-q", "origin", "main")
			gittest.Git(t, dir, "fetch", "-q", origin, "main")
			gittest.Git(t, dir, "rebase", "-q", "FETCH_HEAD")
		}, []string{"feat: a", "wip"}},
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
			if err != nil {
				t.Fatal(err)
			}
			atStart[session.StartSessionKey] = id
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
			for _, subject := range []string{"feat: a", "wip"} {
				gittest.Write(t, dir, subject[:1]+".txt", subject+"\n")
				gittest.Git(t, dir, "add", "-A")
				gittest.Git(t, dir, "commit", "-q", "-m", subject, "--trailer", session.TrailerKey+": "+id)
			}
			tc.move(t, dir, origin)
			if r, err = Open(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			got, err := r.CommitSubjectsAtStart(context.Background(), start, atStart)
			if err != nil {
				t.Fatal(err)
			}
			var subjects []string
			for _, c := range got {
				subjects = append(subjects, c.Subject)
			}
			if !slices.Equal(subjects, tc.want) {
				t.Errorf("CommitSubjectsAtStart = %q, want %q", subjects, tc.want)
			}
		})
	}
}

// TestFetchedForeignSkipsHeld: a FETCH_HEAD tip the start already recorded
// as the remote's (a clone that fetched before the session) is not judged
// again: judging it cost two git processes on every commit listing of the
// hook path. A tip fetched after the start still is, and its commits stay
// out of the listing either way.
func TestFetchedForeignSkipsHeld(t *testing.T) {
	gittest.Require(t)
	const id = "0b9c2c5e-8e0a-4a35-9a0f-1d2e3f4a5b6c"
	src := gittest.New(t, map[string]string{"README.md": "# x\n"})
	origin := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
	gittest.Git(t, dir, "fetch", "-q", "origin") // FETCH_HEAD names origin's main
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	atStart, err := r.RemoteTips(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	atStart[session.StartSessionKey] = id
	start := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
	gittest.Write(t, dir, "a.txt", "a\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "feat: a", "--trailer", session.TrailerKey+": "+id)

	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	judged := func() int {
		b, _ := os.ReadFile(trace)
		return strings.Count(string(b), "merge-base --all")
	}
	list := func() []string {
		t.Helper()
		got, err := r.CommitSubjectsAtStart(context.Background(), start, atStart)
		if err != nil {
			t.Fatal(err)
		}
		var subjects []string
		for _, c := range got {
			subjects = append(subjects, c.Subject)
		}
		return subjects
	}
	if got := list(); !slices.Equal(got, []string{"feat: a"}) {
		t.Errorf("fetched before the start: %q, want [feat: a]", got)
	}
	if n := judged(); n != 0 {
		t.Errorf("fetched before the start: the recorded tip was judged again (%d merge-base --all)", n)
	}

	// A person's commit on main, fetched and merged in after the start.
	other := filepath.Join(t.TempDir(), "person")
	gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
	gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
	gittest.Git(t, other, "push", "-q", "origin", "main")
	gittest.Git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
	if got := list(); !slices.Equal(got, []string{"feat: a"}) {
		t.Errorf("fetched after the start: %q, want [feat: a]", got)
	}
	if n := judged(); n == 0 {
		t.Errorf("fetched after the start: the new tip was not judged")
	}
}
