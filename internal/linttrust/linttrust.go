// Package linttrust tells whether an npm linter a gate is about to run
// (the built-in lint gate's markdownlint-cli2, or any gate command that
// runs an npm package's program: see Linters) is the package the project's
// package-lock.json names. The
// agent being policed can write a stub node_modules/.bin/markdownlint-cli2
// (node_modules is gitignored, so git shows nothing) that prints a clean
// summary; it can also edit the package's code, or a rule engine it loads.
// It cannot set a file's change time (ctime): the kernel stamps it on every
// write, rename and chmod, and only setting the clock back changes it.
//
// So the linter must resolve, through its symlinks, into a folder whose
// package.json names its package; where the project's
// package-lock.json pins a version, the installed one must be it; and each
// file of that package, and of the packages it depends on directly, either
// did not change after the session started, or belongs to a package whose
// files are exactly the tarball the lock names by its sha512 (npmcache.go):
// an honest `npm ci` during the session passes, an edit after it does not.
package linttrust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
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
	Bin          any               `json:"bin"`
}

// An Option widens what Check can prove.
type Option func(*options)

type options struct {
	lockSHA256 func() string
	lockBytes  func() []byte
}

// LockBytesAt gives what returns package-lock.json as the session's start
// commit held it. When the work tree's lock changed in the session (an
// honest `npm install new-dep`), a fresh install is proven against the
// start's lock: the agent's lock never names the tarball (review c10).
func LockBytesAt(f func() []byte) Option { return func(o *options) { o.lockBytes = f } }

// LockAt gives what returns the sha256 (hex) of package-lock.json as the
// session's start commit held it; it is called only when the work tree's
// lock changed after the session started. The work tree's lock is trusted
// to prove a fresh install when it is that file, or when it did not
// change after the session started; an agent's own lock, naming a tarball
// of its own, is not.
func LockAt(sha256hex func() string) Option { return func(o *options) { o.lockSHA256 = sha256hex } }

// Check returns nil when bin (the linter's path as the gate runs it)
// resolves into the markdownlint-cli2 package, and that package and its
// direct dependencies are as installed before since, or, when installed
// after it, exactly the tarballs the project's package-lock.json names
// (npmcache.go); else an error that says what is wrong. root is the
// project (for its package-lock.json).
func Check(root, bin string, since time.Time, opts ...Option) error {
	return CheckPackage(root, bin, Name, since, opts...)
}

// CheckPackage is Check for the npm package pkgName whose program bin is.
func CheckPackage(root, bin, pkgName string, since time.Time, opts ...Option) error {
	var o options
	for _, f := range opts {
		f(&o)
	}
	lock, lockTrusted := readLock(root, since, o.lockSHA256)
	binFresh := false
	if t, err := ctime.OfLink(bin); err == nil && t.After(since) {
		binFresh = true
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", bin, err)
	}
	dir, pkg, err := packageOf(real, pkgName)
	if err != nil {
		if binFresh {
			return fmt.Errorf("%s was made or changed after the session started: the linter is not the one installed before it", bin)
		}
		return fmt.Errorf("%s (%s) is not part of the %s package: %w", bin, real, pkgName, err)
	}
	if lock != nil {
		if want := lock.Packages["node_modules/"+pkgName].Version; want != "" && want != pkg.Version {
			return fmt.Errorf("%s %s is installed, but package-lock.json pins %s: install the project's (npm ci)", pkgName, pkg.Version, want)
		}
	}
	var proofLock *lockFile
	if lockTrusted {
		proofLock = lock
	} else if o.lockBytes != nil {
		var start lockFile
		if b := o.lockBytes(); b != nil && json.Unmarshal(b, &start) == nil {
			proofLock = &start
		}
	}
	if binFresh {
		// A fresh .bin entry is npm's link into the package (proven below
		// with the rest of it), or it is not the linter.
		st, err := os.Lstat(bin)
		own := pkg.binFile(filepath.Base(bin))
		want := filepath.Join(dir, filepath.FromSlash(own))
		if err != nil || st.Mode()&os.ModeSymlink == 0 || own == "" || !sameFile(real, want) {
			return fmt.Errorf("%s was made or changed after the session started, and is not npm's link to the package's own bin: the linter is not the one installed before it", bin)
		}
		if err := proveInstalled(root, dir, proofLock, nil); err != nil {
			return fmt.Errorf("%s was made or changed after the session started, and the package cannot be proven to be the one package-lock.json names: %w", bin, err)
		}
	}
	dirs := []string{dir}
	for dep := range pkg.Dependencies {
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
		fresh := map[string]bool{}
		first := ""
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if n++; n > maxFiles {
				return errTooMany
			}
			if t, err := ctime.OfLink(p); err == nil && t.After(since) {
				if first == "" {
					first = fmt.Sprintf("%s changed after the session started (%s)", p, t.UTC().Format(time.RFC3339))
				}
				fresh[p] = true
			}
			return nil
		})
		if err != nil && !errors.Is(err, errTooMany) {
			return err
		}
		// Each fresh file is proven with the package it belongs to: a
		// dependency nested in the folder's node_modules is a package of
		// its own, with its own tarball.
		byPkg := map[string]map[string]bool{}
		for p := range fresh {
			pd := packageDirOf(d, p)
			if filepath.Base(pd) == ".bin" {
				// A nested .bin holds npm's links for a dependency's own
				// scripts: the linter never runs through them.
				if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink != 0 {
					continue
				}
			}
			if byPkg[pd] == nil {
				byPkg[pd] = map[string]bool{}
			}
			byPkg[pd][p] = true
		}
		for pd, files := range byPkg {
			if perr := proveInstalled(root, pd, proofLock, files); perr != nil {
				return fmt.Errorf("%s, and it cannot be proven to be the package package-lock.json names (%v): the linter's code is not as installed before it", first, perr)
			}
		}
		if errors.Is(err, errTooMany) {
			break
		}
	}
	return nil
}

