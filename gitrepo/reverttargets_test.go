package gitrepo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestRevertTargets: the commits a message says it reverts, as git revert
// writes them; hints for a shallow clone to fetch, never a verdict.
func TestRevertTargets(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := gittest.New(t, map[string]string{"README.md": "# greet\n"})
	title := gittest.Commit(t, dir, "docs: reword the title", map[string]string{"README.md": "# greet - says hello\n"})
	gittest.Git(t, dir, "revert", "--no-edit", "HEAD")
	revert := gittest.Git(t, dir, "rev-parse", "HEAD")
	plain := gittest.Commit(t, dir, "docs: usage", map[string]string{"README.md": "# greet\n\nusage\n"})
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		c       string
		want    []string
		wantErr bool
	}{
		{name: "git revert's message", c: revert, want: []string{title}},
		{name: "no revert", c: plain},
		{name: "not a commit id", c: "--all", wantErr: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.RevertTargets(ctx, tt.c)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Fatalf("RevertTargets(%s) = %v, %v; want %v (error %v)", tt.c, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
