// Package globcopy finds where a copy into a folder whose source is a
// glob (shellline.GlobCopies: `cp -r tpl/* .`) lands, expanding the glob
// on disk as the shell will. It needs no session: the agent hook
// (session) judges each landing place.
package globcopy

import (
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// MaxMatches bounds the matches of one copy's source glob looked at.
const MaxMatches = 10000

// Landing is one match of a copy's glob and where it lands.
type Landing struct {
	Pattern string // the copy's source glob, as the line wrote it
	Into    string // the folder it copies into, slash-separated and relative to the work tree
	Match   string // the match, absolute
	Dst     string // where the match lands, absolute: Into/base(Match)
}

// Landings lists, for lines (a line and the lines it runs: eval, sh -c),
// each match of a glob copy's source and where it lands, in order; dir is
// the folder the line runs in, root the work tree. Copies into a folder
// outside the work tree are left out. As in the shell, `*` does not match
// a leading dot.
func Landings(root, dir string, lines []string) []Landing {
	var gcs []shellline.GlobCopy
	for _, l := range lines {
		gcs = append(gcs, shellline.GlobCopies(l)...)
	}
	if len(gcs) == 0 {
		return nil
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, filepath.FromSlash(p))
	}
	var out []Landing
	for _, gc := range gcs {
		into, ok := inside(root, abs(gc.Dir))
		if !ok {
			continue // lands outside the work tree
		}
		ms, err := filepath.Glob(abs(gc.Pattern))
		if err != nil {
			continue
		}
		dotted := strings.HasPrefix(filepath.Base(gc.Pattern), ".")
		for i, m := range ms {
			if i >= MaxMatches {
				break
			}
			base := filepath.Base(m)
			if strings.HasPrefix(base, ".") && !dotted {
				continue // the shell's * skips it
			}
			out = append(out, Landing{Pattern: gc.Pattern, Into: into, Match: m, Dst: filepath.Join(root, filepath.FromSlash(into), base)})
		}
	}
	return out
}

// inside returns p relative to root, slash-separated, when it is in the
// work tree.
func inside(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
