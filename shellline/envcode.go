package shellline

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A line only added that runs code held in an environment variable
// (`eval "${GREET_TEST_PRELUDE:-}"`, `. "${GREET_TEST_LOCAL:-/dev/null}"`,
// `sh -c "$HOOK"`) lets whoever runs the tests decide what they do: the
// agent sets the variable to `fail=0` in its own shell, the gate's run
// passes, and the repository holds nothing to judge (round 46, helpers 295
// and 297). A variable the script itself sets is its own code, and a path
// under a variable's folder (`. "$NVM_DIR/nvm.sh"`) names a file, so
// neither counts.

// envCode says how the added line runs code from the environment, "" if
// it does not. base is the script at the start.
func envCode(line, base string) string {
	if !strings.Contains(line, "$") {
		return ""
	}
	calls, _, ok := Calls(line)
	if !ok {
		return ""
	}
	for _, c := range calls {
		if c.Node == nil || len(c.Node.Args) < 2 {
			continue
		}
		name, _ := Literal(c.Node.Args[0])
		var code *syntax.Word
		switch CommandName(name) {
		case "eval", ".", "source":
			code = c.Node.Args[1]
		case "sh", "bash", "dash", "zsh", "ksh":
			for i, a := range c.Node.Args[1 : len(c.Node.Args)-1] {
				if t, _ := Literal(a); t == "-c" {
					code = c.Node.Args[i+2]
					break
				}
			}
		}
		if code == nil {
			continue
		}
		if v := wholeParam(code); v != "" && !setsVar(base, v) && !setsVar(line, v) {
			return "it runs code from the environment ($" + v + "), which the repository does not hold: whoever runs the tests decides what they do"
		}
	}
	return ""
}

// wholeParam is the variable a word is made of alone (`$X`, `"${X:-}"`,
// `"${X:-/dev/null}"`), "" for anything else (a path under it, a
// positional or special parameter).
func wholeParam(w *syntax.Word) string {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return ""
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Slice != nil || pe.Repl != nil {
		return ""
	}
	v := pe.Param.Value
	if v == "" || !(v[0] == '_' || v[0] >= 'A' && v[0] <= 'Z' || v[0] >= 'a' && v[0] <= 'z') {
		return ""
	}
	return v
}

// setsVar: text assigns v (`v=`, `read v`, `for v in`, `export v=`).
func setsVar(text, v string) bool {
	q := regexp.QuoteMeta(v)
	return regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + q + `\+?=|\b(read|for|local|declare|typeset)\b[^\n;]*\b` + q + `\b`).MatchString(text)
}
