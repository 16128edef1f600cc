// Package writereach decides whether what a shell line writes can reach a
// protected file or the git directory when the line does not name it
// literally: a glob (`sed -i ... SESSION-PROTO*.md`), a variable set on
// the line (`f=SESSION-PROTOCOL; sed -i ... $f.md`), a symlink to the
// work tree's root, to .git or to a protected file (`ln -s . self; find
// self/ -delete`), made earlier or on the same line, or a hard link to a
// protected file. It needs no session: the agent hook (session/agent.go)
// asks it after the literal checks.
package writereach

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/protect"
	"github.com/sessiongate/sessiongate/shellline"
)

// maxGlobMatches bounds the files one glob is expanded to on disk: the
// hook runs once per tool call.
const maxGlobMatches = 2000

// gitPaths are the git directory's files a pattern may name that no
// protected pattern lists: its hooks, config and sessiongate's records.
var gitPaths = []string{
	".git", ".git/config", ".git/hooks", ".git/hooks/pre-commit", ".git/hooks/commit-msg",
	".git/hooks/post-commit", ".git/hooks/pre-push", ".git/hooks/prepare-commit-msg",
	".git/sessiongate", ".git/sessiongate/sessiongate.db", ".git/sessiongate/sessiongate.db-wal",
	".git/sessiongate/sessiongate.db-shm", ".git/info/attributes", ".git/info/exclude",
}

// memo holds what one Check reads from disk more than once: the root
// through its links, each folder's real path, the protected files' stats.
type memo struct {
	root, realRoot string
	dirs           map[string]string
	prot           map[string]os.FileInfo
}

func newMemo(root string) *memo {
	return &memo{root: root, realRoot: realPath(root), dirs: map[string]string{}}
}

// Hit is a protected file or git-directory path a write reaches.
type Hit struct {
	Rel    string // worktree-relative, slashes
	GitDir bool   // in .git, not a protected file
	How    string // the operand as the line wrote it, and the route
}

// Check names the first protected or git-directory path that writes
// (the line's literal written paths, relative to dir or absolute, with a
// trailing slash as written) reach through a symlink or hard link, or
// that targets (globs and variables) can name; nil when none. patterns
// are the protected paths (protect.Paths), root the worktree, dir the
// folder the line runs in (absolute).
//
// A link as the last part of a path is followed into as a folder only
// when the path ends in a slash (`find self/ -delete`, `rm -rf self/`):
// `rm self` removes the link, not what it names. A link the line makes
// is followed for a path the line writes again after `ln` wrote it.
func Check(patterns []string, root, dir string, writes []string, targets []shellline.Target, links []shellline.Link) *Hit {
	if dir == "" {
		dir = root
	}
	m := newMemo(root)
	seen := map[string]int{}
	for _, w := range writes {
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		seen[p]++
		asDir := strings.HasSuffix(w, "/") || strings.HasSuffix(w, "/.") || w == "."
		for _, f := range forms(m, patterns, dir, p, links, asDir, seen[p]) {
			if h := judge(patterns, f, w); h != nil {
				return h
			}
		}
		if rel := m.hardLinked(patterns, p); rel != "" {
			return &Hit{Rel: rel, How: w + " (a hard link of " + rel + ")"}
		}
	}
	for _, t := range targets {
		if h := checkTarget(m, patterns, dir, t, links); h != nil {
			return h
		}
	}
	return nil
}

// judge says whether a form names a protected file, holds one (a folder
// form), or lies in the git directory.
func judge(patterns []string, f form, how string) *Hit {
	if f.via == "" {
		return nil // as written: the literal checks judged it
	}
	rel := f.rel
	low := strings.ToLower(rel)
	switch {
	case low == ".git" && f.asDir || strings.HasPrefix(low, ".git/"):
		return &Hit{Rel: rel, GitDir: true, How: how + f.via}
	case protect.Match(patterns, rel) || f.asDir && protect.Below(patterns, rel):
		return &Hit{Rel: rel, How: how + f.via}
	}
	return nil
}

// checkTarget matches a glob or variable operand against every protected
// path (and the folders holding them, and the git directory's files),
// existing or not, then expands it on disk and follows links from there.
func checkTarget(m *memo, patterns []string, dir string, t shellline.Target, links []shellline.Link) *Hit {
	root := m.root
	for _, c := range candidates(patterns) {
		abs := filepath.Join(root, filepath.FromSlash(c))
		name := abs
		if !t.Abs {
			name = relTo(dir, abs)
		}
		if t.Match(filepath.ToSlash(name)) {
			if h := judge(patterns, form{c, " (can name " + c + ")", true}, t.Text); h != nil {
				return h
			}
		}
	}
	if t.Glob == "" {
		return nil
	}
	g := t.Glob
	if !t.Abs {
		g = filepath.Join(globEscape(dir), g)
	}
	matches, err := filepath.Glob(g)
	if err != nil {
		return nil
	}
	if len(matches) > maxGlobMatches {
		matches = matches[:maxGlobMatches]
	}
	for _, match := range matches {
		name := match
		if !t.Abs {
			name = relTo(dir, match)
		}
		if !t.Match(filepath.ToSlash(name)) {
			continue // filepath.Glob's * matches a leading dot; the shell's does not
		}
		for _, f := range forms(m, patterns, dir, match, links, false, 0) {
			if f.via == "" {
				f.via = " (as " + filepath.ToSlash(relTo(root, match)) + ")"
			}
			if h := judge(patterns, f, t.Text+" matching "+filepath.ToSlash(relTo(root, match))); h != nil {
				return h
			}
		}
		if rel := m.hardLinked(patterns, match); rel != "" {
			return &Hit{Rel: rel, How: t.Text + " (matches a hard link of " + rel + ")"}
		}
	}
	return nil
}