// packageDirOf is the folder of the package that holds file p under the
// package folder d: d itself, or the innermost node_modules/<name> (or
// node_modules/@scope/<name>) below it.
func packageDirOf(d, p string) string {
	rel, err := filepath.Rel(d, p)
	if err != nil {
		return d
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	at := -1
	for i := 0; i < len(parts)-1; i++ {
		if parts[i] == "node_modules" {
			at = i
		}
	}
	if at < 0 {
		return d
	}
	n := at + 2
	if strings.HasPrefix(parts[at+1], "@") && at+2 < len(parts) {
		n = at + 3
	}
	if n > len(parts) {
		n = len(parts)
	}
	return filepath.Join(d, filepath.FromSlash(strings.Join(parts[:n], "/")))
}

// binFile is the package's own path of its command program.
func (p *pkgJSON) binFile(program string) string {
	switch b := p.Bin.(type) {
	case string:
		return path.Clean(b)
	case map[string]any:
		if s, ok := b[program].(string); ok {
			return path.Clean(s)
		}
	}
	return ""
}

func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

var errTooMany = errors.New("too many files")

// packageOf finds the package folder that holds file: the nearest folder
// above it with a package.json naming the package name (the bin script
// sits at its top; three levels are looked at).
func packageOf(file, name string) (string, *pkgJSON, error) {
	dir := filepath.Dir(file)
	for i := 0; i < 3; i++ {
		b, err := boundedread.File(filepath.Join(dir, "package.json"), boundedread.DefaultLimit)
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

type lockFile struct {
	Packages map[string]struct {
		Version   string `json:"version"`
		Integrity string `json:"integrity"`
	} `json:"packages"`
}

// readLock reads the project's package-lock.json (nil when it has none or
// it does not parse); trusted says whether it may prove a fresh install:
// it did not change after since, or it is the start commit's (want, its sha256 in hex).
func readLock(root string, since time.Time, want func() string) (lock *lockFile, trusted bool) {
	p := filepath.Join(root, "package-lock.json")
	b, err := boundedread.File(p, boundedread.DefaultLimit)
	if err != nil {
		return nil, false
	}
	var l lockFile
	if json.Unmarshal(b, &l) != nil {
		return nil, false
	}
	if t, err := ctime.OfLink(p); err == nil && !t.After(since) {
		return &l, true
	}
	if want == nil {
		return &l, false
	}
	w := want()
	return &l, w != "" && sha256hex(b) == w
}
