package gitrepo

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxNestedFiles bounds how many files are listed under one folder git
// does not look into.
const maxNestedFiles = 10000

// expandFolders replaces each listed path that is a folder in the work
// tree by the files under it. git lists a nested repository (a folder with
// a .git of its own) as one entry, "greet/" when untracked, "greet" when
// added as a gitlink, and never looks inside: a greet/__init__.py there is
// a package Python imports before greet.py, and the rules that judge a QA
// run by the files it reads (untracked files, skips added) saw a folder,
// or failed to read it as a file. .git folders and files are left out;
// links are listed, not followed. statAll: also stat the paths without a
// trailing slash (a gitlink), for the short lists of a session's changes.
func (r *Repo) expandFolders(paths []string, statAll bool) []string {
	var out []string
	for _, p := range paths {
		dir := strings.HasSuffix(p, "/")
		if !dir && statAll {
			fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p)))
			dir = err == nil && fi.IsDir()
		}
		if !dir {
			out = append(out, p)
			continue
		}
		out = append(out, r.filesUnder(strings.TrimSuffix(p, "/"))...)
	}
	return out
}

// filesUnder lists the files under the work tree's folder rel, as paths
// relative to the root, .git left out, at most maxNestedFiles.
func (r *Repo) filesUnder(rel string) []string {
	var out []string
	base := filepath.Join(r.root, filepath.FromSlash(rel))
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: what cannot be read cannot be run either
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if len(out) >= maxNestedFiles {
			return filepath.SkipAll
		}
		if r, err := filepath.Rel(base, p); err == nil {
			out = append(out, rel+"/"+filepath.ToSlash(r))
		}
		return nil
	})
	return out
}
