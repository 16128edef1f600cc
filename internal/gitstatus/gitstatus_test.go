package gitstatus_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gitstatus"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name               string
		status             []string
		tracked, untracked []string
	}{
		{"clean", nil, nil, nil},
		{"modified in the work tree and staged", []string{" M a.go", "M  b.go", "MM c.go", "A  d.go", " D e.go"}, []string{"a.go", "b.go", "c.go", "d.go", "e.go"}, nil},
		{"untracked", []string{"?? new.go", "?? dir/"}, nil, []string{"new.go", "dir/"}},
		{"a rename's origin is its own entry", []string{"R  new.go", "old.go"}, []string{"new.go"}, nil},
		{"too short", []string{"??", " M", "M "}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, un := gitstatus.Split(c.status)
			if !slices.Equal(tr, c.tracked) || !slices.Equal(un, c.untracked) {
				t.Errorf("Split(%q) = %q, %q; want %q, %q", c.status, tr, un, c.tracked, c.untracked)
			}
		})
	}
}

// TestSplitOfGit reads what real git prints through gitrepo.Status.
func TestSplitOfGit(t *testing.T) {
	root := gittest.New(t, map[string]string{"kept.txt": "a\n", "edited.txt": "a\n"})
	gittest.Write(t, root, "edited.txt", "b\n")
	gittest.Write(t, root, "staged.txt", "c\n")
	gittest.Git(t, root, "add", "staged.txt")
	gittest.Write(t, root, "new.txt", "d\n")
	r, err := gitrepo.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tr, un := gitstatus.Split(st)
	slices.Sort(tr)
	if !slices.Equal(tr, []string{"edited.txt", "staged.txt"}) || !slices.Equal(un, []string{"new.txt"}) {
		t.Errorf("status %q split into %q and %q", st, tr, un)
	}
}
