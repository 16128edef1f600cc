package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestChangePrint: a fingerprint names every path a commit changes with
// its blobs before and after; the same hunk at a second spot with the same
// context (equal patch ids) gives another; the batch of verify equals the
// hook's after its parent line; a path with a space is kept whole.
func TestChangePrint(t *testing.T) {
	repo := emptyRepo(t)
	dir := repo.Root()
	ctx := context.Background()
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) string {
		gittest.Git(t, dir, "add", "-A")
		gittest.Git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", msg)
		return strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	}
	block := "a\nb\nc\nd\ne\nf\n"
	write("dup.txt", block+"\n"+block)
	write("with space.txt", "x\n")
	root := commit("root")
	write("dup.txt", "a\nb\nc\nNEW\nd\ne\nf\n\n"+block)
	first := commit("first block")
	gittest.Git(t, dir, "reset", "-q", "--hard", root)
	write("dup.txt", block+"\na\nb\nc\nNEW\nd\ne\nf\n")
	second := commit("second block")
	prints, err := repo.ChangePrints(ctx, []string{root, first, second})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, commit string
		parent       bool
		want         []string
	}{
		{"root commit: both files added", root, false, []string{"000000 100644 0000000000000000000000000000000000000000 ", "\tdup.txt\n", "\twith space.txt"}},
		{"first block", first, true, []string{"100644 100644 ", "\tdup.txt"}},
		{"second block", second, true, []string{"100644 100644 ", "\tdup.txt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			one, err := repo.ChangePrint(ctx, c.commit)
			if err != nil {
				t.Fatal(err)
			}
			head, rest, _ := strings.Cut(one, "\n")
			if got := head != "parent -"; got != c.parent || !strings.HasPrefix(head, "parent ") {
				t.Errorf("parent line %q", head)
			}
			if rest != prints[c.commit] {
				t.Errorf("hook's %q, verify's %q", rest, prints[c.commit])
			}
			for _, w := range c.want {
				if !strings.Contains(rest+"\n", w) {
					t.Errorf("%q lacks %q", rest, w)
				}
			}
		})
	}
	ids, err := repo.VerbatimPatchIDs(ctx, []string{first, second})
	if err != nil || ids[first] == "" || ids[first] != ids[second] {
		t.Fatalf("the two hunks should share a patch id (the route a patch id let through): %v %v", ids, err)
	}
	if prints[first] == prints[second] {
		t.Errorf("the same hunk at another spot has the same fingerprint %q", prints[first])
	}
}

// TestChangePrintsReadWhatGitHolds: verify's batch read went around gitenv,
// so a replace ref (or GIT_REPLACE_REF_BASE, a graft) made a hooks-off
// commit read as a recorded one's change (failed on the old code: the
// replaced commit's fingerprint came back). Honest twin: without a
// replacement the batch equals the hook's fingerprint.
func TestChangePrintsReadWhatGitHolds(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		replace func(t *testing.T, dir, bad, good string)
	}{
		{"no replacement (honest)", func(*testing.T, string, string, string) {}},
		{"git replace BAD GOOD", func(t *testing.T, dir, bad, good string) { gittest.Git(t, dir, "replace", bad, good) }},
		{"GIT_REPLACE_REF_BASE", func(t *testing.T, dir, bad, good string) {
			gittest.Git(t, dir, "update-ref", "refs/cache/"+bad, good)
			t.Setenv("GIT_REPLACE_REF_BASE", "refs/cache/")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			repo := emptyRepo(t)
			dir := repo.Root()
			commit := func(rel, body, msg string) string {
				if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				gittest.Git(t, dir, "add", "-A")
				gittest.Git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", msg)
				return strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
			}
			root := commit("a.txt", "a\n", "root")
			good := commit("a.txt", "checked\n", "gated")
			gittest.Git(t, dir, "reset", "-q", "--hard", root)
			bad := commit("a.txt", "unchecked\n", "hooks off")
			want, err := repo.ChangePrint(ctx, bad)
			if err != nil {
				t.Fatal(err)
			}
			tt.replace(t, dir, bad, good)
			prints, err := repo.ChangePrints(ctx, []string{bad})
			if err != nil {
				t.Fatal(err)
			}
			if _, w, _ := strings.Cut(want, "\n"); prints[bad] != w {
				t.Errorf("ChangePrints(bad) = %q, want what git holds %q", prints[bad], w)
			}
		})
	}
}
