package testrun

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// A new test that checks nothing about the code (`assert True`,
// `expect(true).toBe(true)`, a Go test with no t.Error, t.Fatal, require
// or assert) passes whatever the code does (issue 25: weak new tests).
// When such tests are all the session added and no test of the start
// covers the code it changed, a run of them is no QA. A weak test beside
// a real one, or beside the code's existing tests, is left alone: the
// run still checks the change.

// WeakTestsIn lists the tests now has and was (nil: a new file) did
// not, that check nothing about the code, of a test file of kind k.
func WeakTestsIn(k string, was, now []byte) []string {
	old := map[string]bool{}
	c, _ := testNames(k, was)
	for _, n := range c {
		old[n] = true
	}
	var out []string
	sc := fileScope(k, now)
	for n, b := range testBodies(k, now) {
		if !old[n] && !checks(k, b, sc) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// WeakNewTests lists, as "file: why", the tests the session added that
// check nothing about the code when they are the only tests it added
// and code it changed has no test from the start.
func WeakNewTests(ctx context.Context, repo Repo, start string) ([]string, error) {
	if start == "" {
		return nil, nil
	}
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, fmt.Errorf("list the files changed since the start: %w", err)
	}
	var weak, code []string
	for _, f := range changed {
		now, err := readWork(repo.Root(), f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		k := FileKind(f)
		if k == "" {
			if sourceKind(f) != "" && !SkippedDir(f) {
				code = append(code, f)
			}
			continue
		}
		if k == "conftest" {
			continue
		}
		var was []byte
		existed, err := repo.ExistsAt(ctx, start, f)
		if err != nil {
			return nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
		}
		if existed {
			if was, err = repo.ReadAt(ctx, start, f); err != nil {
				return nil, fmt.Errorf("read %s at the start commit: %w", f, err)
			}
		}
		w := WeakTestsIn(k, was, now)
		all, _ := testNames(k, now)
		oldNames, _ := testNames(k, was)
		for _, n := range all {
			if !slices.Contains(oldNames, n) && !slices.Contains(w, n) {
				return nil, nil // a new test that checks: the run checks the change
			}
		}
		for _, n := range w {
			weak = append(weak, f+": adds "+n+", which checks nothing about the code")
		}
	}
	if len(weak) == 0 || len(code) == 0 {
		return nil, nil
	}
	var bare []string
	for _, c := range code {
		ok, err := coveredAtStart(ctx, repo, start, c)
		if err != nil {
			return nil, err
		}
		if !ok {
			bare = append(bare, c)
		}
	}
	if len(bare) == 0 {
		return nil, nil
	}
	for i := range weak {
		weak[i] += fmt.Sprintf(" (the only test for the change to %s)", truncate(strings.Join(bare, ", "), 80))
	}
	return weak, nil
}

// coveredAtStart: a test file that is in the start commit and still here
// covers source file f: for Go a _test.go in its folder, for Python and
// JS a test file that imports it (by its path: a module of the same name
// in another package is another module, issue 25 item 4).
func coveredAtStart(ctx context.Context, repo Repo, start, f string) (bool, error) {
	k := sourceKind(f)
	dir := path.Dir(f)
	mod := strings.TrimSuffix(path.Base(f), path.Ext(f))
	if mod == "index" || mod == "__init__" {
		mod = path.Base(dir)
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(mod) + `\b`)
	root := repo.Root()
	var found bool
	var ferr error
	walkRoot := root
	if k == "go" {
		walkRoot = filepath.Join(root, filepath.FromSlash(dir))
	}
	// unique: no other source file of the repository has f's name.
	unique := sync.OnceValue(func() bool {
		n := 0
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() {
				if p != root && (d.Name() == ".git" || SkippedDir(filepath.ToSlash(rel)+"/x")) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Name() == path.Base(f) {
				n++
			}
			return nil
		})
		return n <= 1
	})
	err := filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != walkRoot && (k == "go" || d.Name() == ".git" || SkippedDir(rel+"/x")) {
				return filepath.SkipDir
			}
			return nil
		}
		tk := FileKind(rel)
		if tk != k {
			return nil
		}
		in, err := repo.ExistsAt(ctx, start, rel)
		if err != nil {
			ferr = fmt.Errorf("look up %s at the start commit: %w", rel, err)
			return filepath.SkipAll
		}
		if !in {
			return nil
		}
		if k == "go" {
			found = true
			return filepath.SkipAll
		}
		b, err := boundedread.File(p, maxInput)
		if err == nil && word.Match(b) && importsFile(k, rel, b, f, unique) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	if ferr != nil {
		return false, ferr
	}
	if err != nil {
		return false, fmt.Errorf("look for the tests of %s: %w", f, err)
	}
	return found, nil
}

