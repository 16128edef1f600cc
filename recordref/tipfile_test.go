package recordref

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTipFromFilesAgreesWithGit: the tip Put reads from the ref files is
// git's, for a missing ref, a loose ref, a packed ref, a linked worktree,
// and a loose ref that shadows a packed one.
func TestTipFromFilesAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	dir := t.TempDir()
	g := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@invalid")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	g("init", "-q", "-b", "main")
	g("commit", "-q", "--allow-empty", "-m", "a")
	wt := filepath.Join(t.TempDir(), "wt")
	g("worktree", "add", "-q", "-b", "other", wt)
	check := func(step string) {
		t.Helper()
		for _, d := range []string{dir, wt} {
			want, err := Tip(ctx, d, DefaultRef)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := tipFromFiles(d, DefaultRef)
			if !ok || got != want {
				t.Errorf("%s (%s): files say %q (ok %v), git says %q", step, d, got, ok, want)
			}
		}
	}
	check("no ref")
	if _, err := Put(ctx, dir, DefaultRef, []Record{{SessionID: "0a4d8a3c-0000-4000-8000-000000000001", Body: []byte("{}\n")}}); err != nil {
		t.Fatal(err)
	}
	check("loose")
	g("pack-refs", "--all")
	check("packed")
	if _, err := Put(ctx, wt, DefaultRef, []Record{{SessionID: "0a4d8a3c-0000-4000-8000-000000000002", Body: []byte("{}\n")}}); err != nil {
		t.Fatal(err)
	}
	check("loose over packed, written from the worktree")
}
