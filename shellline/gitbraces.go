package shellline

import "strings"

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
	brace := false
	for _, w := range c.Words {
		if strings.ContainsRune(w, '{') {
			brace = true
			break
		}
	}
	if !brace || len(c.Node.Args) != len(c.Words) {
		return c.Words
	}
	out := make([]string, 0, len(c.Words)+4)
	for i, a := range c.Node.Args {
		if !strings.ContainsRune(c.Words[i], '{') {
			out = append(out, c.Words[i])
			continue
		}
		for _, bw := range braceWords(a) {
			s, ok := Literal(bw)
			if !ok {
				s = ""
			}
			out = append(out, s)
		}
	}
	return out
}
