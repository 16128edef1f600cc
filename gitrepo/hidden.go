package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// HiddenFiles lists the tracked files whose work-tree content differs from
// what git would commit or compare, by a means that hides the difference
// from `git status`: the skip-worktree or assume-unchanged flag (`git
// update-index`) on a file whose content differs from its index entry, or
// a clean filter (a filter attribute whose driver is configured) that
// changes the file's content on its way into a commit. Git LFS's own
// driver is not counted: its pointers are how those repositories commit
// large files. Each path maps to how it is hidden.
//
// A sparse checkout's skip-worktree files are absent from the work tree:
// they hide nothing and are not listed.
func (r *Repo) HiddenFiles(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	entries, ok := r.indexFlagged(ctx)
	if !ok {
		var err error
		if entries, err = r.lsFlagged(ctx); err != nil {
			return nil, err
		}
	}
	flagged := map[string]string{} // path -> how
	blob := map[string]string{}
	for p, e := range entries {
		if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p))); err != nil {
			continue // absent (a sparse checkout): nothing hidden
		}
		flagged[p], blob[p] = e.how, e.blob
	}
	if len(flagged) > 0 {
		paths := make([]string, 0, len(flagged))
		for p := range flagged {
			paths = append(paths, p)
		}
		ids, err := r.hashObjects(ctx, paths, true)
		if err != nil {
			return nil, err
		}
		for i, p := range paths {
			if ids[i] != blob[p] {
				out[p] = flagged[p] + " (git update-index) hides its change"
			}
		}
	}
	drivers, err := r.cleanFilters(ctx)
	if err != nil || len(drivers) == 0 {
		return out, err
	}
	ls, err := run(ctx, r.root, "ls-files", "-z")
	if err != nil {
		return nil, fmt.Errorf("list tracked files: %w", err)
	}
	cmd := gitenv.Command(ctx, r.root, nil, "check-attr", "-z", "--stdin", "filter")
	cmd.Stdin = bytes.NewReader(ls)
	attrs, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("read filter attributes: %w", err)
	}
	var filtered []string
	how := map[string]string{}
	lfs := map[string]bool{}
	f := splitZ(attrs)
	for i := 0; i+2 < len(f); i += 3 {
		p, v := f[i], f[i+2]
		if d, ok := drivers[v]; ok {
			if fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p))); err == nil {
				if d == lfsDriver && (!fi.Mode().IsRegular() || fi.Size() > lfsCheckMax) {
					continue // an asset, not code: Git LFS trusted (lfsptr.go)
				}
				lfs[p] = d == lfsDriver
				filtered = append(filtered, p)
				how[p] = fmt.Sprintf("clean filter %q (%s) changes what is committed", v, d)
			}
		}
	}
	if len(filtered) == 0 {
		return out, nil
	}
	raw, err := r.hashObjects(ctx, filtered, true)
	if err != nil {
		return nil, err
	}
	clean, err := r.hashObjects(ctx, filtered, false)
	if err != nil {
		return nil, err
	}
	for i, p := range filtered {
		if raw[i] == clean[i] {
			continue
		}
		if lfs[p] {
			ok, err := r.lfsPointerOf(p, clean[i])
			if err != nil {
				return nil, err
			}
			if ok {
				continue // Git LFS stored a pointer to the file's own bytes
			}
			out[p] = "Git LFS's clean filter (filter.lfs.clean) stored something other than a pointer to the file's bytes: the git-lfs that ran is not Git LFS, and the commit does not hold what the tests read"
			continue
		}
		out[p] = how[p]
	}
	return out, nil
}

// lsFlagged is indexFlagged asked of git, for the indexes that reader
// does not take.
func (r *Repo) lsFlagged(ctx context.Context) (map[string]flaggedEntry, error) {
	b, err := run(ctx, r.root, "ls-files", "-v", "-s", "-z")
	if err != nil {
		return nil, fmt.Errorf("list flagged index entries: %w", err)
	}
	out := map[string]flaggedEntry{}
	for _, e := range splitZ(b) {
		// "T MODE OID STAGE\tPATH": T is S for skip-worktree, lower case for assume-unchanged.
		meta, p, ok := strings.Cut(e, "\t")
		if !ok || len(meta) < 2 {
			continue
		}
		how := ""
		switch t := meta[0]; {
		case t == 'S' || t == 's':
			how = "skip-worktree"
		case t >= 'a' && t <= 'z':
			how = "assume-unchanged"
		default:
			continue
		}
		f := strings.Fields(meta)
		if len(f) < 3 {
			continue
		}
		out[p] = flaggedEntry{how: how, blob: f[2]}
	}
	return out, nil
}

// cleanFiltersFromGit is cleanFilters asked of git.
func (r *Repo) cleanFiltersFromGit(ctx context.Context) (map[string]string, error) {
	cmd := gitenv.Command(ctx, r.root, nil, "config", "-z", "--get-regexp", `^filter\..*\.(clean|process)$`)
	// GIT_CONFIG points `git config` alone at another file: with
	// GIT_CONFIG=/dev/null on the commit, git config listed no driver while
	// the commit still ran the repository's clean filter.
	cmd.Env = slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_CONFIG=") })
	b, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return nil, nil // none configured
	}
	if err != nil {
		return nil, fmt.Errorf("read filter drivers: %w", err)
	}
	out := map[string]string{}
	for _, e := range splitZ(b) {
		key, val, _ := strings.Cut(e, "\n")
		name := strings.TrimPrefix(key, "filter.")
		kind := name[strings.LastIndexByte(name, '.')+1:]
		name = name[:strings.LastIndexByte(name, '.')]
		if strings.HasPrefix(val, "git-lfs ") && name == "lfs" {
			out[name] = lfsDriver // judged by what it stores (lfsptr.go)
			continue
		}
		out[name] = "filter." + name + "." + kind
	}
	return out, nil
}

// hashObjects is `git hash-object` of work-tree paths, with the clean
// filters and conversions a commit applies, or without (noFilters).
func (r *Repo) hashObjects(ctx context.Context, paths []string, noFilters bool) ([]string, error) {
	args := []string{"hash-object", "--stdin-paths"}
	if noFilters {
		args = append(args, "--no-filters")
	}
	// --stdin-paths takes a path a line and has no -z: a path holding a
	// line break (one file name to git) is hashed as an argument.
	var lines []string
	for _, p := range paths {
		if !strings.ContainsAny(p, "\n\r") {
			lines = append(lines, p)
		}
	}
	byLine := map[string]string{}
	if len(lines) > 0 {
		cmd := gitenv.Command(ctx, r.root, nil, args...)
		cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
		b, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("hash work-tree files: %w", err)
		}
		ids := strings.Fields(string(b))
		if len(ids) != len(lines) {
			return nil, fmt.Errorf("hash work-tree files: %d ids for %d paths", len(ids), len(lines))
		}
		for i, p := range lines {
			byLine[p] = ids[i]
		}
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		if id, ok := byLine[p]; ok {
			out[i] = id
			continue
		}
		one := []string{"hash-object"}
		if noFilters {
			one = append(one, "--no-filters")
		}
		b, err := run(ctx, r.root, append(one, "--", p)...)
		if err != nil {
			return nil, fmt.Errorf("hash work-tree file %q: %w", p, err)
		}
		out[i] = strings.TrimSpace(string(b))
	}
	return out, nil
}
