package testrun

import "mvdan.cc/sh/v3/syntax"

// A banner printed to stderr (`cat >&2 <<EOF ... EOF`) is output no
// check of the script reads, as one printed to the terminal is (round
// 48). With a command substitution in it, it runs a command, whose
// effects (a file written) may be what a later check reads: that one
// stays a statement.

// toStderr: r sends stdout to stderr (`>&2`, `1>&2`).
func toStderr(r *syntax.Redirect) bool {
	if r.Op != syntax.DplOut || (r.N != nil && r.N.Value != "1") || r.Word == nil {
		return false
	}
	t, lit := literalWord(r.Word)
	return lit && t == "2"
}

// substitutes: s holds a command or process substitution.
func substitutes(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}
