// Package tmpleak gives a test package's run a temporary folder of its
// own and reports what its tests left there. Tests that run real programs
// (scripts calling mktemp, Chromium, PostgreSQL, agent CLIs) wrote into
// /tmp and never removed it; one CI run filled the disk.
package tmpleak

import (
	"fmt"
	"os"
	"sort"
)

// Run runs a package's tests (run is the body of its TestMain, returning
// the exit code) with TMPDIR set to a new folder, which is removed
// afterwards whatever is in it. Entries left in it are files no test
// removed: they are listed on stderr, and under CI=true the run fails
// (exit 1) so that a leak is fixed, not only swept up here.
func Run(run func() int) int {
	dir, err := os.MkdirTemp("", "sessiongate-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tmpleak: create the package's temp folder:", err)
		return 2
	}
	// Traversable by others: tests that run as root start PostgreSQL as
	// nobody, whose cluster lives below (pgtest checks every parent).
	if err := os.Chmod(dir, 0o711); err != nil {
		fmt.Fprintln(os.Stderr, "tmpleak: chmod the package's temp folder:", err)
		return 2
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	code := run()
	if had {
		os.Setenv("TMPDIR", old)
	} else {
		os.Unsetenv("TMPDIR")
	}
	left, err := Left(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tmpleak: list the package's temp folder:", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "tmpleak: remove the package's temp folder:", err)
	}
	if len(left) > 0 {
		fmt.Fprintf(os.Stderr, "tmpleak: the tests left %d entries in TMPDIR (removed now): %v\n", len(left), left)
		if os.Getenv("CI") == "true" && code == 0 {
			fmt.Fprintln(os.Stderr, "tmpleak: CI=true: a test that writes to TMPDIR must use t.TempDir() or remove what it wrote")
			code = 1
		}
	}
	return code
}

// Left returns the names of the entries in dir, sorted.
func Left(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names, nil
}
