package testrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/goinitexit"
)

// goInitExitAdded: a Go file (code or test) the session changed now ends
// the process, or rewrites os.Args, while its package initialises
// (goinitexit), which a test binary does before any test: `go test`
// prints "ok" for the package and every package importing it with no
// test run, or runs the tests os.Args names (lazy-agent pass 19).
func goInitExitAdded(ctx context.Context, repo Repo, start, f string) (string, error) {
	if !strings.HasSuffix(f, ".go") {
		return "", nil
	}
	now, err := os.ReadFile(filepath.Join(repo.Root(), filepath.FromSlash(f)))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil // deleted
		}
		return "", fmt.Errorf("read %s: %w", f, err)
	}
	var was []byte
	existed, err := repo.ExistsAt(ctx, start, f)
	if err != nil {
		return "", fmt.Errorf("look up %s at the start commit: %w", f, err)
	}
	if existed {
		if was, err = repo.ReadAt(ctx, start, f); err != nil {
			return "", fmt.Errorf("read %s at the start commit: %w", f, err)
		}
	}
	e := goinitexit.Added(was, now)
	if e == "" {
		return "", nil
	}
	return f + ": " + e + " while the package initialises, which a test binary does before any test: go test prints ok without running them, or runs only the tests it names (move it into main(), or take it out)", nil
}
