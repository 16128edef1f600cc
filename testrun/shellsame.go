package testrun

import (
	"bytes"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An honest agent documents the QA command's own script as it works on it:
// a comment after a check (`check "$(sh greet.sh)" hello # no name`), a
// long line split with a backslash, a one-line function laid out over
// several. The line compare read each as a changed check, "proves less"
// (round 26, TestInputsLayoutOnly). A shell script parsed with its
// comments dropped and printed minified is the program the shell runs:
// when the start's and the session's print the same, nothing it checks
// changed.

// minShell is src parsed as a shell program and printed minified, without
// comments; ok is false when it does not parse.
func minShell(src string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "", false
	}
	var b bytes.Buffer
	if err := syntax.NewPrinter(syntax.Minify(true)).Print(&b, f); err != nil {
		return "", false
	}
	return b.String(), true
}

// IsShellScript is isShellScript for verify, which reads added lines as
// the gate does.
func IsShellScript(name, body string) bool { return isShellScript(name, body) }

// isShellScript: a .sh/.bash file, or one whose first line is a shell's
// shebang.
func isShellScript(name, body string) bool {
	switch path.Ext(name) {
	case ".sh", ".bash":
		return true
	}
	first, _, _ := strings.Cut(body, "\n")
	if !strings.HasPrefix(first, "#!") {
		return false
	}
	f := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(f) == 0 {
		return false
	}
	prog := path.Base(f[0])
	if prog == "env" && len(f) > 1 {
		prog = path.Base(f[1])
	}
	switch prog {
	case "sh", "bash", "dash", "ash", "ksh", "zsh":
		return true
	}
	return false
}

// sameShellProgram reports whether was and now, shell scripts, differ only
// in comments and layout: their statements print the same (shellstmts.go).
func sameShellProgram(name, was, now string) bool {
	if !isShellScript(name, was) || !isShellScript(name, now) {
		return false
	}
	return sameStmts(was, now, false)
}

// sameShellLine: two lines, each a complete shell command list on its
// own, that print the same without comments.
func sameShellLine(was, now string) bool { return sameStmts(was, now, true) }

func sameStmts(was, now string, some bool) bool {
	a, ok := shellStmts(was)
	if !ok || some && len(a) == 0 {
		return false
	}
	b, ok := shellStmts(now)
	if !ok || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].canon != b[i].canon {
			return false
		}
	}
	return true
}

// StatementsKept is the statement compare (shellstmts.go) of a shell
// script's two versions, for verify's rerun guard: wasKept says whether
// every line of was reading a (trimmed) text is in a statement now has
// too, nowKept whether now's line i (0-based) is, and moved names a
// statement that now runs after an exit or the like it did not. ok is
// false when name is not a shell script or a version does not parse.
func StatementsKept(name, was, now string) (wasKept func(string) bool, nowKept func(int) bool, moved string, ok bool) {
	if !isShellScript(name, was) {
		return nil, nil, "", false
	}
	k := keepStatements(was, now)
	if k == nil {
		return nil, nil, "", false
	}
	return k.wasKept, func(i int) bool { return k.nowLines[i+1] }, k.moved, true
}
