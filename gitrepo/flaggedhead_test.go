package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestIndexOffHeadAndNamedIn (round 29, c1): a flag over HEAD's blob (a
// local edit) is told from one over a staged stub or a --cacheinfo blob,
// and a file a test script sources is found named in HEAD's code, not in
// its documentation.
func TestIndexOffHeadAndNamedIn(t *testing.T) {
	ctx := context.Background()
	root := gittest.New(t, map[string]string{
		"scripts/test.sh": ". scripts/names.txt\n", "scripts/names.txt": "WANT=hello\n",
		"config.yaml": "db: prod\n", "staged.yaml": "a: 1\n", "cached.yaml": "b: 1\n", "README.md": "copy config.yaml\n"})
	gittest.Write(t, root, "config.yaml", "db: laptop\n")
	gittest.Git(t, root, "update-index", "--assume-unchanged", "config.yaml")
	gittest.Write(t, root, "staged.yaml", "a: stub\n")
	gittest.Git(t, root, "add", "staged.yaml")
	gittest.Git(t, root, "update-index", "--skip-worktree", "staged.yaml")
	stub := filepath.Join(t.TempDir(), "stub")
	if err := os.WriteFile(stub, []byte("b: stub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	blob := strings.TrimSpace(gittest.Git(t, root, "hash-object", "-w", stub))
	gittest.Git(t, root, "update-index", "--cacheinfo", "100644,"+blob+",cached.yaml")
	r, err := gitrepo.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	off, err := r.IndexOffHead(ctx, []string{"config.yaml", "staged.yaml", "cached.yaml", "scripts/names.txt"})
	if want := map[string]bool{"staged.yaml": true, "cached.yaml": true}; err != nil || !reflect.DeepEqual(off, want) {
		t.Errorf("IndexOffHead = %v, %v; want %v", off, err, want)
	}
	globs := []string{"*.sh", "*.py"}
	for _, c := range []struct {
		needle, self string
		want         bool
	}{
		{"names.txt", "scripts/names.txt", true},
		{"config.yaml", "config.yaml", false}, // only README.md names it
		{"test.sh", "scripts/test.sh", false}, // itself only
	} {
		if got, err := r.NamedIn(ctx, "HEAD", c.needle, c.self, globs); err != nil || got != c.want {
			t.Errorf("NamedIn(%s) = %v, %v; want %v", c.needle, got, err, c.want)
		}
	}
}
