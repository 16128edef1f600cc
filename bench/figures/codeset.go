package figures

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Code finds the code under figures in one checkout. A figure's code is
// its Paths plus the folders of the module's own packages that its
// Programs and Benchmarks depend on, as `go list -deps` sees them, so a
// package added on a figure's path makes it stale by itself (a hand-kept
// list missed the packages added since it was written). One Code is one
// run: each distinct `go list` is run once and kept.
type Code struct {
	Root  string
	lists map[string][]string
}

// NewCode is a Code for the checkout at root.
func NewCode(root string) *Code { return &Code{Root: root, lists: map[string][]string{}} }

// Paths is the code under f, repository-relative and sorted: f.Paths,
// and the folder of every package of this module that f.Programs (their
// non-test code) or f.Benchmarks (with their tests: a benchmark is a
// test) depend on, the entries included.
func (c *Code) Paths(ctx context.Context, f Figure) ([]string, error) {
	set := slices.Clone(f.Paths)
	for _, l := range []struct {
		test bool
		args []string
	}{{false, f.Programs}, {true, f.Benchmarks}} {
		// go list takes packages or one program's files, not both.
		var pkgs, files []string
		for _, a := range l.args {
			if strings.HasSuffix(a, ".go") {
				files = append(files, a)
			} else {
				pkgs = append(pkgs, a)
			}
		}
		for _, args := range [][]string{pkgs, files} {
			if len(args) == 0 {
				continue
			}
			dirs, err := c.deps(ctx, l.test, args)
			if err != nil {
				return nil, fmt.Errorf("figure %s: %w", f.Name, err)
			}
			set = append(set, dirs...)
		}
	}
	slices.Sort(set)
	return slices.Compact(set), nil
}

// deps runs go list -deps once per distinct argument list. The platform
// is fixed (linux/amd64, the machine the figures are measured on) and
// GOFLAGS cleared, so the set does not depend on who runs check where.
func (c *Code) deps(ctx context.Context, test bool, pkgs []string) ([]string, error) {
	args := []string{"list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.ImportPath}}\t{{.Dir}}{{end}}{{end}}"}
	if test {
		args = append(args, "-test")
	}
	args = append(args, pkgs...)
	key := strings.Join(args, "\x00")
	if dirs, ok := c.lists[key]; ok {
		return dirs, nil
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = c.Root
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %v: %s", strings.Join(pkgs, " "), err, strings.TrimSpace(stderr.String()))
	}
	root, err := filepath.Abs(c.Root)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, fmt.Errorf("go list -deps: %w", err)
	}
	var dirs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, d, _ := strings.Cut(line, "\t")
		if d == "" || path == "command-line-arguments" {
			// The generated test main has no folder; a program named by
			// its files (bench/seed.go) is those files, not their folder:
			// the figure lists them in Paths.
			continue
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		rel, err := filepath.Rel(root, d)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fmt.Errorf("go list -deps %s: package folder %s is outside the checkout %s", strings.Join(pkgs, " "), d, c.Root)
		}
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	c.lists[key] = dirs
	return dirs, nil
}

// At is what a result records of the code a run measured at rev (HEAD
// for a run now): the object id of each path under f there, the paths
// with uncommitted changes in the work tree, and the commit, so that a
// package added to f's code later is looked up at that commit.
func (c *Code) At(ctx context.Context, f Figure, rev string) (trees map[string]string, dirty []string, commit string, err error) {
	paths, err := c.Paths(ctx, f)
	if err != nil {
		return nil, nil, "", err
	}
	b, err := git(ctx, c.Root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, nil, "", fmt.Errorf("figure %s: commit %q: %w", f.Name, rev, err)
	}
	commit = strings.TrimSpace(string(b))
	trees, dirty, err = TreesAt(ctx, c.Root, commit, paths)
	return trees, dirty, commit, err
}

