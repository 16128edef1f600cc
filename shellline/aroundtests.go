package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// WritesTreeAroundTests names the tree write (a stash popped or applied,
// `git checkout REV -- .`, an archive unpacked into the repository) that
// a command line makes before its test command when another command
// follows the tests, "" for none. `git stash pop -q; pytest -q; git stash
// -q` tests a stash made before the session and puts it away again: the
// tree the run records after the line is the one without it (round 28,
// c4). A write with nothing after the tests leaves its files in the tree
// the run records.
func WritesTreeAroundTests(line string) string {
	if !strings.Contains(line, "git") && !strings.ContainsAny(line, "tcruz7") {
		return ""
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return ""
	}
	var calls [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.CallExpr); ok && len(x.Args) > 0 {
			var ws []string
			for _, a := range x.Args {
				s, _ := Literal(a)
				ws = append(ws, s)
			}
			calls = append(calls, StripWrappers(ws))
		}
		return true
	})
	write := ""
	for i, ws := range calls {
		if len(ws) == 0 {
			continue
		}
		if RunsTests(strings.Join(ws, " ")) {
			if write != "" && i < len(calls)-1 {
				return write
			}
			return ""
		}
		if write == "" {
			write = callTreeWrite(ws, ".")
		}
	}
	return ""
}
