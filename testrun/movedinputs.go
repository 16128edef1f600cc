package testrun

import (
	"context"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// movedInputs maps a file the session added to the file it deleted that it
// replaces (`git mv scripts/greet.sh scripts/hello.sh`, perhaps edited in
// the move). An honest rename with its callers updated changed every
// line naming the old path, which read as checks removed (round 21's
// TestHonestOrdinaryTasks). Paired, the new file is judged against its
// old self and the old path reads as the new one in what the start
// commit held: gutting a file in the move, or changing a caller beyond
// the name, still weakens.
type movedInputs map[string]string

// pairRenames pairs the inputs deleted in the session with the ones added
// by the lines they share (at least half of the longer file's), best
// pairs first, as git's rename detection does by similarity.
func pairRenames(ctx context.Context, repo Repo, start string, files []file) movedInputs {
	type body struct {
		path  string
		lines map[string]int
		n     int
	}
	read := func(b []byte) (map[string]int, int) {
		m, n := map[string]int{}, 0
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				m[l]++
				n++
			}
		}
		return m, n
	}
	var gone, came []body
	for _, f := range files {
		if f.section != "" || isConfig(f.path) || f.setup {
			continue
		}
		was, errWas := repo.ReadAt(ctx, start, f.path)
		now, errNow := readWork(repo.Root(), f.path)
		switch {
		case errWas == nil && errNow != nil && os.IsNotExist(errNow):
			m, n := read(was)
			gone = append(gone, body{f.path, m, n})
		case errWas != nil && errNow == nil:
			if ok, err := repo.ExistsAt(ctx, start, f.path); err == nil && !ok && !BinaryContent(now) {
				m, n := read(now)
				came = append(came, body{f.path, m, n})
			}
		}
	}
	if len(gone) == 0 || len(came) == 0 {
		return nil
	}
	type pair struct {
		g, c  string
		share float64
	}
	var pairs []pair
	for _, g := range gone {
		for _, c := range came {
			common := 0
			for l, k := range g.lines {
				common += min(k, c.lines[l])
			}
			switch d := max(g.n, c.n); {
			case d > 0 && 2*common >= d:
				pairs = append(pairs, pair{g.path, c.path, float64(common) / float64(d)})
			case callerFollows(ctx, repo, start, files, g.path, c.path):
				// Rewritten in the move, but a caller now names the new
				// path where it named the old: judged as an edit.
				pairs = append(pairs, pair{g.path, c.path, 0})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].share > pairs[j].share })
	out, used := movedInputs{}, map[string]bool{}
	for _, p := range pairs {
		if !used[p.g] && out[p.c] == "" {
			used[p.g], out[p.c] = true, p.g
		}
	}
	return out
}

// from is the new name of a deleted file that was renamed, "" if none.
func (r movedInputs) from(gone string) string {
	for c, g := range r {
		if g == gone {
			return c
		}
	}
	return ""
}

// rename rewrites the old paths in text the start commit held as their
// new names: the full path, and `./greet.sh` or `$dir/greet.sh` when the
// file stayed in its folder.
func (r movedInputs) rename(text string) string {
	for c, g := range r {
		text = strings.ReplaceAll(text, g, c)
		if path.Dir(g) == path.Dir(c) {
			text = strings.ReplaceAll(text, "/"+path.Base(g), "/"+path.Base(c))
		}
	}
	return text
}

// callerFollows: an input that names g at the start names c now on a line
// that is otherwise the same (`sh scripts/greet.sh Ada` now `sh
// scripts/hello.sh Ada`).
func callerFollows(ctx context.Context, repo Repo, start string, files []file, g, c string) bool {
	for _, f := range files {
		if f.path == g || f.path == c {
			continue
		}
		was, err := repo.ReadAt(ctx, start, f.path)
		if err != nil || !strings.Contains(string(was), g) {
			continue
		}
		now, err := readWork(repo.Root(), f.path)
		if err != nil {
			continue
		}
		nowLines := map[string]bool{}
		for _, l := range strings.Split(string(now), "\n") {
			nowLines[strings.TrimSpace(l)] = true
		}
		for _, l := range strings.Split(string(was), "\n") {
			if strings.Contains(l, g) && nowLines[strings.TrimSpace(strings.ReplaceAll(l, g, c))] {
				return true
			}
		}
	}
	return false
}

// RenamedOnly reports whether now is was with paths of renamed files put
// in: each pair is {old, new}, a file the change deleted and one it
// added. A pair counts only when now names the new path where was named
// the old one, and the new file, judged against the old one as an edit of
// a script the tests run (read gives both), proves no less. verify's rerun
// guard uses it for the command's own script, which it otherwise fails on
// any change. added: now also has lines the renamed text lacks (none of
// them weakening).
func RenamedOnly(was, now string, pairs [][2]string, read func(old, new string) (string, string, bool)) (ok, added bool) {
	if was == now {
		return false, false
	}
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			out = append(out, strings.TrimSpace(l))
		}
		return out
	}
	nowLines := lines(now)
	m, used := movedInputs{}, map[string]bool{}
	for _, p := range pairs {
		if used[p[0]] || !strings.Contains(was, p[0]) {
			continue
		}
		one := movedInputs{p[1]: p[0]}
		follows := false
		for _, l := range lines(was) {
			if strings.Contains(l, p[0]) && slices.Contains(nowLines, one.rename(l)) {
				follows = true
				break
			}
		}
		if !follows {
			continue
		}
		a, b, ok := read(p[0], p[1])
		if !ok {
			return false, false
		}
		if ch := compareInput(p[1], one.rename(a), b, false, false, true, nil, nil, nil); ch.weakens {
			return false, false
		}
		m[p[1]], used[p[0]] = p[0], true
	}
	if len(m) == 0 {
		return false, false
	}
	// The renamed text must all be there; lines added beside it are new
	// checks unless they weaken (a redefined function, `|| true`), as the
	// QA gate judges added lines.
	base := m.rename(was)
	count := map[string]int{}
	for _, l := range nowLines {
		count[l]++
	}
	for _, l := range lines(base) {
		if count[l] == 0 {
			return false, false
		}
		count[l]--
	}
	for l, n := range count {
		if n > 0 && l != "" {
			if shellline.AddedLineWeakens(l, base) != "" {
				return false, false
			}
			added = true
		}
	}
	return true, added
}
