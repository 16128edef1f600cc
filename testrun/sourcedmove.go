package testrun

import (
	"path"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
	"mvdan.cc/sh/v3/syntax"
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

// runMarkLine: a new script run as a child whose failure marks the
// parent's count (`sh scripts/more.sh || fail=$((fail+1))`).
var runMarkLine = lazyregexp.New(`^(?:sh|bash)\s+("?\$\(dirname\s+"?\$0"?\)"?/|"?\$\{0%/\*\}"?/|\./)?([A-Za-z0-9_][A-Za-z0-9_./-]*)"?\s*\|\|\s*([A-Za-z_][A-Za-z0-9_]*)=(\S+)\s*;?\s*$`)

var cdLine = lazyregexp.New(`(^|[^A-Za-z0-9_-])(cd|pushd|popd)($|[^A-Za-z0-9_-])`)

// A comment may follow (`. ./lib.sh  # helpers`): a # that starts a word.
var sourceLine = lazyregexp.New(`^(?:\.|source)\s+("?\$\(dirname\s+"?\$0"?\)"?/|"?\$\{0%/\*\}"?/|\./)?([A-Za-z0-9_][A-Za-z0-9_./-]*)"?(?:\s*;?\s*|\s*;#.*|\s*;?\s+#.*)$`)

// sourcedNewFile is the repository path of the file the line l of the
// script p sources, when l only sources one and that file is new in the
// session (isNew), "" otherwise. exists says which files the tree now
// holds.
func sourcedNewFile(p, l string, exists, isNew func(string) bool) string {
	m := sourceLine.FindStringSubmatch(strings.TrimSpace(l))
	if m == nil {
		return ""
	}
	return newFileAt(p, m[1], m[2], exists, isNew)
}

// newFileAt is the new file a script p names as prefix+rel (prefix the
// script's folder by $0, "./" or ""), "" when what it names is not new.
// As the shell resolves the name, the first candidate that exists is the
// file that runs (round 48: `. ./env.sh` runs the root's env.sh the
// start has, not a new scripts/env.sh): when that one is not new, none
// is read in its place.
func newFileAt(p, prefix, rel string, exists, isNew func(string) bool) string {
	var cands []string
	if prefix != "" && prefix != "./" {
		cands = []string{path.Join(path.Dir(p), rel)} // beside the script
	} else {
		// Relative to where the script runs: the root, usually, or its folder.
		cands = []string{path.Clean(rel), path.Join(path.Dir(p), rel)}
	}
	for _, c := range cands {
		if strings.HasPrefix(c, "../") || c == ".." {
			return "" // outside the repository: whatever is there runs
		}
		if isNew(c) {
			if c == p {
				return ""
			}
			return c
		}
		if c == p || exists(c) {
			return "" // a file the start has, or the script itself, runs
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
	exists := func(f string) bool {
		_, ok := read(f)
		return ok
	}
	var files []string
	changed, moved := false, false
	for i, l := range lines {
		// A path relative to where the script runs names another file
		// after a cd (one outside the repository the gate never reads).
		moved = moved || cdLine.MatchString(l)
		f := sourcedNewFile(p, l, exists, isNew)
		run := false
		if f == "" {
			f, run = ranNewFile(p, l, now, exists, isNew), true
		}
		if f == "" || (moved && !strings.Contains(l, "$0") && !strings.Contains(l, "${0")) {
			continue
		}
		body, ok := read(f)
		if !ok || !isShellScript(f, body) || returnsEarly(body) {
			continue
		}
		if run {
			if body, ok = childChecks(body, now); !ok {
				continue
			}
		}
		if strings.HasPrefix(body, "#!") {
			_, body, _ = strings.Cut(body, "\n")
		}
		if !endsCleanly(body) {
			continue
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

// endOfInlined follows a file's text read in place to see that it ends
// where the file does.
const endOfInlined = ": sessiongate-end-of-inlined-file"

// endsCleanly: body, read in place of a line, parses into the same
// statements as apart (round 48): alone it parses (no here-document left
// open, no quote unterminated), and a line after it stays a statement of
// its own (no trailing backslash joins it, no open here-document or
// quote swallows it). Else the parent's lines after it would vanish from
// the judged text.
func endsCleanly(body string) bool {
	parse := func(src string) (*syntax.File, error) {
		return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	}
	if _, err := parse(body); err != nil {
		return false
	}
	text := strings.TrimSuffix(body, "\n") + "\n"
	f, err := parse(text + endOfInlined + "\n")
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	last := f.Stmts[len(f.Stmts)-1]
	from, to := int(last.Pos().Offset()), int(last.End().Offset())
	return from == len(text) && to == len(text)+len(endOfInlined)
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

// ranNewFile is the new file the line l of the script p (whose text is
// now) runs as a child whose failure marks a count the script tests
// after it (`sh scripts/more.sh || fail=$((fail+1))`, then `exit $fail`
// below), "" otherwise. A child's marks do not reach the parent: only
// its status does, and only through such a line.
func ranNewFile(p, l, now string, exists, isNew func(string) bool) string {
	l = strings.TrimSpace(l)
	m := runMarkLine.FindStringSubmatch(l)
	if m == nil {
		return ""
	}
	v, val := m[3], strings.Trim(m[4], `"'`)
	if val == "0" || val == "" || val == "$"+v || val == "${"+v+"}" {
		return "" // no mark
	}
	i := strings.Index(now, l)
	if i < 0 || !readsLater(now[i+len(l):], v) {
		return ""
	}
	return newFileAt(p, m[1], m[2], exists, isNew)
}

// readsLater: text tests v in a condition or an exit status.
func readsLater(text, v string) bool {
	re := regexp.MustCompile(`(^|\n)\s*(if\s+)?(\[|test|exit|\(\()[^\n]*\$?\{?` + regexp.QuoteMeta(v) + `\b`)
	return re.MatchString(text)
}

// childChecks is the text of a child script that fails on its own
// failure count (shellline.CounterExits) without its plumbing: the lines
// the parent now holds too (the count's start, the same helper) and its
// last statement, the failure test, whose work the parent's mark does.
// The rest (the checks moved out of the parent) is read in the parent's
// place. ok is false when the child does not fail on its failures.
func childChecks(body, parent string) (string, bool) {
	if !shellline.CounterExits(body) {
		return "", false
	}
	have := map[string]bool{}
	for _, l := range strings.Split(parent, "\n") {
		have[strings.TrimSpace(l)] = true
	}
	lines := strings.Split(body, "\n")
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(body), "")
	if err != nil || len(f.Stmts) == 0 {
		return "", false
	}
	// Each of the parent's helpers the child calls must be defined in the
	// child too: in its own process, a helper only the parent defines is
	// "not found" and marks nothing.
	defined := definedFuncs(body)
	parentFns := definedFuncs(parent)
	missing := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if name, lit := literalWord(c.Args[0]); lit && parentFns[name] && !defined[name] {
				missing = true
			}
		}
		return !missing
	})
	if missing {
		return "", false
	}
	drop := map[int]bool{}
	for i, st := range f.Stmts {
		from, to := int(st.Pos().Line()), int(st.End().Line())
		plumbing := i == len(f.Stmts)-1 // the failure test
		if !plumbing {
			// A start or a helper the parent holds line for line.
			switch c := st.Cmd.(type) {
			case *syntax.FuncDecl:
				plumbing = true
			case *syntax.CallExpr:
				plumbing = len(c.Args) == 0 && len(c.Assigns) > 0
			}
			for l := from; plumbing && l <= to && l <= len(lines); l++ {
				plumbing = have[strings.TrimSpace(lines[l-1])]
			}
		}
		if plumbing {
			for l := from; l <= to; l++ {
				drop[l] = true
			}
		}
	}
	// The child's own helpers under the parent's names: renamed.
	own, kept := map[string]bool{}, map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil && parentFns[d.Name.Value] {
			if drop[int(d.Pos().Line())] {
				kept[d.Name.Value] = true
			} else {
				own[d.Name.Value] = true
			}
		}
		return true
	})
	for n := range kept {
		delete(own, n)
	}
	if renamed, ok := childOwnHelpers(body, parent, f, own); ok {
		lines = strings.Split(renamed, "\n")
	}
	var out []string
	for i, l := range lines {
		if !drop[i+1] && !(i == 0 && strings.HasPrefix(l, "#!")) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n", true
}

// definedFuncs names the functions a script defines anywhere.
func definedFuncs(src string) map[string]bool {
	out := map[string]bool{}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return out
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil {
			out[d.Name.Value] = true
		}
		return true
	})
	return out
}
