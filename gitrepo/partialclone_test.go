package gitrepo_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestPartialCloneReads: in a partial clone (actions/checkout `filter:
// blob:none` or `tree:0`, `git clone --filter`, with or without --depth 1)
// whose origin no longer answers (persist-credentials: false, a private
// repository, no network), a file whose content git cannot fetch is an
// error, never "absent". `git cat-file -e` exits 128 for both, and
// ExistsAt read every exit as absent: verify's rerun guard then left a
// test script the range weakened out of what it diffs (a pass unchecked).
// ExistsAt now reads the trees alone (a blob:none clone answers offline)
// and a tree it cannot fetch (tree:0) is an error.
// Honest twins: with origin reachable the same reads answer, and a path
// that is not in the tree is still absent.
func TestPartialCloneReads(t *testing.T) {
	t.Parallel()
	src := gittest.New(t, map[string]string{"test.sh": "go test ./...\n", "sub/a.txt": "a\n"})
	gittest.Commit(t, src, "two", map[string]string{"test.sh": "exit 0\n", "b.txt": "b\n"})
	origin := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, src, "clone", "-q", "--bare", "--no-local", src, origin)
	gittest.Git(t, origin, "config", "uploadpack.allowFilter", "true")
	gittest.Git(t, origin, "config", "uploadpack.allowAnySHA1InWant", "true")
	url := "file://" + origin
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"blob:none", []string{"--filter=blob:none"}},
		{"tree:0", []string{"--filter=tree:0"}},
		{"blob:none, depth 1", []string{"--filter=blob:none", "--depth=2"}},
		{"tree:0, depth 1", []string{"--filter=tree:0", "--depth=2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			clone := func(t *testing.T, online bool) *gitrepo.Repo {
				dir := filepath.Join(t.TempDir(), "c")
				gittest.Git(t, filepath.Dir(dir), append([]string{"clone", "-q", "--no-checkout"}, append(c.flags, url, dir)...)...)
				if !online {
					gittest.Git(t, dir, "remote", "set-url", "origin", "file://"+filepath.Join(t.TempDir(), "gone.git"))
				}
				repo, err := gitrepo.Open(ctx, dir)
				if err != nil {
					t.Fatal(err)
				}
				return repo
			}
			t.Run("offline: an error, never absent", func(t *testing.T) {
				repo := clone(t, false)
				// blob:none holds the trees: the path is there, no blob
				// needed; tree:0 cannot tell: an error. Never "absent".
				if ok, err := repo.ExistsAt(ctx, "HEAD~1", "test.sh"); err == nil && !ok {
					t.Errorf("ExistsAt(HEAD~1, test.sh) = false, nil: a file whose objects could not be fetched read as absent")
				}
				if _, err := repo.ReadAt(ctx, "HEAD~1", "test.sh"); err == nil || errors.Is(err, gitrepo.ErrNoFile) {
					t.Errorf("ReadAt(HEAD~1, test.sh) = %v, want an error that is not ErrNoFile", err)
				}
			})
			t.Run("online: honest reads answer", func(t *testing.T) {
				repo := clone(t, true)
				if ok, err := repo.ExistsAt(ctx, "HEAD~1", "test.sh"); err != nil || !ok {
					t.Errorf("ExistsAt(HEAD~1, test.sh) = %v, %v; want true", ok, err)
				}
				if ok, err := repo.ExistsAt(ctx, "HEAD~1", "b.txt"); err != nil || ok {
					t.Errorf("ExistsAt(HEAD~1, b.txt) = %v, %v; want false (not in that tree)", ok, err)
				}
				for _, p := range []string{"../x", "test.sh/x", "gone/", "/x", "d/../test.sh"} {
					if ok, err := repo.ExistsAt(ctx, "HEAD", p); err != nil || ok {
						t.Errorf("ExistsAt(HEAD, %s) = %v, %v; want false", p, ok, err)
					}
				}
				if ok, err := repo.ExistsAt(ctx, "no-such-ref", "test.sh"); err != nil || ok {
					t.Errorf("ExistsAt(no-such-ref, test.sh) = %v, %v; want false, as before", ok, err)
				}
				if ok, err := repo.ExistsAt(ctx, "HEAD", "sub"); err != nil || !ok {
					t.Errorf("ExistsAt(HEAD, sub) = %v, %v; want true (a folder)", ok, err)
				}
				if b, err := repo.ReadAt(ctx, "HEAD~1", "test.sh"); err != nil || string(b) != "go test ./...\n" {
					t.Errorf("ReadAt(HEAD~1, test.sh) = %q, %v", b, err)
				}
			})
		})
	}
}

// TestExistsAtSubmodulePath: a submodule's path is in the tree (a gitlink
// to a commit of another repository, which this one does not hold). Read
// through the trees it is present; `git cat-file -e` looked for the commit
// object and made it absent.
func TestExistsAtSubmodulePath(t *testing.T) {
	t.Parallel()
	dir := gittest.New(t, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, dir, "update-index", "--add", "--cacheinfo", "160000,1234567890123456789012345678901234567890,sub")
	gittest.Git(t, dir, "commit", "-qm", "a submodule")
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := repo.ExistsAt(ctx, "HEAD", "sub"); err != nil || !ok {
		t.Errorf("ExistsAt(HEAD, sub) = %v, %v; want true", ok, err)
	}
	if ok, err := repo.ExistsAt(ctx, "HEAD", "sub/x"); err != nil || ok {
		t.Errorf("ExistsAt(HEAD, sub/x) = %v, %v; want false", ok, err)
	}
}

// TestExistsAtRangeLikePaths: a word of a test command is looked up as a
// path at the base (verify's rerun guard). `git rev-parse REV:...` read
// "..." (from `go test ./...`) as a range and failed, which made verify
// exit 2 on every honest Go project; "a..b", "x^!" and "x^@" are paths
// too. Each is answered: absent when not in the tree, present when it is.
func TestExistsAtRangeLikePaths(t *testing.T) {
	t.Parallel()
	odd := []string{"...", "a..b", "x^!", "x^@", "f*", "dir/..."}
	files := map[string]string{"dir/x.txt": "x\n"}
	for _, p := range odd[1:] {
		files["tracked/"+p] = "t\n"
	}
	dir := gittest.New(t, files)
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(odd, "./...", "nope/") {
		if ok, err := repo.ExistsAt(ctx, "HEAD", p); err != nil || ok {
			t.Errorf("ExistsAt(HEAD, %q) = %v, %v; want false, nil", p, ok, err)
		}
	}
	for _, p := range append([]string{"dir", "dir/", "dir/x.txt", "./dir/x.txt"}, prefixed("tracked/", odd[1:])...) {
		if ok, err := repo.ExistsAt(ctx, "HEAD", p); err != nil || !ok {
			t.Errorf("ExistsAt(HEAD, %q) = %v, %v; want true, nil", p, ok, err)
		}
	}
	if ok, err := repo.ExistsAt(ctx, "0123456789012345678901234567890123456789", "..."); err != nil || ok {
		t.Errorf("ExistsAt(unknown revision, ...) = %v, %v; want false, nil", ok, err)
	}
}

func prefixed(pre string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = pre + s
	}
	return out
}
