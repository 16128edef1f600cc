package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestCommitPatch: the patch is the commit's own against its parent, not
// the work tree's (a later commit's change to the file is not in it), and
// shows the lines of a file the attributes call binary.
func TestCommitPatch(t *testing.T) {
	repo := emptyRepo(t)
	dir := repo.Root()
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
	write(".gitattributes", "*.sh -diff\n")
	write("greet.sh", "#!/bin/sh\n# greet prints a greeting.\necho hello\n")
	commit("feat: greet")
	write("greet.sh", "#!/bin/sh\n# greet prints a greeting to the world.\necho hello\n")
	docs := commit("docs: say what greet prints")
	write("greet.sh", "#!/bin/sh\n# greet prints a greeting to the world.\necho hello world\n")
	commit("feat: greet the world")
	for _, c := range []struct {
		name, want, notWant string
	}{
		{"the commit's comment line", "+# greet prints a greeting to the world.", ""},
		{"not the later commit's code line", "", "+echo hello world"},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch, err := repo.CommitPatch(context.Background(), docs, []string{"greet.sh"})
			if err != nil {
				t.Fatal(err)
			}
			if c.want != "" && !strings.Contains(patch, c.want) {
				t.Errorf("patch lacks %q:\n%s", c.want, patch)
			}
			if c.notWant != "" && strings.Contains(patch, c.notWant) {
				t.Errorf("patch holds %q:\n%s", c.notWant, patch)
			}
		})
	}
	if _, err := repo.CommitPatch(context.Background(), "--output=x", nil); err == nil {
		t.Error("an option as the commit was run")
	}
}
