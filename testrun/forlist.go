package testrun

import (
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// A shell check script often loops over its cases on one line: `for name
// in Ada; do check ...; done`. An honest agent adding cases edits that
// line (`for name in Ada Bob Cy; do ...`), which the line compare read as
// a changed check, "proves less" (round 26, work split over two
// sessions: TestHonestTwoSessions26). The loop's body unchanged, more
// plain words in its list only run it more often.

// forLine is `for VAR in WORDS; do REST` (or `for VAR in WORDS` ending the
// line, `do` on the next), REST compared as written.
var forLine = lazyregexp.New(`^for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;]*?)\s*(;.*)?$`)

// plainWord is a list word with no expansion, quote, glob or operator: an
// added one is a value, never a command or a pattern.
var plainWord = lazyregexp.New(`^[A-Za-z0-9_.,:@%+/-]+$`)

// forListGrown reports whether now is was with plain words added to its
// for-loop's list, the variable and the rest of the line unchanged. Every
// word of was stays, in order; none is dropped, so no case is lost.
func forListGrown(was, now string) bool {
	a, b := forLine.FindStringSubmatch(was), forLine.FindStringSubmatch(now)
	if a == nil || b == nil || a[1] != b[1] || a[3] != b[3] {
		return false
	}
	old, grown := strings.Fields(a[2]), strings.Fields(b[2])
	if len(grown) <= len(old) {
		return false
	}
	i := 0
	for _, w := range grown {
		if i < len(old) && w == old[i] {
			i++
			continue
		}
		if !plainWord.MatchString(w) {
			return false
		}
	}
	return i == len(old)
}

// pairGrownLists drops from removed each line some added line grows the
// for-list of, or (shell: the file is a shell script) that an added line
// is with only a comment or spacing changed (shellsame.go); that added
// line stays, judged as an added line.
func pairGrownLists(removed, added []string, shell bool) []string {
	used := make([]bool, len(added))
	out := removed[:0:0]
	for _, r := range removed {
		paired := false
		for j, a := range added {
			if !used[j] && (forListGrown(r, a) || shell && sameShellLine(r, a)) {
				used[j], paired = true, true
				break
			}
		}
		if !paired {
			out = append(out, r)
		}
	}
	return out
}

// UnansweredRemovals is removed less the lines an added one answers: a
// for-loop's list grown, or (in a shell script: name and base, its start
// content) the same command with a comment or spacing changed. verify's
// rerun guard asks it so that it agrees with the local gate.
func UnansweredRemovals(name, base string, removed, added []string) []string {
	return pairGrownLists(removed, added, isShellScript(name, base))
}

// SameShellProgram reports whether was and now, the file name's contents,
// are shell scripts that differ only in comments and layout.
func SameShellProgram(name, was, now string) bool { return sameShellProgram(name, was, now) }