// Stale lists the code under f whose git object id in HEAD differs from
// the one r was measured at, the paths that had uncommitted changes then,
// and, in one entry, the paths under f that r has no id for (the code set
// grew since: a new package on the figure's path). A result that names its
// commit has those looked up there instead. nil means r still describes
// this code.
func (c *Code) Stale(ctx context.Context, f Figure, r Result) ([]string, error) {
	paths, err := c.Paths(ctx, f)
	if err != nil {
		return nil, err
	}
	now, _, err := Trees(ctx, c.Root, paths)
	if err != nil {
		return nil, err
	}
	was := r.Trees
	var unrecorded []string
	for _, p := range paths {
		if _, ok := was[p]; !ok {
			unrecorded = append(unrecorded, p)
		}
	}
	if len(unrecorded) > 0 && r.Commit != "" {
		then, err := treeIDs(ctx, c.Root, r.Commit, unrecorded)
		if err != nil {
			return nil, fmt.Errorf("figure %s: the code at its commit: %w", f.Name, err)
		}
		was = maps(was, then)
		unrecorded = nil
	}
	own := benchDirs(f)
	var changed []string
	for _, p := range paths {
		id, ok := was[p]
		if !ok || id == now[p] {
			continue
		}
		// A change to a package's tests alone leaves the code a figure
		// runs as it was (a dependency is compiled without its
		// _test.go files), unless it is a benchmark's own package. Paths
		// the figure names itself (scripts, go.sum) count whole.
		if id != "" && now[p] != "" && !slices.Contains(f.Paths, p) &&
			!slices.ContainsFunc(own, func(d string) bool { return d == p || d == "." || strings.HasPrefix(p, d+"/") }) {
			only, err := testsOnly(ctx, c.Root, id, now[p])
			if err != nil {
				return nil, fmt.Errorf("figure %s: %s: %w", f.Name, p, err)
			}
			if only {
				continue
			}
		}
		changed = append(changed, p)
	}
	for _, d := range r.Dirty {
		if !slices.Contains(changed, d) {
			changed = append(changed, d+" (uncommitted when measured)")
		}
	}
	if len(unrecorded) > 0 {
		changed = append(changed, fmt.Sprintf("%d paths not recorded when measured (%s)", len(unrecorded), strings.Join(unrecorded, ", ")))
	}
	return changed, nil
}

// benchDirs is the folder of each of f.Benchmarks' own packages, whose
// test files are the benchmark.
func benchDirs(f Figure) []string {
	var dirs []string
	for _, b := range f.Benchmarks {
		d := filepath.ToSlash(filepath.Clean(strings.TrimPrefix(b, "./")))
		if strings.HasSuffix(d, "/...") || d == "..." {
			// A pattern: every package under it is its own.
			d = strings.TrimSuffix(strings.TrimSuffix(d, "..."), "/")
			if d == "" {
				d = "."
			}
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// testsOnly says whether two versions of a folder (tree ids) differ only
// in Go test files.
func testsOnly(ctx context.Context, root, was, now string) (bool, error) {
	b, err := git(ctx, root, "diff-tree", "-r", "--name-only", "--no-renames", was, now)
	if err != nil {
		return false, err
	}
	names := strings.Fields(string(b))
	if len(names) == 0 {
		return false, nil
	}
	for _, n := range names {
		if !strings.HasSuffix(n, "_test.go") {
			return false, nil
		}
	}
	return true, nil
}

func maps(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// treeIDs is the git object id of each path at rev, "" for a path rev
// does not have, from one git cat-file (ls-tree would list a folder's
// contents when a path under it is named too).
func treeIDs(ctx context.Context, root, rev string, paths []string) (map[string]string, error) {
	out := make(map[string]string, len(paths))
	if len(paths) == 0 {
		return out, nil
	}
	var in strings.Builder
	for _, p := range paths {
		if strings.ContainsAny(p, "\n\r") {
			return nil, fmt.Errorf("path %q: a newline in a path", p)
		}
		if p == "." {
			p = "" // rev: is the whole tree
		}
		in.WriteString(rev + ":" + p + "\n")
	}
	cmd := exec.CommandContext(ctx, "git", "cat-file", "--batch-check=%(objectname)")
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != len(paths) {
		return nil, fmt.Errorf("git cat-file: %d answers for %d paths", len(lines), len(paths))
	}
	for i, p := range paths {
		if id := lines[i]; !strings.HasSuffix(id, " missing") && !strings.Contains(id, " ") {
			out[p] = id
		} else {
			out[p] = ""
		}
	}
	return out, nil
}
