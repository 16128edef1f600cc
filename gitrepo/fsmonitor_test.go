//go:build unix

package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// A core.fsmonitor program that always answers "nothing changed" hides an
// edited file from a plain `git status`; sessiongate's own status and
// changed-files reads ignore the monitor and see it.
func TestStatusIgnoresFSMonitor(t *testing.T) {
	dir := gittest.New(t, nil)
	gittest.Write(t, dir, "test.sh", "#!/bin/sh\n[ \"$(sh greet.sh)\" = hello ]\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "tests")
	liar := filepath.Join(t.TempDir(), "fsmonitor")
	if err := os.WriteFile(liar, []byte("#!/bin/sh\nprintf 'tok\\0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "config", "core.fsmonitor", liar)
	// Let the index's timestamps age past racy-git's window, then record
	// every entry as "the monitor vouches for it".
	time.Sleep(1100 * time.Millisecond)
	gittest.Git(t, dir, "update-index", "--refresh")
	gittest.Git(t, dir, "status", "--porcelain")
	gittest.Write(t, dir, "test.sh", "#!/bin/sh\necho 1 passed\n")
	if out := gittest.Git(t, dir, "status", "--porcelain"); strings.Contains(out, "test.sh") {
		t.Skipf("this git does not trust the monitor's answer (status shows %q): nothing to hide", out)
	}
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := repo.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(st, func(e string) bool { return strings.HasSuffix(e, "test.sh") }) {
		t.Errorf("Status = %q: the monitor hid test.sh's edit", st)
	}
	changed, err := repo.ChangedFiles(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(changed, "test.sh") {
		t.Errorf("ChangedFiles = %q: the monitor hid test.sh's edit", changed)
	}
}
