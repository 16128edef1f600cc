// Package repopath is a path inside a repository as a protocol or a caller
// writes it: validated (no absolute path, no "..", no NUL), resolved under
// the root with symlinks followed and refused when they leave it, and
// matched or expanded as a glob. It needs no session, so the engine, the
// rule-file protection and the evidence readers share one definition of
// "inside the repository" (session/ decides what a path proves).
package repopath

import (
	"errors"
	"fmt"
	"github.com/bmatcuk/doublestar/v4"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// ErrOutsideRepo is returned for a path that would leave the repository.
var ErrOutsideRepo = errors.New("path is outside the repository")

// Clean validates a repository-relative path or glob written by a protocol
// or a caller: no absolute paths, no `..` segments, no NUL.
func Clean(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty path")
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q contains NUL", ErrOutsideRepo, p)
	}
	p = filepath.ToSlash(p)
	if path.IsAbs(p) || filepath.IsAbs(p) || (len(p) > 1 && p[1] == ':') {
		return "", fmt.Errorf("%w: %q is absolute; use a path relative to the repository root", ErrOutsideRepo, p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", fmt.Errorf("%w: %q contains ..", ErrOutsideRepo, p)
		}
	}
	c := path.Clean(p)
	if c == "." {
		return "", fmt.Errorf("%q names the repository root, not a file", p)
	}
	return c, nil
}

// Resolve returns the absolute path of rel under root after following
// symlinks, refusing one that ends outside root. A missing file is not an
// error here (ok == false); the caller decides what absence means.
func Resolve(root, rel string) (abs string, ok bool, err error) {
	c, err := Clean(rel)
	if err != nil {
		return "", false, err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false, fmt.Errorf("resolve repository root: %w", err)
	}
	abs = filepath.Join(realRoot, filepath.FromSlash(c))
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return abs, false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("resolve %s: %w", c, err)
	}
	if real != realRoot && !strings.HasPrefix(real, realRoot+string(filepath.Separator)) {
		return "", false, fmt.Errorf("%w: %q is a symlink to %s", ErrOutsideRepo, c, real)
	}
	return real, true, nil
}

// Match matches a slash-separated path against a pattern. A pattern
// without a slash matches the base name anywhere ("*.md" matches
// "docs/a.md"), like .gitignore; `**` as a whole segment matches any number
// of segments (bmatcuk/doublestar, as git's glob pathspecs do).
func Match(pattern, name string) bool {
	pattern = strings.TrimPrefix(filepath.ToSlash(pattern), "./")
	name = filepath.ToSlash(name)
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(name))
		return ok
	}
	ok, _ := doublestar.Match(pattern, name) // a bad pattern matches nothing
	return ok
}

// Filter keeps the files that match pattern (Match).
func Filter(files []string, pattern string) []string {
	var out []string
	for _, f := range files {
		if Match(pattern, f) {
			out = append(out, f)
		}
	}
	return out
}

// Glob expands a repository-relative glob on disk, keeping only
// matches that resolve inside the repository. Symlinks that point outside
// are reported as an error, not silently dropped.
func Glob(root, pattern string) ([]string, error) {
	c, err := Clean(pattern)
	if err != nil {
		return nil, err
	}
	var matches []string
	if strings.Contains(c, "**") || !strings.Contains(c, "/") && HasMeta(c) {
		// Walk for ** (filepath.Glob has no **); skip .git.
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if rel != "." && !d.IsDir() && Match(c, rel) {
				matches = append(matches, rel)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	} else {
		abs, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(c)))
		if err != nil {
			return nil, fmt.Errorf("bad glob %q: %w", pattern, err)
		}
		for _, a := range abs {
			rel, _ := filepath.Rel(root, a)
			matches = append(matches, filepath.ToSlash(rel))
		}
	}
	sort.Strings(matches)
	var out []string
	for _, m := range matches {
		real, ok, err := Resolve(root, m)
		if err != nil {
			return nil, err
		}
		if ok {
			if st, err := os.Stat(real); err == nil && st.Mode().IsRegular() || err == nil && st.IsDir() {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// HasMeta reports whether s holds a glob metacharacter.
func HasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }
