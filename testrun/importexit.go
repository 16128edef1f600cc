package testrun

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/goinitexit"
	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// importedInitExits: Go files the session changed that now import a
// package of the module (one the session did not change; goInitExitsAdded
// reads those) whose initialisation ends the process: `import _
// "mod/internal/boot"` in a test file, boot's init() exiting 0 under go
// test, makes `go test` print ok for the package without a test run
// (round 19 left it open). The imported package's own files, and since
// round 21 the module packages it imports in turn (importexitdeep.go). An
// import the file had at the start is not the session's.
func importedInitExits(ctx context.Context, repo Repo, start string, changed []string, look goinitexit.Env) ([]string, error) {
	mod := modulePath(repo.Root())
	if mod == "" {
		return nil, nil
	}
	changedDir := map[string]bool{}
	for _, f := range changed {
		if strings.HasSuffix(f, ".go") {
			changedDir[path.Dir(f)] = true
		}
	}
	var out []string
	seen := map[string]string{}                   // package folder -> its exit ("" none)
	walk := newImportWalk(repo.Root(), mod, look) // importexitdeep.go
	for _, f := range changed {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		now, err := readWork(repo.Root(), f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		existed, err := repo.ExistsAt(ctx, start, f)
		if err != nil {
			return nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
		}
		had := map[string]bool{}
		if existed {
			was, err := repo.ReadAt(ctx, start, f)
			if err != nil {
				return nil, fmt.Errorf("read %s at the start commit: %w", f, err)
			}
			for _, p := range goImports(was) {
				had[p] = true
			}
		}
		for _, p := range goImports(now) {
			dir, ok := strings.CutPrefix(p, mod+"/")
			if had[p] || !ok || changedDir[dir] {
				continue
			}
			e, done := seen[dir]
			if !done {
				if e, err = walk.exitLinked(dir); err != nil {
					return nil, err
				}
				seen[dir] = e
			}
			if e != "" {
				out = append(out, f+": imports "+p+", whose "+e+" while the package initialises, which a test binary does before any test: go test prints ok without running them (take the import or the exit out)")
				break
			}
		}
	}
	return out, nil
}

// modulePath is the module line of root's go.mod ("" when none).
func modulePath(root string) string {
	b, err := boundedread.File(filepath.Join(root, "go.mod"), boundedread.DefaultLimit)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			if p, err := strconv.Unquote(strings.TrimSpace(rest)); err == nil {
				return p
			}
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// goImports are src's import paths (none when it does not parse).
func goImports(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	var out []string
	for _, im := range f.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// packageInitExit is the first exit at initialisation in the package
// folder dir (its non-test files, read with each other's helpers), as
// "file: init() calls os.Exit(0)"; "" when none.
func packageInitExit(root, dir string, look goinitexit.Env) (string, error) {
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("list the Go files of %s: %w", dir, err)
	}
	srcs := map[string][]byte{}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := boundedread.File(filepath.Join(root, filepath.FromSlash(dir), n), maxInput)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", path.Join(dir, n), err)
		}
		srcs[n] = b
		names = append(names, n)
	}
	sort.Strings(names)
	h := map[string]string{}
	for pass := 0; pass < 3; pass++ {
		for _, n := range names {
			for k, v := range goinitexit.HelpersWith(srcs[n], h) {
				h[k] = v
			}
		}
	}
	for _, n := range names {
		if e := goinitexit.ExitsIn(srcs[n], h, look); len(e) > 0 {
			return path.Join(dir, n) + ": " + e[0], nil
		}
	}
	return "", nil
}
