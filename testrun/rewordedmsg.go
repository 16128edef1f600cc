package testrun

import (
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
	"mvdan.cc/sh/v3/syntax"
)

// A message reworded where it stands inside a line that does more: the
// FAIL message in a helper's one-line definition (`check() { ...; echo
// "FAIL: got '$1'"; fi; }`), the summary in the failure test's line (`if
// [ $fail -gt 0 ]; then echo "$fail failed"; exit 1; fi`). An echo of
// plain text to the terminal proves nothing (shellline.PrintsOnly), so
// the line is the same check; the compare read it as a helper redefined
// or a failure test changed (round 48, honest pass 51's C2 and C3).

// msgMark stands for an echo's words in a line read without them.
const msgMark = "\x00msg\x00"

// pairRewordedMessages pairs a removed line with an added line that is
// the same text but for what its echo commands print, each a print of
// plain text to the terminal in both scripts (shellline.PrintsOnly), each
// line a line of its own (shellline.OwnLine) whose output nothing reads
// (capturedLines). An added line's index in now below 0 stands for each
// line that reads as it. Paired lines leave both lists.
func pairRewordedMessages(removed, added []string, addedAt []int, wasSrc, nowSrc string) ([]string, []string, []int) {
	if len(removed) == 0 || len(added) == 0 {
		return removed, added, addedAt
	}
	var wasCap, nowCap map[int]bool
	used := make([]bool, len(added))
	var keep []string
	for _, r := range removed {
		rk, ok := withoutMessages(r, wasSrc)
		if !ok {
			keep = append(keep, r)
			continue
		}
		paired := false
		for j, a := range added {
			if used[j] || a == r {
				continue
			}
			if ak, ok := withoutMessages(a, nowSrc); !ok || ak != rk {
				continue
			}
			if !shellline.OwnLine(r, wasSrc) || !shellline.OwnLine(a, nowSrc) {
				continue
			}
			if wasCap == nil {
				wasCap, nowCap = capturedLines(wasSrc), capturedLines(nowSrc)
			}
			if wasCap == nil || nowCap == nil || readsAt(r, wasSrc, wasCap) ||
				(addedAt[j] >= 0 && nowCap[addedAt[j]+1]) || (addedAt[j] < 0 && readsAt(a, nowSrc, nowCap)) {
				continue
			}
			used[j], paired = true, true
			break
		}
		if !paired {
			keep = append(keep, r)
		}
	}
	al, at := unpaired(added, addedAt, used)
	return keep, al, at
}

// withoutMessages is line with the words of each echo it runs spelled
// msgMark; ok is false when it runs none, does not parse, or an echo is
// more than a print to the terminal in src (a pipe's or a command
// substitution's input, a redirection to a file, words that run or
// assign something).
func withoutMessages(line, src string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return "", false
	}
	type span struct{ from, to int }
	var spans []span
	ok := true
	var walk func(n syntax.Node, captured bool) bool
	walk = func(n syntax.Node, captured bool) bool {
		syntax.Walk(n, func(m syntax.Node) bool {
			if !ok {
				return false
			}
			switch x := m.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				if m != n {
					walk(m, true)
					return false
				}
			case *syntax.BinaryCmd:
				if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
					walk(x.X, true)
					walk(x.Y, captured)
					return false
				}
			case *syntax.Stmt:
				c, is := x.Cmd.(*syntax.CallExpr)
				if !is || len(c.Args) == 0 {
					return true
				}
				if name, lit := literalWord(c.Args[0]); !lit || name != "echo" {
					return true
				}
				if captured || len(c.Assigns) > 0 || x.Background || x.Coprocess ||
					!shellline.PrintsOnly(strings.TrimSuffix(line[x.Pos().Offset():x.End().Offset()], ";"), src) {
					ok = false
					return false
				}
				// Its words and where they go (the terminal, or >&2).
				to := int(x.End().Offset())
				if to > 0 && to <= len(line) && line[to-1] == ';' {
					to--
				}
				spans = append(spans, span{int(c.Args[0].End().Offset()), to})
				return false
			}
			return true
		})
		return ok
	}
	walk(f, false)
	if !ok || len(spans) == 0 {
		return "", false
	}
	out := line
	for i := len(spans) - 1; i >= 0; i-- {
		s := spans[i]
		if s.from > s.to || s.to > len(out) {
			return "", false
		}
		out = out[:s.from] + msgMark + out[s.to:]
	}
	return out, true
}

