package quietlint

import (
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// Linters names the linters a line runs (flake8, pylint, ruff, eslint,
// shellcheck, golangci-lint, markdownlint), each once, in order.
func Linters(line string) []string {
	var out []string
	for _, words := range shellline.Programs(line) {
		if prog, _ := anyLinter(words); prog != "" && !contains(out, prog) {
			out = append(out, prog)
		}
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// FileWide returns the comment in a source file by which prog skips the
// whole file, or "" (round 21 review: `# flake8: noqa` on a file the
// session changed let a lint run pass that could not fail on it). Only
// the documented whole-file forms: flake8 `# flake8: noqa` (no codes),
// pylint `# pylint: skip-file` or `disable=all`, ruff `# ruff: noqa` or
// flake8's, eslint `/* eslint-disable */` naming no rule, shellcheck
// `# shellcheck disable=all`, golangci-lint `//nolint` or `//nolint:all`
// on or just above the package clause.
func FileWide(prog, file string, body []byte) string {
	ext := strings.ToLower(path.Ext(file))
	py := ext == ".py" || ext == ".pyi"
	prev := ""
	// Line by line without a slice of them: a file padded with a megabyte
	// of blank lines is read whole (round 30).
	for l := range strings.Lines(string(body)) {
		l = strings.TrimSuffix(l, "\n")
		t := strings.ToLower(strings.TrimSpace(l))
		c := comment(t, "#")
		switch {
		case (prog == "flake8" || prog == "ruff") && py && (squash(c) == "flake8:noqa" || squash(c) == "flake8=noqa"): // `# flake8= noqa` too (measured)
			return "# flake8: noqa"
		case prog == "ruff" && py && squash(c) == "ruff:noqa":
			return "# ruff: noqa"
		case prog == "pylint" && py && (squash(c) == "pylint:skip-file" || hasPylintDisableAll(c) && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t")):
			// at module level, even after code, it holds to the module's end
			// (measured: `import os  # pylint: disable=all` hid x=1's
			// invalid-name, exit 0); indented, its block's only
			return strings.TrimSpace(l[strings.Index(l, "#"):])
		case prog == "shellcheck" && (ext == ".sh" || ext == ".bash" || ext == "") && strings.HasPrefix(squash(c), "shellcheckdisable=") && hasWord(strings.TrimPrefix(squash(c), "shellcheckdisable="), "all"):
			return "# shellcheck disable=all"
		case prog == "eslint" && strings.Contains(t, "/*") && eslintDisableAll(t) && !eslintEnabledAfter(body, l):
			return "/* eslint-disable */"
		case prog == "golangci-lint" && ext == ".go" && strings.HasPrefix(t, "package ") && (nolintAll(comment(t, "//")) || nolintAll(prev)):
			return "//nolint"
		}
		if strings.HasPrefix(t, "//") {
			prev = comment(t, "//")
		} else if t != "" {
			prev = ""
		}
	}
	return ""
}

// Reads reports whether prog lints file, by its name as FileWide judges
// it: flake8, ruff and pylint Python files, shellcheck shell scripts,
// golangci-lint Go files, eslint JavaScript and TypeScript. A large file
// none of a line's linters reads (a lock file, an image) need not be read
// for their comments.
func Reads(prog, file string) bool {
	switch ext := strings.ToLower(path.Ext(file)); prog {
	case "flake8", "ruff", "pylint":
		return ext == ".py" || ext == ".pyi"
	case "shellcheck":
		return ext == ".sh" || ext == ".bash" || ext == ""
	case "golangci-lint":
		return ext == ".go"
	case "eslint":
		switch ext {
		case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".vue", ".svelte", ".astro", ".html":
			return true
		}
	}
	return false
}

// comment is the text after the first marker on a line ("" when none).
func comment(t, marker string) string {
	if i := strings.Index(t, marker); i >= 0 {
		return strings.TrimSpace(t[i+len(marker):])
	}
	return ""
}

func squash(s string) string { return strings.Join(strings.Fields(s), "") }

func hasPylintDisableAll(c string) bool {
	v, ok := strings.CutPrefix(squash(c), "pylint:disable=")
	return ok && hasWord(v, "all")
}

// eslintDisableAll: a block comment `/* eslint-disable */` naming no rule
// (eslint-disable-line and -next-line are one line's).
func eslintDisableAll(t string) bool {
	i := strings.Index(t, "/*")
	rest := strings.TrimSpace(t[i+2:])
	rest, ok := strings.CutPrefix(rest, "eslint-disable")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "*/"))
	return rest == "" || strings.HasPrefix(rest, "--") // `/* eslint-disable -- why */`
}

func nolintAll(c string) bool {
	c = squash(c)
	return c == "nolint" || c == "nolint:all" || strings.HasPrefix(c, "nolint//") || strings.HasPrefix(c, "nolint:all//")
}

// eslintEnabledAfter: a `/* eslint-enable */` after the line closes the
// region, so the disable is not the whole file's.
func eslintEnabledAfter(body []byte, line string) bool {
	b := string(body)
	i := strings.Index(b, line)
	return i >= 0 && strings.Contains(squash(strings.ToLower(b[i+len(line):])), "/*eslint-enable")
}

// SameFile: new is old renamed (maybe edited): they share at least half
// the non-blank lines of the longer, lines that only suppress a linter
// (a whole-file comment added in the move) left out.
func SameFile(old, new []byte) bool {
	read := func(b []byte) (map[string]int, int) {
		m, n := map[string]int{}, 0
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || suppressionOnly(l) {
				continue
			}
			m[l]++
			n++
		}
		return m, n
	}
	a, na := read(old)
	b, nb := read(new)
	common := 0
	for l, k := range a {
		common += min(k, b[l])
	}
	d := max(na, nb)
	return d > 0 && 2*common >= d
}

// suppressionOnly: a comment line that only turns a linter off.
func suppressionOnly(l string) bool {
	for _, prog := range []string{"flake8", "ruff", "pylint", "shellcheck", "eslint", "golangci-lint"} {
		if FileWide(prog, "x.py", []byte(l)) != "" || FileWide(prog, "x.sh", []byte(l)) != "" || FileWide(prog, "x.js", []byte(l)) != "" {
			return true
		}
	}
	return false
}
