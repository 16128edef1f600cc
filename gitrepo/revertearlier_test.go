package gitrepo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestRevertedEarlier: an honest `git revert --no-edit` of a commit from
// before the session (its start holds the reverted commit) is told, with
// the paths it changes; a revert of a commit the start does not hold, a
// revert edited on the way (not the exact reverse) and a commit that
// reverts nothing are not. RevertedBefore, verify's twin, takes a revert
// whose reverted commit is outside the range.
func TestRevertedEarlier(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := gittest.New(t, map[string]string{"README.md": "# greet\n", "greet.sh": "echo hello\n"})
	title := gittest.Commit(t, dir, "docs: reword the title", map[string]string{"README.md": "# greet - says hello\n"})
	start := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Git(t, dir, "revert", "--no-edit", "HEAD")
	revert := gittest.Git(t, dir, "rev-parse", "HEAD")
	// A side commit made after the start, reverted: not earlier work.
	gittest.Commit(t, dir, "feat: louder", map[string]string{"greet.sh": "echo HELLO\n"})
	gittest.Git(t, dir, "revert", "--no-edit", "HEAD")
	revertSide := gittest.Git(t, dir, "rev-parse", "HEAD")
	// A revert whose content was changed before committing.
	gittest.Git(t, dir, "revert", "--no-commit", title)
	gittest.Write(t, dir, "README.md", "# greet (edited)\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "--no-edit")
	edited := gittest.Git(t, dir, "rev-parse", "HEAD")
	plain := gittest.Commit(t, dir, "docs: usage", map[string]string{"README.md": "# greet\n\nusage\n"})

	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name      string
		c         string
		tips      []string
		want      string
		wantPaths []string
	}{
		{"honest: revert of a commit the start holds", revert, []string{start}, title, []string{"README.md"}},
		{"lazy: revert of a commit made after the start", revertSide, []string{start}, "", nil},
		{"lazy: a revert edited before committing", edited, []string{start}, "", nil},
		{"lazy: a commit that reverts nothing", plain, []string{start}, "", nil},
		{"no tips", revert, nil, "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, paths, err := r.RevertedEarlier(ctx, tt.c, tt.tips)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || !slices.Equal(paths, tt.wantPaths) {
				t.Errorf("RevertedEarlier = %q %v, want %q %v", got, paths, tt.want, tt.wantPaths)
			}
		})
	}
	for _, tt := range []struct {
		name string
		c    string
		rng  []string
		want string
	}{
		{"honest: the reverted commit is the base's", revert, []string{revert}, title},
		{"the reverted commit is in the range", revert, []string{title, revert}, ""},
		{"lazy: an edited revert", edited, []string{edited}, ""},
	} {
		t.Run("before/"+tt.name, func(t *testing.T) {
			got, err := r.RevertedBefore(ctx, tt.c, tt.rng)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("RevertedBefore = %q, want %q", got, tt.want)
			}
		})
	}
}
