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
// in comments and layout.
func sameShellProgram(name, was, now string) bool {
	if !isShellScript(name, was) || !isShellScript(name, now) {
		return false
	}
	a, ok := minShell(was)
	if !ok {
		return false
	}
	b, ok := minShell(now)
	return ok && a == b
}

// sameShellLine: two lines, each a complete shell command list on its
// own, that print the same without comments.
func sameShellLine(was, now string) bool {
	a, ok := minShell(was)
	if !ok || strings.TrimSpace(a) == "" {
		return false
	}
	b, ok := minShell(now)
	return ok && a == b
}
