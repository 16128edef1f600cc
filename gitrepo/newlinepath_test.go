//go:build unix

package gitrepo_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestNewlinePathHashed: git holds a path with a newline in it as one
// file name; the readers that gave git paths a line each skipped it
// (SHA256sAt: "absent", so verify could not re-read a file evidence
// there; StatusSince: never compared, so a stat-hidden rewrite of it
// passed the clean-tree check) or mis-split it (HiddenFiles: "2 ids for 1
// path", an error for an assume-unchanged file so named). Each now asks
// git NUL-separated or one path an argument. Every row failed on the old
// code except the honest ones, which pass on both.
func TestNewlinePathHashed(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	const nl = "notes\nfinal.md"
	for _, name := range []string{nl, "notes final.md"} { // the honest twin: a plain name
		t.Run(strings.ReplaceAll(name, "\n", `\n`), func(t *testing.T) {
			dir := gittest.New(t, nil)
			gittest.Write(t, dir, name, "draft one\n")
			p := filepath.Join(dir, name)
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "notes")
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}

			sums, err := repo.SHA256sAt(ctx, "HEAD", []string{name, "absent.md"})
			want := sha256.Sum256([]byte("draft one\n"))
			if err != nil || sums[name] != hex.EncodeToString(want[:]) {
				t.Errorf("SHA256sAt(HEAD, %q) = %q, %v; want its hash", name, sums[name], err)
			}
			if _, ok := sums["absent.md"]; ok {
				t.Errorf("SHA256sAt lists absent.md, absent at HEAD: %q", sums)
			}

			// A rewrite hidden from git status in the refresh's second.
			start := time.Now().Add(-time.Second)
			hideEdit(t, dir, name, "draft two\n", "draft one\n")
			st, err := repo.StatusSince(ctx, start)
			if err != nil || !slices.ContainsFunc(st, func(e string) bool { return strings.HasSuffix(e, name) }) {
				t.Errorf("StatusSince = %q, %v: the hidden rewrite of %q not listed", st, err, name)
			}

			// The same file flagged assume-unchanged.
			gittest.Git(t, dir, "update-index", "--assume-unchanged", "--", name)
			if err := os.WriteFile(p, []byte("draft three, longer\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			hidden, err := repo.HiddenFiles(ctx)
			if err != nil || hidden[name] == "" {
				t.Errorf("HiddenFiles = %q, %v: %q not listed", hidden, err, name)
			}
		})
	}
}
