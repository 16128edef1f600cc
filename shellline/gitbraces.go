package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// expandedWords are a call's words after the shell's brace expansion:
// `git {-c,core.hooksPath=/dev/null} commit` runs `git -c
// core.hooksPath=/dev/null commit`, which the literal words hid from the
// git and person-command rules (GitBypass, Unhooks, HidesChanges,
// TouchesRecords, PrunesUnreachable, PersonCommand, Schedules,
// ChangesGateDefaults, and SignalsHooks through expandedPrograms).
// Call.Words stays as
// parsed: other rules index it beside Node.Args. A word whose expansion is
// too long to read becomes one unknown word (""). Most lines hold no
// brace, and then the words are returned as they are.
func expandedWords(c Call) []string {
	w, _ := expandedArgs(c)
	return w
}

// ExpandedWords is expandedWords for rules outside this package
// (session's observed reads: `cat .agents/{HANDOFF.md,}` reads the file).
func ExpandedWords(c Call) []string { return expandedWords(c) }

// expandedArgs is expandedWords with the parsed word each comes from
// (nil for a word read as unknown), for rules that read a word's
// expansions ($P, $(cat f)) beside its literal. An empty alternative
// (`cd {,/tmp/x}`) is no word, as in the shell: the line runs `cd /tmp/x`.
func expandedArgs(c Call) ([]string, []*syntax.Word) {
	brace := false
	for _, w := range c.Words {
		if strings.ContainsRune(w, '{') {
			brace = true
			break
		}
	}
	if !brace || len(c.Node.Args) != len(c.Words) {
		return c.Words, c.Node.Args
	}
	out := make([]string, 0, len(c.Words)+4)
	nodes := make([]*syntax.Word, 0, len(c.Words)+4)
	for i, a := range c.Node.Args {
		if !strings.ContainsRune(c.Words[i], '{') {
			out = append(out, c.Words[i])
			nodes = append(nodes, a)
			continue
		}
		ws := braceWords(a)
		for _, bw := range ws {
			s, ok := Literal(bw)
			if !ok {
				s = ""
			} else if s == "" && len(ws) > 1 && !quotedWord(bw) {
				continue // an empty alternative: no word
			}
			out = append(out, s)
			nodes = append(nodes, bw)
		}
	}
	return out, nodes
}

// quotedWord reports a word with a quoted part: a quoted empty string is
// a word, an unquoted one is none.
func quotedWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}