// shellChecksNothing: a shell test command that proves nothing about
// the code: a grep whose pattern matches any line (`grep -q . file`),
// a test that a file exists, or a listing or printing of files.
func shellChecksNothing(line string) bool {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok || len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		w := c.Words
		prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
		if prog == "" && w[len(w)-1] == "]" {
			prog = "[" // shellline reads `[` as an empty word
		}
		switch prog {
		case "ls", "cat", "wc", "stat", "file", "head", "tail", "true", ":", "echo", "printf", "exit":
			continue
		case "grep", "egrep":
			var pats []string
			for i := 1; i < len(w); i++ {
				switch {
				case w[i] == "-e" && i+1 < len(w):
					pats = append(pats, w[i+1])
					i++
				case strings.HasPrefix(w[i], "-"):
				default:
					if len(pats) == 0 {
						pats = append(pats, w[i])
					}
				}
			}
			if len(pats) == 1 && slices.Contains([]string{".", "^", "$", "", ".*", "^.*", "^.*$"}, pats[0]) {
				continue
			}
			return false
		case "test", "[", "[[":
			if len(w) >= 3 && len(w) <= 4 && slices.Contains([]string{"-e", "-f", "-s", "-d", "-r", "-x"}, w[1]) {
				continue
			}
			return false
		default:
			return false
		}
	}
	return true
}

var importREs = sync.OnceValue(func() (r struct{ pyFrom, pyImport, jsPath *regexp.Regexp }) {
	r.pyFrom = regexp.MustCompile(`(?m)^\s*from\s+(\.*[\w.]*)\s+import\s+\(?([^)\n]+)`)
	r.pyImport = regexp.MustCompile(`(?m)^\s*import\s+([\w., ]+)`)
	r.jsPath = regexp.MustCompile(`(?:\bfrom\s+|\brequire\s*\(\s*|\bimport\s*\(\s*|^\s*import\s+|\b(?:jest|vi)\.mock\s*\(\s*)['"\x60]([^'"\x60]+)['"\x60]`)
	return r
})

// importsFile: test file rel (content b, kind k) imports source file f.
// Python: a dotted name that ends f's module path (`a.b.utils` for
// a/b/utils.py: `utils`, `b.utils` or `a.b.utils`; a bare `utils` only
// from f's folder or the one below it, or when no other file is named
// utils.py), or a relative import that lands on it. JS: a relative import path that resolves to f (or its folder's
// index).
func importsFile(k, rel string, b []byte, f string, unique func() bool) bool {
	r := importREs()
	dir := path.Dir(rel)
	switch k {
	case "py":
		mod := strings.TrimSuffix(f, ".py")
		if path.Base(mod) == "__init__" {
			mod = path.Dir(mod)
		}
		dotted := strings.ReplaceAll(mod, "/", ".")
		fdir := path.Dir(f)
		ends := func(name string) bool {
			if name == "" || dotted != name && !strings.HasSuffix(dotted, "."+name) {
				return false
			}
			// A bare name resolves through sys.path: trusted from f's
			// folder, the one below it, or when no other module has it.
			return strings.Contains(name, ".") || fdir == "." || dir == fdir || path.Dir(dir) == fdir || unique()
		}
		var names []string
		for _, m := range r.pyFrom.FindAllStringSubmatch(string(b), -1) {
			from := m[1]
			if strings.HasPrefix(from, ".") {
				// relative: one dot is the test's own package
				up := len(from) - len(strings.TrimLeft(from, "."))
				base := dir
				for i := 1; i < up; i++ {
					base = path.Dir(base)
				}
				rest := strings.ReplaceAll(strings.TrimLeft(from, "."), ".", "/")
				for _, n := range strings.Split(m[2], ",") {
					n = strings.Fields(n + " ")[0]
					for _, cand := range []string{path.Join(base, rest), path.Join(base, rest, n)} {
						c := strings.TrimPrefix(cand, "./")
						if c == mod {
							return true
						}
					}
				}
				continue
			}
			names = append(names, from)
			for _, n := range strings.Split(m[2], ",") {
				if fs := strings.Fields(n); len(fs) > 0 {
					names = append(names, from+"."+fs[0])
				}
			}
		}
		for _, m := range r.pyImport.FindAllStringSubmatch(string(b), -1) {
			for _, n := range strings.Split(m[1], ",") {
				if fs := strings.Fields(n); len(fs) > 0 {
					names = append(names, fs[0])
				}
			}
		}
		return slices.ContainsFunc(names, ends)
	case "js":
		noExt := func(p string) string { return strings.TrimSuffix(p, path.Ext(p)) }
		want := noExt(f)
		for _, m := range r.jsPath.FindAllStringSubmatch(string(b), -1) {
			p := m[1]
			if !strings.HasPrefix(p, ".") {
				continue
			}
			got := path.Join(dir, p)
			if got == want || noExt(got) == want || got+"/index" == want || noExt(got)+"/index" == want {
				return true
			}
		}
		return false
	}
	return true
}
