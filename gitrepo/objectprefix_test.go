package gitrepo

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestObjectsWithPrefix: every object starting with a prefix, a commit or
// a blob; none for a prefix no object has (a number in a handoff); an
// error for what is no prefix.
func TestObjectsWithPrefix(t *testing.T) {
	root, r := reviewRepo(t)
	ctx := context.Background()
	head := gittest.Git(t, root, "rev-parse", "HEAD")
	blob := gittest.Git(t, root, "rev-parse", "HEAD:README.md")
	for _, id := range []string{head, blob} {
		got, err := r.ObjectsWithPrefix(ctx, strings.ToUpper(id[:9]))
		if err != nil || !slices.Contains(got, id) {
			t.Errorf("ObjectsWithPrefix(%s) = %v, %v; want it to hold %s", id[:9], got, err, id)
		}
	}
	// A prefix none of the repository's few objects has: a first digit
	// none of them starts with.
	objs := "\n" + gittest.Git(t, root, "rev-list", "--objects", "--all")
	none := ""
	for _, d := range "0123456789abcdef" {
		if !strings.Contains(objs, "\n"+string(d)) {
			none = strings.Repeat(string(d), 7)
			break
		}
	}
	if got, err := r.ObjectsWithPrefix(ctx, none); err != nil || len(got) != 0 {
		t.Errorf("ObjectsWithPrefix(%s) = %v, %v; want none", none, got, err)
	}
	for _, bad := range []string{"12", "--all", "xyz1234"} {
		if _, err := r.ObjectsWithPrefix(ctx, bad); err == nil {
			t.Errorf("ObjectsWithPrefix(%q): no error", bad)
		}
	}
}
