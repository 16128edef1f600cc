// Package linttrust tells whether an npm linter a gate is about to run
// (the built-in lint gate's markdownlint-cli2, or any gate command that
// runs an npm package's program: see Linters) is the package as installed
// before a session started. The
// agent being policed can write a stub node_modules/.bin/markdownlint-cli2
// (node_modules is gitignored, so git shows nothing) that prints a clean
// summary; it can also edit the package's code, or a rule engine it loads.
// It cannot set a file's change time (ctime): the kernel stamps it on every
// write, rename and chmod, and only setting the clock back changes it.
//
// So the linter must resolve, through its symlinks, into a folder whose
// package.json names its package; no file of that package, nor of the
// packages it depends on directly, may have changed after the session
// started; and where the project's package-lock.json pins a version, the
// installed one must be it.
package linttrust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Name is the package the built-in lint gate runs.
const Name = "markdownlint-cli2"

// maxFiles bounds the files looked at (markdownlint-cli2 and its direct
// dependencies hold a few hundred).
const maxFiles = 20000

type pkgJSON struct {
	Name         string            `json:"name"`
	Version      string            `json:"version"`
	Dependencies map[string]string `json:"dependencies"`
}

// Check returns nil when bin (the linter's path as the gate runs it)
// resolves into the markdownlint-cli2 package, and neither that package
// nor its direct dependencies changed after since; else an error that says
// what is wrong. root is the project (for its package-lock.json).
func Check(root, bin string, since time.Time) error { return CheckPackage(root, bin, Name, since) }

// CheckPackage is Check for the npm package pkg whose program bin is.
func CheckPackage(root, bin, pkg string, since time.Time) error {
	if t, err := ctime(bin); err == nil && t.After(since) {
		return fmt.Errorf("%s was made or changed after the session started (%s): the linter is not the one installed before it", bin, t.UTC().Format(time.RFC3339))
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", bin, err)
	}
	dir, p, err := packageOf(real, pkg)
	if err != nil {
		return fmt.Errorf("%s (%s) is not part of the %s package: %w", bin, real, pkg, err)
	}
	if want := lockedVersion(root, pkg); want != "" && want != p.Version {
		return fmt.Errorf("%s %s is installed, but package-lock.json pins %s: install the project's (npm ci)", pkg, p.Version, want)
	}
	dirs := []string{dir}
	for dep := range p.Dependencies {
		// Node resolves a dependency in the package's own node_modules
		// first, then in the folders above it.
		for _, d := range []string{filepath.Join(dir, "node_modules", dep), filepath.Join(filepath.Dir(dir), dep)} {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				dirs = append(dirs, d)
				break
			}
		}
	}
	n := 0
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if n++; n > maxFiles {
				return errTooMany
			}
			if t, err := ctime(p); err == nil && t.After(since) {
				return fmt.Errorf("%s changed after the session started (%s): the linter's code is not as installed before it", p, t.UTC().Format(time.RFC3339))
			}
			return nil
		})
		if errors.Is(err, errTooMany) {
			break
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var errTooMany = errors.New("too many files")

// packageOf finds the package folder that holds file: the nearest folder
// above it with a package.json naming markdownlint-cli2 (the bin script
// sits at its top; three levels are looked at).
func packageOf(file, name string) (string, *pkgJSON, error) {
	dir := filepath.Dir(file)
	for i := 0; i < 3; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var p pkgJSON
			if json.Unmarshal(b, &p) == nil && p.Name == name {
				return dir, &p, nil
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return "", nil, errors.New("no package.json naming it above it")
}

// lockedVersion is the markdownlint-cli2 version the project's
// package-lock.json pins ("" when none does).
func lockedVersion(root, name string) string {
	b, err := os.ReadFile(filepath.Join(root, "package-lock.json"))
	if err != nil {
		return ""
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if json.Unmarshal(b, &lock) != nil {
		return ""
	}
	return lock.Packages["node_modules/"+name].Version
}
