package testrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessiongate/sessiongate/goinitexit"
)

// goInitExitsAdded: Go packages the session changed that now end the
// process, or rewrite os.Args, while they initialise (goinitexit), which
// a test binary does before any test: `go test` prints "ok" for the
// package and every package importing it with no test run, or runs the
// tests os.Args names (lazy-agent pass 19). A package is read whole, so an
// init() calling a helper of another file is read through it, and so is
// an unchanged init() whose helper the session made exit. Files the
// session did not change are read once, from the work tree: they are the
// same at the start.
//
// env is the run's environment (nil: this process's): an exit under the
// helper-process idiom's guard the run does not meet is not run by it
// (goinitexit.ExitsIn).
func goInitExitsAdded(ctx context.Context, repo Repo, start string, changed []string, env LookupEnv) ([]string, error) {
	look := goinitexit.Env(os.LookupEnv)
	if env != nil {
		look = goinitexit.Env(env)
	}
	changedIn := map[string][]string{} // folder -> changed .go files
	isChanged := map[string]bool{}
	for _, f := range changed {
		if strings.HasSuffix(f, ".go") {
			changedIn[path.Dir(f)] = append(changedIn[path.Dir(f)], f)
			isChanged[f] = true
		}
	}
	dirs := make([]string, 0, len(changedIn))
	for d := range changedIn {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var out []string
	for _, dir := range dirs {
		files := map[string]bool{}
		for _, f := range changedIn[dir] {
			files[f] = true
		}
		ents, err := os.ReadDir(filepath.Join(repo.Root(), filepath.FromSlash(dir)))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("list the Go files of %s: %w", dir, err)
		}
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				files[path.Join(dir, e.Name())] = true
			}
		}
		names := make([]string, 0, len(files))
		for f := range files {
			names = append(names, f)
		}
		sort.Strings(names)
		was, now := map[string][]byte{}, map[string][]byte{}
		for _, f := range names {
			b, err := readWork(repo.Root(), f)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("read %s: %w", f, err)
			}
			now[f] = b
			if !isChanged[f] {
				was[f] = b
				continue
			}
			existed, err := repo.ExistsAt(ctx, start, f)
			if err != nil {
				return nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
			}
			if existed {
				if was[f], err = repo.ReadAt(ctx, start, f); err != nil {
					return nil, fmt.Errorf("read %s at the start commit: %w", f, err)
				}
			}
		}
		helpers := func(srcs map[string][]byte) map[string]string {
			h := map[string]string{}
			// Each pass follows a helper chain one file further (a.go's
			// setup calls b.go's bail); three reach most packages' chains.
			for pass := 0; pass < 3; pass++ {
				n := len(h)
				for _, f := range names {
					for k, v := range goinitexit.HelpersWith(srcs[f], h) {
						h[k] = v
					}
				}
				if pass > 0 && len(h) == n {
					break
				}
			}
			return h
		}
		hWas, hNow := helpers(was), helpers(now)
		for _, f := range names {
			if now[f] == nil {
				continue // deleted
			}
			had := map[string]int{}
			for _, e := range goinitexit.ExitsIn(was[f], hWas, look) {
				had[e]++
			}
			for _, e := range goinitexit.ExitsIn(now[f], hNow, look) {
				if had[e] > 0 {
					had[e]--
					continue
				}
				out = append(out, f+": "+e+" while the package initialises, which a test binary does before any test: go test prints ok without running them, or runs only the tests it names (move it into main(), or take it out)")
				break
			}
		}
	}
	imported, err := importedInitExits(ctx, repo, start, changed, look) // importexit.go
	if err != nil {
		return nil, err
	}
	return append(out, imported...), nil
}