// candidates are the paths a pattern is matched against: each protected
// path (a glob one by a sample name), the folders holding them, and the
// git directory's files.
func candidates(patterns []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if p != "" && p != "." && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sample := strings.NewReplacer("**", "x", "*", "x", "?", "x")
	for _, p := range patterns {
		s := sample.Replace(p)
		if i := strings.IndexByte(s, '['); i >= 0 {
			s = s[:i] + "x"
		}
		for d := s; d != "." && d != "/" && d != ""; d = path.Dir(d) {
			add(d)
		}
	}
	for _, p := range gitPaths {
		add(p)
	}
	return out
}

// form is one reading of a written path: through links on disk or made
// on the line.
type form struct {
	rel   string // worktree-relative, slashes
	via   string // how it was reached, for messages ("" as written)
	asDir bool   // the write reaches into it as a folder (rm -r, find -delete)
}

// forms reads the absolute path p as written, through the links its
// existing part holds, and through the links the line itself makes
// (`ln -s . self && find self/ -delete`): the worktree paths it may
// name. asDir: the path was written with a trailing slash, so a link as
// its last part is followed as a folder; nth: p is the line's nth write
// of that path (the ln that makes a link is one, unless its target is
// built: Link.Built), so a later write goes through the link.
func forms(m *memo, patterns []string, dir, p string, links []shellline.Link, asDir bool, nth int) []form {
	var out []form
	root := m.root
	addIn := func(q, via string, whole bool) {
		for _, r := range []string{root, m.realRoot} {
			if rel := relTo(r, q); rel != "" && filepath.IsLocal(rel) || rel == "." {
				out = append(out, form{filepath.ToSlash(rel), via, whole})
				return
			}
		}
	}
	addIn(p, "", true)
	follow := func(q, via string) {
		// The folders above the last part, followed always.
		parent := m.resolveDir(filepath.Dir(q))
		last := filepath.Join(parent, filepath.Base(q))
		if last != q {
			addIn(last, via, true)
		}
		if fi, err := os.Lstat(last); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			if real, err := filepath.EvalSymlinks(last); err == nil {
				addIn(real, via, asDir)
			}
		}
	}
	follow(p, " (through a symlink)")
	for _, l := range links {
		name := l.Name
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		name = filepath.Clean(name)
		rest, ok := strings.CutPrefix(p, name)
		switch {
		case !ok || rest != "" && !strings.HasPrefix(rest, string(filepath.Separator)):
			continue
		case rest == "" && nth < 2 && !(l.Built && nth == 1), l.Hard && rest != "":
			continue // the ln's own operand, or a path below a file
		}
		target := l.Target
		if target == "" {
			// A link to a folder the line does not name ("$PWD", $(pwd)):
			// what is written below it may be any file of that name.
			via := " (through the link " + l.Name + " to a folder the line does not name)"
			switch {
			case rest == "" && asDir:
				addIn(root, via, true)
			case rest != "":
				r := filepath.ToSlash(strings.TrimPrefix(rest, string(filepath.Separator)))
				for _, c := range candidates(patterns) {
					if strings.EqualFold(c, r) || strings.HasSuffix(strings.ToLower(c), "/"+strings.ToLower(r)) {
						out = append(out, form{c, via, true})
					}
				}
			}
			continue
		}
		if !filepath.IsAbs(target) {
			base := filepath.Dir(name)
			if l.Hard {
				base = dir // a hard link's target is read from where ln runs
			}
			target = filepath.Join(base, target)
		}
		q := filepath.Join(target, rest)
		via := " (through the link " + l.Name + " the line makes)"
		addIn(q, via, rest != "" || asDir)
		follow(q, via)
	}
	return out
}

// resolveDir is resolvePrefix of a folder, once per folder.
func (m *memo) resolveDir(d string) string {
	if r, ok := m.dirs[d]; ok {
		return r
	}
	r := resolvePrefix(d)
	m.dirs[d] = r
	return r
}

// resolvePrefix follows the symlinks of the longest existing part of p.
func resolvePrefix(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// hardLinked is the protected file p is a hard link of, "" when none: a
// write to one is a write to the other.
func (m *memo) hardLinked(patterns []string, p string) string {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	if m.prot == nil {
		m.prot = map[string]os.FileInfo{}
		for _, pat := range patterns {
			if strings.ContainsAny(pat, "*?[") {
				continue
			}
			if pf, err := os.Stat(filepath.Join(m.root, filepath.FromSlash(pat))); err == nil {
				m.prot[pat] = pf
			}
		}
	}
	for pat, pf := range m.prot {
		if os.SameFile(fi, pf) {
			return pat
		}
	}
	return ""
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// relTo is p relative to base ("" when it cannot be).
func relTo(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return ""
	}
	return rel
}

// globEscape quotes the characters filepath.Glob reads as a pattern.
func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(s)
}
