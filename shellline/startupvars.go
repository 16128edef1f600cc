package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 22 (c2): variables that make a shell run code the line does not
// show. BASH_ENV is a file every non-interactive bash sources before its
// script (a `bash -c`, a make recipe, a git hook with a bash shebang),
// ENV the one an interactive sh sources, PROMPT_COMMAND a line bash runs
// before each prompt. Set by the agent (on the line, or exported into a
// shell that lives on, as Copilot CLI's does, or written into Claude
// Code's CLAUDE_ENV_FILE), they run what no check read: `export
// PROMPT_COMMAND='rm -f SESSION-PROTOCOL.md'`. An honest agent has no need
// of them; ENV is also a common name for a deploy stage (`ENV=production
// npm start`) or an app's settings file (`ENV=config/dev.env`), so it
// counts only with a value that names a shell file (.sh, ...rc, .profile).

// startupVars are the variables above.
var startupVars = map[string]bool{"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true}

// SetsStartupVar returns the first assignment of a POSIX line that sets
// BASH_ENV, ENV (to a file) or PROMPT_COMMAND to a value that is not
// empty, as `NAME=...`; "" when there is none. Prefix assignments,
// export/declare/typeset/readonly/local and `env NAME=V` count.
func SetsStartupVar(cmd string) string {
	if !strings.Contains(cmd, "BASH_ENV") && !strings.Contains(cmd, "ENV=") && !strings.Contains(cmd, "PROMPT_COMMAND") {
		return "" // the cheap look first: the hook runs this on every line
	}
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return ""
	}
	found := ""
	check := func(name string, value *syntax.Word) {
		if found != "" || !startupVars[name] || value == nil || len(value.Parts) == 0 {
			return
		}
		v, lit := Literal(value)
		if lit && strings.TrimSpace(v) == "" {
			return
		}
		if name == "ENV" && !shellFile(wordText(value)) {
			return // ENV=production, ENV=config/dev.env: not a shell's startup file
		}
		found = name + "=" + wordText(value)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			for _, a := range x.Assigns {
				if a.Name != nil {
					check(a.Name.Value, a.Value)
				}
			}
			// env [-i] NAME=V CMD: the assignments before the command
			if len(x.Args) > 1 {
				if w0, _ := Literal(x.Args[0]); CommandName(w0) != "env" {
					return true
				}
				for _, w := range x.Args[1:] {
					s, lit := Literal(w)
					if !lit || !strings.HasPrefix(s, "-") && !strings.Contains(s, "=") {
						break
					}
					if name, v, ok := strings.Cut(s, "="); ok && startupVars[name] {
						check(name, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: v}}})
					}
				}
			}
		case *syntax.DeclClause:
			for _, a := range x.Args {
				if a.Name != nil {
					check(a.Name.Value, a.Value)
				}
			}
		}
		return true
	})
	return found
}

// shellFile: a value naming a shell script or startup file.
func shellFile(v string) bool {
	v = strings.Trim(v, `"'`)
	return strings.HasSuffix(v, ".sh") || strings.HasSuffix(v, "rc") || strings.HasSuffix(v, "profile")
}
