package testrun

import (
	"path"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
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

// forListGrownIn is forListGrown where base is the start's whole script:
// an added word the script already names (`[ "$name" = skip ] && exit 0`
// in the body, or in a function it calls) or that one of its case, [[ ==
// ]] or =~ patterns matches may take a branch no old word took, so it is
// no plain new case (round 27, c2).
func forListGrownIn(was, now, base string) bool {
	if !forListGrown(was, now) {
		return false
	}
	old := map[string]bool{}
	for _, w := range strings.Fields(forLine.FindStringSubmatch(was)[2]) {
		old[w] = true
	}
	known := map[string]bool{}
	for _, w := range strings.FieldsFunc(base, func(r rune) bool { return !plainWord.MatchString(string(r)) }) {
		known[w] = true
	}
	pats := scriptPatterns(base)
	for _, w := range strings.Fields(forLine.FindStringSubmatch(now)[2]) {
		if old[w] {
			continue
		}
		if known[w] {
			return false
		}
		for _, p := range pats {
			if p(w) {
				return false
			}
		}
	}
	return true
}

// scriptPatterns is every case pattern, [[ == ]] / [[ != ]] pattern and
// =~ regular expression of a shell script, as matchers; a pattern that is
// not literal text matches everything.
func scriptPatterns(src string) []func(string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	var out []func(string) bool
	glob := func(w *syntax.Word) {
		p, ok := patternText(w)
		if !ok {
			out = append(out, func(string) bool { return true })
			return
		}
		out = append(out, func(s string) bool { m, err := path.Match(p, s); return m || err != nil })
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CaseItem:
			for _, w := range x.Patterns {
				glob(w)
			}
		case *syntax.BinaryTest:
			w, ok := x.Y.(*syntax.Word)
			if !ok {
				break
			}
			switch x.Op {
			case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
				glob(w)
			case syntax.TsReMatch:
				p, ok := patternText(w)
				re, err := regexp.Compile(p)
				if !ok || err != nil {
					out = append(out, func(string) bool { return true })
				} else {
					out = append(out, re.MatchString)
				}
			}
		}
		return true
	})
	return out
}

// patternText is a pattern word's text when it has no expansion.
func patternText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// pairGrownLists drops from removed each line some added line grows the
// for-list of, or (shell: the file is a shell script) that an added line
// is with only a comment or spacing changed (shellsame.go); that added
// line stays, judged as an added line.
func pairGrownLists(removed, added []string, shell bool, base string) []string {
	used := make([]bool, len(added))
	out := removed[:0:0]
	for _, r := range removed {
		paired := false
		for j, a := range added {
			if !used[j] && (forListGrownIn(r, a, base) || shell && sameShellLine(r, a)) {
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
// content, tip its content now) the same command with a comment or
// spacing changed, or with an assertion helper renamed. verify's
// rerun guard asks it so that it agrees with the local gate.
func UnansweredRemovals(name, base, tip string, removed, added []string) []string {
	if isShellScript(name, base) {
		// A line added only where nothing runs it answers nothing
		// (neverrun.go), and an assertion helper renamed, its body the
		// same, does: the gate's reading (pairRenamedHelpers), so the two
		// agree.
		added = liveAdded(added, tip)
		// Nor does a line of the start that never ran (startnoop.go).
		if neverRan := startNeverRan(base); len(neverRan) > 0 {
			var kept []string
			for _, r := range removed {
				if k := strings.TrimSpace(r); neverRan[k] > 0 {
					neverRan[k]--
					continue
				}
				kept = append(kept, r)
			}
			removed = kept
		}
		at := make([]int, len(added))
		removed, added, at = pairRenamedHelpers(removed, added, at, base, tip)
		for i := range at {
			at[i] = -1 // where in tip: summedAt finds each
		}
		removed, added, at = pairSummedCounts(removed, added, at, tip)
		// A message reworded inside a line, a failure test in another
		// form (rewordedmsg.go, failuretest.go).
		removed, added, at = pairRewordedMessages(removed, added, at, base, tip)
		removed, added, _ = pairSummedFailureTests(removed, added, at, base, tip)
	}
	return pairGrownLists(removed, added, isShellScript(name, base), base)
}

// SameShellProgram reports whether was and now, the file name's contents,
// are shell scripts that differ only in comments and layout.
func SameShellProgram(name, was, now string) bool { return sameShellProgram(name, was, now) }

// liveAdded keeps the added lines tip runs somewhere: a line every copy
// of which stands in a dead region (deadFuncLines) is dropped.
func liveAdded(added []string, tip string) []string {
	dead := deadFuncLines(tip)
	if len(dead) == 0 {
		return added
	}
	live := map[string]bool{}
	for i, l := range strings.Split(tip, "\n") {
		if !dead[i+1] {
			live[strings.TrimSpace(l)] = true
		}
	}
	var out []string
	for _, a := range added {
		if live[strings.TrimSpace(a)] {
			out = append(out, a)
		}
	}
	return out
}
