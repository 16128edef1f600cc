package agenthook

import (
	"os"
	"path/filepath"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
)

// gitDirWrite says why a tool call writes into the repository's git
// directory through a symlink ("" when it does not). The engine denies a
// write whose path names .git; a link made first (`ln -s .git/sessiongate
// lnk`, then `sqlite3 lnk/sessiongate.db "DELETE FROM violations"`, or `ln
// -s .git/hooks/pre-commit p` and a Write of p) named no .git: the
// adversarial pass of issue 25 got both through. Paths are resolved as far
// as they exist.
func gitDirWrite(ev *Event, dir string, repo *gitrepo.Repo) string {
	paths, _ := eventWrites(ev)
	if len(paths) == 0 {
		return ""
	}
	var gitDirs []string
	for _, d := range []string{repo.GitDir(), repo.CommonDir()} {
		if d == "" {
			continue
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		gitDirs = append(gitDirs, d)
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		real := resolveExisting(filepath.Clean(p))
		for _, d := range gitDirs {
			if rel, err := filepath.Rel(d, real); err == nil && (rel == "." || filepath.IsLocal(rel)) {
				return "sessiongate: " + ev.Tool.Name + " writes " + real + " (through " + p + "): the git directory holds the hooks, the config and sessiongate's records, so the agent being policed may not change it"
			}
		}
	}
	return ""
}

// resolveExisting resolves the symlinks of the longest part of p that
// exists and keeps the rest as written.
func resolveExisting(p string) string {
	rest := ""
	for i := 0; i < 64; i++ {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		} else if t, lerr := os.Readlink(p); lerr == nil {
			// A dangling link: where it points, resolved as far as that exists.
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(p), t)
			}
			p = filepath.Clean(t)
			continue
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
	return filepath.Join(p, rest)
}

// eventWrites lists the paths a tool call names as written: an edit's
// paths, a shell line's literal write targets and its named paths. ok is
// false for a tool that writes nothing.
func eventWrites(ev *Event) (paths []string, ok bool) {
	switch ev.Tool.Kind {
	case session.ToolEdit, session.ToolOther:
		return ev.Tool.Paths, true
	case session.ToolShell:
		ps, _ := ev.shellWrites()
		return append(ps, ev.Tool.Paths...), true
	}
	return nil, false
}
