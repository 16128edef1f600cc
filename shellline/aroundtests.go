package shellline

import (
	"path"
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
	if u := Unwrap(line); u != line {
		if g, err := syntax.NewParser().Parse(strings.NewReader(u), ""); err == nil {
			if w := fileWriteAroundTests(g); w != "" {
				return w
			}
		}
	} else if w := fileWriteAroundTests(f); w != "" {
		return w
	}
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

// fileWriteAroundTests names a file of the work tree (a relative path)
// that a statement before the line's first test statement writes, when
// another statement follows the tests: `mv greet.go /tmp/b.go && cp
// /tmp/good.go greet.go && go test ./... && mv /tmp/b.go greet.go` tested
// a good greet.go and put the broken one back; the tree recorded after
// the line held the broken one, and a broken change ended COMPLETE, clean
// (round 56, helper 333, TestR56FileSwappedAroundTests).
func fileWriteAroundTests(f *syntax.File) string {
	var stmts []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if _, ok := st.Cmd.(*syntax.CallExpr); ok {
				var b strings.Builder
				if syntax.NewPrinter().Print(&b, st) == nil {
					stmts = append(stmts, b.String())
				}
				return false
			}
		}
		return true
	})
	inTree := func(st string) []string {
		var out []string
		ps, _ := Writes(st)
		for _, p := range ps {
			if !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$") {
				out = append(out, path.Clean(p))
			}
		}
		return out
	}
	// A file written before the tests and again after them: swapped in
	// and back. One written only before stays in the tree the run
	// records (`cp .env.example .env && go test ./...`), one written only
	// after was not read by the tests.
	before := map[string]string{}
	for i, st := range stmts {
		if !RunsTests(st) {
			for _, p := range inTree(st) {
				if before[p] == "" {
					before[p] = st
				}
			}
			continue
		}
		for _, after := range stmts[i+1:] {
			for _, p := range inTree(after) {
				if st, ok := before[p]; ok {
					return p + " (written by `" + st + "`, and again by `" + after + "`)"
				}
			}
		}
		return ""
	}
	return ""
}
