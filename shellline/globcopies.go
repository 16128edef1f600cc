package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 19 (t4): `cp -r tpl/* .` wrote tpl's members into the root, but
// the glob was read as the files written where it points (tpl/*). A
// copy into a folder writes DIR/base(M) for each M the source glob
// matches; the agent hook expands the glob on disk
// (session/agentglobcopy.go).

// GlobCopy is a glob source of a copy into a folder.
type GlobCopy struct {
	Pattern string // the source glob, relative to the line's folder or absolute
	Dir     string // where its matches land, by their last name
}

// GlobCopies lists the line's glob sources of cp, mv, install and rsync
// copies into a folder (`cp -r tpl/* .`, `cp -t . tpl/SESSION-*`); nil
// when the line does not parse.
func GlobCopies(cmd string) []GlobCopy {
	if !strings.ContainsAny(cmd, "*?[") {
		return nil
	}
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil
	}
	var out []GlobCopy
	cwd := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		var args []string
		for _, w := range c.Args {
			if s, lit := Literal(w); lit {
				args = append(args, s)
			} else if g, glob := globPattern(w); glob {
				args = append(args, "\x02"+g)
			} else {
				args = append(args, "\x01")
			}
		}
		args = unwrapCall(args)
		if len(args) == 0 {
			return true
		}
		name := CommandName(args[0])
		switch name {
		case "cd", "pushd":
			if len(args) == 2 && args[1] != "" && !strings.HasPrefix(args[1], "\x01") {
				cwd = joinCwd(cwd, strings.TrimPrefix(args[1], "\x02"))
			}
			return true
		case "cp", "mv", "install", "rsync":
		default:
			return true
		}
		var ops []string
		for _, a := range args[1:] {
			if a != "" && !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		dir, srcs, ok := intoFolder(name, args[1:], ops)
		if !ok {
			return true
		}
		into := path.Dir(dir([]string{"x/y"})[0])
		for _, s := range srcs {
			if g, ok := strings.CutPrefix(s, "\x02"); ok && !strings.HasPrefix(into, "\x01") {
				out = append(out, GlobCopy{Pattern: joinCwd(cwd, g), Dir: joinCwd(cwd, into)})
			}
		}
		return true
	})
	return out
}
