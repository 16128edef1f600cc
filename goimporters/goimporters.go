// Package goimporters finds the Go packages of a repository that import
// given packages of it. The docs gate reads them: a flag's default may be
// another package's exported value (flag.Int("n", limits.N, ...)), so a
// changed value binds the importer's flag.
//
// Round 22 walked the work tree, read only the root go.mod and stopped at
// 5,000 files. Two routes stayed open: a package of a nested module (its
// import path is its own go.mod's, not the root's: the importer was never
// found) and an importer past the 5,000th file (kubernetes with four of its
// staging modules holds 6,553 non-test .go files). Find asks git grep,
// which reads tracked and untracked files in parallel with no cap, and
// names each package by its nearest go.mod.
package goimporters

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// walkCap bounds the files read when git cannot search (not a repository).
const walkCap = 20000

// ImportPath is the quoted import path of folder dir (slash-separated,
// relative to root): its nearest go.mod's module path and the rest, or,
// with no go.mod up to root, `/dir"` (a suffix any module path may lead).
func ImportPath(root, dir string) string {
	d := dir
	for {
		if mod := modulePath(filepath.Join(root, filepath.FromSlash(d), "go.mod")); mod != "" {
			rest := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if d == "." {
				rest = dir
			}
			if rest == "" || rest == "." {
				return `"` + mod + `"`
			}
			return `"` + mod + "/" + rest + `"`
		}
		if d == "." || d == "" {
			break
		}
		d = path.Dir(d)
	}
	if dir == "." {
		return ""
	}
	return "/" + dir + `"`
}

// modulePath reads go.mod's module line ("" when none).
func modulePath(file string) string {
	b, err := boundedread.File(file, boundedread.DefaultLimit)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// skipped: folders whose Go files are no package of the repository's own.
func skipped(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if part == "vendor" || part == "node_modules" || part == "testdata" || strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// Find returns the folders (slash-separated, relative to root) holding a
// non-test Go file that imports one of dirs, and whether the search was
// complete (false: git failed and the walk hit walkCap).
func Find(ctx context.Context, root string, dirs []string) (importers []string, complete bool) {
	var wants []string
	for _, d := range dirs {
		if w := ImportPath(root, d); w != "" {
			wants = append(wants, w)
		}
	}
	if len(wants) == 0 {
		return nil, true
	}
	found := map[string]bool{}
	if files, ok := gitGrep(ctx, root, wants); ok {
		for _, f := range files {
			if !skipped(f) {
				found[path.Dir(f)] = true
			}
		}
	} else if complete = walk(root, wants, found); !complete {
		return sorted(found), false
	}
	return sorted(found), true
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// gitGrep lists the Go files (tracked, and untracked not ignored) holding
// one of wants; false when git could not search.
func gitGrep(ctx context.Context, root string, wants []string) ([]string, bool) {
	args := []string{"-c", "core.quotePath=false", "grep", "-l", "-z", "-F", "--untracked", "-I"}
	for _, w := range wants {
		args = append(args, "-e", w)
	}
	args = append(args, "--", "*.go", ":(exclude)*_test.go", ":(exclude,glob)**/vendor/**", ":(exclude,glob)**/testdata/**", ":(exclude,glob)**/node_modules/**")
	cmd := gitenv.Command(ctx, root, nil, args...)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(interface{ ExitCode() int }); ok && ee.ExitCode() == 1 && len(out) == 0 {
			return nil, true // nothing matched
		}
		return nil, false
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, filepath.ToSlash(f))
		}
	}
	return files, true
}

// walk reads the work tree's Go files up to walkCap; false when it stopped there.
func walk(root string, wants []string, found map[string]bool) bool {
	seen, complete := 0, true
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != root && skipped(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || !d.Type().IsRegular() || found[path.Dir(rel)] {
			return nil
		}
		if seen++; seen > walkCap {
			complete = false
			return filepath.SkipAll
		}
		b, err := boundedread.File(p, boundedread.DefaultLimit)
		if err != nil {
			return nil
		}
		for _, w := range wants {
			if bytes.Contains(b, []byte(w)) {
				found[path.Dir(rel)] = true
				break
			}
		}
		return nil
	})
	return complete
}
