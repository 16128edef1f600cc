package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestR64H369NotesAnnotated: the objects a notes ref annotates, which the
// parked-work check compares with HEAD's history (session/parked.go).
func TestR64H369NotesAnnotated(t *testing.T) {
	ctx := context.Background()
	repo := emptyRepo(t)
	dir := repo.Root()
	git := func(args ...string) string {
		return strings.TrimSpace(gittest.Git(t, dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...))
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	head := git("rev-parse", "HEAD")
	blob := git("rev-parse", "HEAD:a.txt")
	if got, err := repo.NotesAnnotated(ctx, "refs/notes/commits"); err != nil || len(got) != 0 {
		t.Fatalf("no notes yet: got %v, %v", got, err)
	}
	git("notes", "add", "-m", "reviewed", "HEAD")
	git("notes", "add", "-m", "parked", blob)
	got, err := repo.NotesAnnotated(ctx, "refs/notes/commits")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{head, blob}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("NotesAnnotated = %v, want %v", got, want)
	}
	if got, err := repo.NotesAnnotated(ctx, "refs/notes/park"); err != nil || len(got) != 0 {
		t.Errorf("another notes ref: got %v, %v", got, err)
	}
}
