package testrun

import (
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Checks moved out of the test script into a new file it sources (`.
// scripts/more.sh`, the helper into lib.sh) read as checks removed from
// the script and a file "the session wrote" that its tests run (round
// 47, helper-296's honest pass). A sourced file runs in the script's own
// shell, so the script with each such line replaced by the file's text
// is the same program: judged so, the moved checks answer the removed
// ones, and every line the new file adds is judged where it now stands
// (a helper redefined to pass, an `exit 0`, a counter reset).

var sourcesWord = lazyregexp.New(`(^|[;&|]\s*)(\.|source)\s`)

var cdLine = lazyregexp.New(`(^|[^A-Za-z0-9_-])(cd|pushd|popd)($|[^A-Za-z0-9_-])`)

var sourceLine = lazyregexp.New(`^(?:\.|source)\s+("?\$\(dirname\s+"?\$0"?\)"?/|"?\$\{0%/\*\}"?/|\./)?([A-Za-z0-9_][A-Za-z0-9_./-]*)"?\s*;?\s*$`)

// sourcedNewFile is the repository path of the file the line l of the
// script p sources, when l only sources one and that file is new in the
// session (isNew), "" otherwise.
func sourcedNewFile(p, l string, isNew func(string) bool) string {
	m := sourceLine.FindStringSubmatch(strings.TrimSpace(l))
	if m == nil {
		return ""
	}
	rel := m[2]
	var cands []string
	if m[1] != "" && m[1] != "./" {
		cands = []string{path.Join(path.Dir(p), rel)} // beside the script
	} else {
		// Relative to where the script runs: the root, usually, or its folder.
		cands = []string{path.Clean(rel), path.Join(path.Dir(p), rel)}
	}
	for _, c := range cands {
		if !strings.HasPrefix(c, "../") && c != p && isNew(c) {
			return c
		}
	}
	return ""
}

// inlineNewSourced is now (the script p's text) with each line that only
// sources a file new in the session replaced by that file's text (its
// shebang left out), and the files so read. A file that returns (`return`
// ends a sourced file early, not the script) or cannot be read is left
// as the line it was. Nothing is read in place when a line of was (the
// start's text) that sources a file is gone: the start's side would read
// that file as a line, and a helper swapped for a new file's stand-in
// would compare as lines only added.
func inlineNewSourced(p, was, now string, read func(string) (string, bool), isNew func(string) bool) (string, []string) {
	lines := strings.Split(now, "\n")
	have := map[string]int{}
	for _, l := range lines {
		have[strings.TrimSpace(l)]++
	}
	for _, l := range strings.Split(was, "\n") {
		k := strings.TrimSpace(l)
		if sourcesWord.MatchString(k) {
			if have[k] == 0 {
				return now, nil
			}
			have[k]--
		}
	}
	var files []string
	changed, moved := false, false
	for i, l := range lines {
		// A path relative to where the script runs names another file
		// after a cd (one outside the repository the gate never reads).
		moved = moved || cdLine.MatchString(l)
		f := sourcedNewFile(p, l, isNew)
		if f == "" || (moved && !strings.Contains(l, "$0") && !strings.Contains(l, "${0")) {
			continue
		}
		body, ok := read(f)
		if !ok || !isShellScript(f, body) || returnsEarly(body) {
			continue
		}
		if strings.HasPrefix(body, "#!") {
			_, body, _ = strings.Cut(body, "\n")
		}
		lines[i] = strings.TrimSuffix(body, "\n")
		files = append(files, f)
		changed = true
	}
	if !changed {
		return now, nil
	}
	return strings.Join(lines, "\n"), files
}

// returnsEarly: a line of body starts with return.
func returnsEarly(body string) bool {
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(l); l == "return" || strings.HasPrefix(l, "return ") || strings.HasPrefix(l, "return;") {
			return true
		}
	}
	return false
}

// SourcedMoveWeakens judges the shell script p changed from was to now,
// where now sources files new in the change (read gives their text,
// isNew says which are new): "" when it sources none or, with them read
// in place, proves no less than was (compareInput, as the QA gate judges
// a configured command's own script); else why it proves less. ok is
// false when now sources no new file. verify's rerun guard asks it, so
// that it agrees with the gate.
func SourcedMoveWeakens(p, was, now string, read func(string) (string, bool), isNew func(string) bool, isCode func(string) bool) (why string, ok bool) {
	inl, files := inlineNewSourced(p, was, now, read, isNew)
	if len(files) == 0 {
		return "", false
	}
	ch := compareInput(p, was, inl, false, false, false, nil, isCode, read)
	if ch.weakens {
		return ch.what, true
	}
	return "", true
}