// readsAt: a line of src that reads as l (trimmed) is in captured.
func readsAt(l, src string, captured map[int]bool) bool {
	for i, s := range strings.Split(src, "\n") {
		if strings.TrimSpace(s) == l && captured[i+1] {
			return true
		}
	}
	return false
}

// capturedLines are the lines of src whose output something may read: in
// a command or process substitution, on a pipe's writing side, in a
// statement whose output goes anywhere but the terminal, stderr or
// /dev/null, and every line of a function called from such a place. Nil
// when src does not parse or sends the script's own output elsewhere
// (`exec >log`).
func capturedLines(src string) map[int]bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	out := map[int]bool{}
	all := false
	var spans [][2]uint // the captured nodes' offsets
	mark := func(n syntax.Node) {
		spans = append(spans, [2]uint{n.Pos().Offset(), n.End().Offset()})
		for l := int(n.Pos().Line()); l <= int(n.End().Line()); l++ {
			out[l] = true
		}
	}
	in := func(n syntax.Node) bool {
		for _, s := range spans {
			if n.Pos().Offset() >= s[0] && n.End().Offset() <= s[1] {
				return true
			}
		}
		return false
	}
	funcs := map[string][]*syntax.FuncDecl{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			if x.Name != nil {
				funcs[x.Name.Value] = append(funcs[x.Name.Value], x)
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			mark(x)
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				mark(x.X)
			}
		case *syntax.Stmt:
			for _, r := range x.Redirs {
				if outputElsewhere(r) {
					mark(x)
					if c, ok := x.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 1 {
						if name, _ := literalWord(c.Args[0]); name == "exec" {
							all = true // `exec >log`: every later line's output
						}
					}
				}
			}
		}
		return true
	})
	if all {
		return nil
	}
	// A function called on a captured line prints there, and so on.
	for changed := true; changed; {
		changed = false
		syntax.Walk(f, func(n syntax.Node) bool {
			c, ok := n.(*syntax.CallExpr)
			if !ok || len(c.Args) == 0 || !in(c) {
				return true
			}
			name, lit := literalWord(c.Args[0])
			if !lit {
				return true
			}
			for _, d := range funcs[name] {
				if !in(d) {
					mark(d)
					changed = true
				}
			}
			return true
		})
	}
	return out
}

// outputElsewhere: r sends stdout somewhere a later command may read (a
// file, another descriptor than stderr).
func outputElsewhere(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.DplOut:
	default:
		return false
	}
	if r.N != nil && r.N.Value != "1" {
		return false // another descriptor than stdout
	}
	t, lit := literalWord(r.Word)
	if !lit {
		return true
	}
	if r.Op == syntax.DplOut {
		return t != "2"
	}
	return t != "/dev/null"
}

// RewordedLines are the lines (trimmed) of tip, the shell script name's
// text now, that answer a line of base (its text at the start) with only
// what an echo prints changed (pairRewordedMessages). verify's rerun
// guard asks it so that it agrees with the local gate.
func RewordedLines(name, base, tip string) map[string]bool {
	if !isShellScript(name, base) {
		return nil
	}
	count := map[string]int{}
	for _, l := range strings.Split(base, "\n") {
		count[strings.TrimSpace(l)]++
	}
	var added []string
	var at []int
	for _, l := range strings.Split(tip, "\n") {
		k := strings.TrimSpace(l)
		if count[k] > 0 {
			count[k]--
			continue
		}
		if k != "" {
			added, at = append(added, k), append(at, -1)
		}
	}
	var removed []string
	for l, n := range count {
		for ; n > 0 && l != ""; n-- {
			removed = append(removed, l)
		}
	}
	_, left, _ := pairRewordedMessages(removed, added, at, base, tip)
	out := map[string]bool{}
	for _, a := range added {
		if !slices.Contains(left, a) {
			out[a] = true
		}
	}
	return out
}
